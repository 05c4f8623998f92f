import { ContainerRegistrationKeys, MedusaError, Modules } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { SIPAY_MODULE } from "../../modules/sipay"
import type SipayModuleService from "../../modules/sipay/service"
import { AttemptChoice, CartForPayment, checkInstallmentChoice } from "../../lib/checkout/payment-request"
import { RecurringPlan, recurringPlanOfCart } from "../../lib/checkout/recurring"
import { CheckoutSettings } from "../../lib/settings"
import { formatAmount } from "../../lib/sipay"
import { SUPPORTED_CURRENCIES } from "../../providers/sipay/utils/session-data"
import type { CustomerLanguage } from "../../lib/customer-language"
import { customerLanguageOf, readStoreFacts } from "./store-facts"
import { configurationRefusalError, SHOPPER_CODE_PREFIX } from "../../lib/config-alerts/refusal-error"
import type { CartForFee } from "../../lib/checkout/fee-line"

export type AttemptFlow = "3d" | "2d"

/** Open (pending) attempts one session may have (option maxOpenAttemptsPerSession). */
export const DEFAULT_MAX_OPEN_ATTEMPTS = 10

export const PROVIDER_OF_FLOW: Record<AttemptFlow, string> = {
  "3d": "pp_sipay_sipay",
  "2d": "pp_sipay-2d_sipay",
}

export type AttemptContext = {
  sessionId: string
  amount: string
  currencyCode: (typeof SUPPORTED_CURRENCIES)[number]
  cart: CartForPayment
  settings: CheckoutSettings
  backendUrl: string | null
  attemptNumber: number
  recurring: RecurringPlan | null
  storeName?: string
  /** The language of what the customer reads from this attempt (the invoice description). */
  language: CustomerLanguage
  /** The cart's total and lines as read here: whether its installment fee line is the choice's is decided on them. */
  feeBasis: CartForFee
}

const CART_FIELDS = [
  "id",
  "email",
  "completed_at",
  "locale",
  "currency_code",
  "total",
  "shipping_total",
  "items.id",
  "items.title",
  "items.product_title",
  "items.variant_title",
  "items.quantity",
  "items.total",
  "items.unit_price",
  "items.variant_id",
  "items.metadata",
  "items.product.metadata",
  "billing_address.*",
  "shipping_address.*",
  "customer.first_name",
  "customer.last_name",
  "customer.email",
  "customer.phone",
]

/** The payment collection a cart pays through, read from the link alone (one query). */
export async function collectionOfCart(query: { graph: (config: any) => Promise<{ data: unknown[] }> }, cartId: string): Promise<string | null> {
  const { data } = await query.graph({ entity: "cart_payment_collection", fields: ["payment_collection_id"], filters: { cart_id: cartId } })
  return (data[0] as { payment_collection_id?: string } | undefined)?.payment_collection_id ?? null
}

/**
 * The cart that pays through a session's collection: the caller's named cart when the link (read at
 * once with the rest, `namedCollection`) says it pays through it, else the link read from the
 * collection's side. A named cart that does not pay through it gets the answer of an unknown session.
 */
async function cartOfSession(
  query: { graph: (config: any) => Promise<{ data: unknown[] }> },
  session: { id: string; payment_collection_id: string },
  named?: { cartId: string; collectionId: string | null }
): Promise<string | null> {
  if (named) {
    if (named.collectionId !== session.payment_collection_id) {
      // The same answer as an unknown session: a session id alone reveals nothing.
      throw new MedusaError(MedusaError.Types.NOT_FOUND, `Payment session ${session.id} was not found`)
    }
    return named.cartId
  }
  return cartOfCollection(query, session.payment_collection_id)
}

/** The cart a payment collection belongs to, read from the link alone (one query). */
export async function cartOfCollection(query: { graph: (config: any) => Promise<{ data: unknown[] }> }, collectionId: string): Promise<string | null> {
  const { data } = await query.graph({ entity: "cart_payment_collection", fields: ["cart_id"], filters: { payment_collection_id: collectionId } })
  return (data[0] as { cart_id?: string } | undefined)?.cart_id ?? null
}

/**
 * Everything an attempt is built from, read server-side: the session, its cart and the settings.
 * The reads that do not depend on each other run at once (session, settings, the session's
 * attempts; the cart too when the caller named it, checked against the session's afterwards).
 */
