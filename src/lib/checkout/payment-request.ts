import type { CustomerLanguage } from "../customer-language"
import { PaymentRequest } from "../sipay"
import { CheckoutSettings } from "../settings"
import { buildGatewayItems, CartLine } from "./items"
import { describeInvoice } from "./urls"
import { RecurringPlan } from "./recurring"

/** The parts of a cart a payment attempt is built from (read server-side, never from the storefront). */
export type CartForPayment = {
  id: string
  email?: string | null
  lines: CartLine[]
  shippingTotal?: string | number | null
  billing?: AddressForPayment | null
  shipping?: AddressForPayment | null
  customer?: { first_name?: string | null; last_name?: string | null; email?: string | null; phone?: string | null } | null
}

export type AddressForPayment = {
  first_name?: string | null
  last_name?: string | null
  address_1?: string | null
  address_2?: string | null
  city?: string | null
  postal_code?: string | null
  province?: string | null
  country_code?: string | null
  phone?: string | null
}

export type AttemptChoice = {
  installmentsNumber: number
  maturityPeriod?: number
  paymentFrequency?: number
}

/** Refuses what the store's installment policy does not allow, with a message for the shopper. */
export function checkInstallmentChoice(choice: AttemptChoice, settings: CheckoutSettings, recurring: RecurringPlan | null = null): string | null {
  const count = choice.installmentsNumber
  if (!Number.isInteger(count) || count < 1 || count > 12) {
    return "installments_number must be a whole number from 1 to 12"
  }
  if (recurring && (count > 1 || choice.maturityPeriod !== undefined || choice.paymentFrequency !== undefined)) {
    return "a recurring payment cannot be paid in installments"
  }
  if (count > settings.maxInstallments) {
    return `this store offers at most ${settings.maxInstallments} installments`
  }
  const agricultural = choice.maturityPeriod !== undefined || choice.paymentFrequency !== undefined
  if (agricultural) {
    if (!settings.agriculturalInstallments) {
      return "agricultural installments are not offered by this store"
    }
    if (!Number.isInteger(choice.maturityPeriod) || !Number.isInteger(choice.paymentFrequency)) {
      return "agricultural installments need both maturity_period and payment_frequency"
    }
  }
  return null
}

function buyerName(cart: CartForPayment): { name: string; surname: string } {
  const source = [cart.billing, cart.shipping, cart.customer].find((entry) => entry?.first_name || entry?.last_name)
  const first = source?.first_name?.trim() || (cart.email ?? "").split("@")[0] || "Müşteri"
  const last = source?.last_name?.trim() || first
  return { name: first.slice(0, 50), surname: last.slice(0, 50) }
}

/** The gateway request of one attempt: amount, items and capture mode from the server's view only. */
export function buildPaymentRequest(input: {
  invoiceId: string
  cart: CartForPayment
  amount: string
  currencyCode: "TRY" | "USD" | "EUR"
  choice: AttemptChoice
  settings: CheckoutSettings
  backendUrl: string | null
  recurring?: RecurringPlan | null
  ip?: string
  storeName?: string
  /** The customer's language (the cart's locale, else the store's, else the option): the invoice description's. */
  language: CustomerLanguage
}): PaymentRequest {
  const { cart, settings, choice } = input
  const address = cart.billing ?? cart.shipping ?? null
  const backend = input.backendUrl?.replace(/\/+$/, "") ?? null
  const invoiceDescription = describeInvoice(settings.descriptionTemplate, { cart_id: cart.id, store: input.storeName, language: input.language })
  return {
    invoiceId: input.invoiceId,
    invoiceDescription,
    total: input.amount,
    currencyCode: input.currencyCode,
    installmentsNumber: choice.installmentsNumber,
    ...buyerName(cart),
    items: buildGatewayItems({ lines: cart.lines, shippingTotal: cart.shippingTotal, total: input.amount, fallbackName: invoiceDescription }),
    returnUrl: backend ? `${backend}/sipay/3d/return` : undefined,
    cancelUrl: backend ? `${backend}/sipay/3d/cancel` : undefined,
    transactionType: settings.capture ? "Auth" : "PreAuth",
    saleWebhookKey: settings.saleWebhookKey ?? undefined,
    billing: address
      ? {
          address1: address.address_1 ?? undefined,
          address2: address.address_2 ?? undefined,
          city: address.city ?? undefined,
          postcode: address.postal_code ?? undefined,
          state: address.province ?? undefined,
          country: address.country_code?.toUpperCase() ?? undefined,
          email: cart.email ?? undefined,
          phone: address.phone ?? undefined,
        }
      : cart.email
        ? { email: cart.email }
        : undefined,
    ip: input.ip,
    agricultural:
      choice.maturityPeriod !== undefined && choice.paymentFrequency !== undefined
        ? { maturityPeriod: choice.maturityPeriod, paymentFrequency: choice.paymentFrequency }
        : undefined,
    recurring: input.recurring
      ? {
          paymentNumber: input.recurring.paymentNumber,
          cycle: input.recurring.cycle,
          interval: input.recurring.interval,
          webhookKey: settings.recurringWebhookKey ?? undefined,
        }
      : undefined,
    responseMethod: "POST",
  }
}