export async function loadAttemptContext(
  container: MedusaContainer,
  input: { session_id: string; flow: AttemptFlow; choice: AttemptChoice; cart_id?: string }
): Promise<AttemptContext> {
  const paymentModule = container.resolve(Modules.PAYMENT)
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const sipay = container.resolve<SipayModuleService>(SIPAY_MODULE)

  const readCart = (cartId: string) => query.graph({ entity: "cart", fields: CART_FIELDS, filters: { id: cartId } }).then(({ data }) => data[0] as Record<string, any> | undefined)
  const [[session], settings, attempts, namedCart, store, namedCollection] = await Promise.all([
    paymentModule.listPaymentSessions({ id: input.session_id }),
    sipay.getCheckoutSettings(),
    sipay.listPaymentAttempts({ session_id: input.session_id }, { select: ["attempt_number", "status"] }),
    input.cart_id !== undefined ? readCart(input.cart_id) : Promise.resolve(undefined),
    readStoreFacts(query),
    input.cart_id !== undefined ? collectionOfCart(query, input.cart_id) : Promise.resolve(null),
  ])
  if (!session) {
    throw new MedusaError(MedusaError.Types.NOT_FOUND, `Payment session ${input.session_id} was not found`)
  }
  if (session.provider_id !== PROVIDER_OF_FLOW[input.flow]) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, `Payment session ${input.session_id} does not belong to ${PROVIDER_OF_FLOW[input.flow]}`)
  }
  if (session.status !== "pending" && session.status !== "requires_more") {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `Payment session ${input.session_id} is ${session.status}; no new payment can start`)
  }
  if (input.flow === "2d" && !settings.directPaymentEnabled) {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, "Direct card payment is not offered by this store")
  }
  if (input.flow === "3d" && !settings.threeDEnabled) {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, "3D Secure card payment is not offered by this store")
  }
  const currencyCode = String(session.currency_code).toUpperCase() as AttemptContext["currencyCode"]
  if (!(SUPPORTED_CURRENCIES as readonly string[]).includes(currencyCode)) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, `Sipay does not accept ${currencyCode}`)
  }

  const cartId = await cartOfSession(query, session, input.cart_id !== undefined ? { cartId: input.cart_id, collectionId: namedCollection } : undefined)
  if (!cartId) {
    throw new MedusaError(MedusaError.Types.NOT_FOUND, `No cart pays through payment session ${input.session_id}`)
  }
  const cart = namedCart ?? (await readCart(cartId))
  if (!cart) {
    throw new MedusaError(MedusaError.Types.NOT_FOUND, `No cart pays through payment session ${input.session_id}`)
  }
  if (cart.completed_at) {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `Cart ${cartId} is already completed`)
  }
  const recurring = recurringPlanOfCart((cart.items ?? []).map((item: Record<string, any>) => item.product?.metadata ?? null))
  if (typeof recurring === "string") {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, recurring)
  }
  if (recurring && !settings.recurringWebhookKey) {
    // The gateway would refuse it ("The recurring_web_hook_key field is required."): nothing is sent.
    throw configurationRefusalError("recurring_webhook_key_missing")
  }
  const problem = checkInstallmentChoice(input.choice, settings, recurring)
  if (problem && recurring && input.choice.installmentsNumber !== 1) {
    // Told to the shopper in their language (shopper-messages), not as this developer text.
    throw new MedusaError(MedusaError.Types.INVALID_DATA, problem, `${SHOPPER_CODE_PREFIX}recurring_no_installments`)
  }
  if (problem) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, problem)
  }

  const open = attempts.filter((attempt) => attempt.status === "pending").length
  const cap = sipay.getOptions().maxOpenAttemptsPerSession ?? DEFAULT_MAX_OPEN_ATTEMPTS
  if (open >= cap) {
    throw new MedusaError(
      MedusaError.Types.NOT_ALLOWED,
      `This payment session already has ${open} open payment attempts; finish one or wait for them to expire before starting another`
    )
  }
  const attemptNumber = attempts.reduce((highest, attempt) => Math.max(highest, attempt.attempt_number), 0) + 1

  const context: AttemptContext = {
    sessionId: session.id,
    amount: formatAmount(session.amount as never),
    currencyCode,
    settings,
    backendUrl: sipay.getOptions().backendUrl ?? null,
    attemptNumber,
    recurring,
    storeName: store.name ?? undefined,
    language: customerLanguageOf(cart.locale, store, sipay.getOptions().defaultLocale),
    feeBasis: { total: cart.total, items: cart.items ?? [] },
    cart: {
      id: cart.id,
      email: cart.email,
      shippingTotal: cart.shipping_total ?? null,
      lines: (cart.items ?? []).map((item: Record<string, any>) => ({
        title: [item.product_title ?? item.title, item.variant_title && item.variant_title !== "Default" ? item.variant_title : null]
          .filter(Boolean)
          .join(" - "),
        quantity: Number(item.quantity),
        total: item.total,
      })),
      billing: cart.billing_address ?? null,
      shipping: cart.shipping_address ?? null,
      customer: cart.customer ?? null,
    },
  }
  return context
}
