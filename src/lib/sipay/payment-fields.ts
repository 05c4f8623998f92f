import { formatAmount, fromMinorUnits, toMinorUnits } from "./amount"
import { SipayError } from "./errors"
import type { CardInput, PaymentRequest } from "./types"
import { BILLING_FIELD_NAMES, compact, signFields } from "./wire"

/** The payment request of paySmart3D and paySmart2D: validation and the wire fields (without card data). */

const INVOICE_ID = /^[A-Za-z0-9_]{1,64}$/
const CURRENCIES = new Set(["TRY", "USD", "EUR"])
const CYCLES = new Set(["D", "M", "Y"])
const MAX_HOLDER_NAME = 100

function invalid(operation: string, description: string): SipayError {
  return new SipayError({ operation, description, code: "validation", retryable: false })
}

function isPositiveInteger(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value) && value > 0
}

function minorOrInvalid(operation: string, value: unknown, label: string): bigint {
  try {
    return toMinorUnits(value as never)
  } catch (error) {
    throw invalid(operation, `${label}: ${(error as Error).message}`)
  }
}

export function validatePaymentRequest(operation: string, request: PaymentRequest, options: { requireUrls: boolean }): void {
  if (typeof request.invoiceId !== "string" || !INVOICE_ID.test(request.invoiceId)) {
    throw invalid(operation, "invoiceId must be 1 to 64 characters of A-Z, a-z, 0-9 and _")
  }
  if (!CURRENCIES.has(request.currencyCode)) {
    throw invalid(operation, "currencyCode must be TRY, USD or EUR")
  }
  if (!isPositiveInteger(request.installmentsNumber)) {
    throw invalid(operation, "installmentsNumber must be a positive integer")
  }
  for (const [label, value] of [
    ["invoiceDescription", request.invoiceDescription],
    ["name", request.name],
    ["surname", request.surname],
  ] as const) {
    if (typeof value !== "string" || value.trim() === "") {
      throw invalid(operation, `${label} is required`)
    }
  }
  if (options.requireUrls && (!request.returnUrl || !request.cancelUrl)) {
    throw invalid(operation, "returnUrl and cancelUrl are required for the 3D form")
  }
  if (request.transactionType !== undefined && request.transactionType !== "Auth" && request.transactionType !== "PreAuth") {
    throw invalid(operation, "transactionType must be Auth or PreAuth")
  }
  const total = minorOrInvalid(operation, request.total, "total")
  if (total <= 0n) {
    throw invalid(operation, "total must be greater than zero")
  }
  if (!Array.isArray(request.items) || request.items.length === 0) {
    throw invalid(operation, "items must contain at least one item")
  }
  let itemsSum = 0n
  request.items.forEach((item, index) => {
    if (typeof item?.name !== "string" || item.name.trim() === "") {
      throw invalid(operation, `items[${index}].name is required`)
    }
    if (!isPositiveInteger(item.quantity)) {
      throw invalid(operation, `items[${index}].quantity must be a positive integer`)
    }
    itemsSum += minorOrInvalid(operation, item.price, `items[${index}].price`) * BigInt(item.quantity)
  })
  if (itemsSum !== total) {
    throw invalid(operation, `items sum to ${fromMinorUnits(itemsSum)} but total is ${fromMinorUnits(total)}`)
  }
  const recurring = request.recurring
  if (recurring) {
    if (!CYCLES.has(recurring.cycle)) {
      throw invalid(operation, "recurring.cycle must be D, M or Y")
    }
    if (!isPositiveInteger(recurring.paymentNumber) || !isPositiveInteger(recurring.interval)) {
      throw invalid(operation, "recurring.paymentNumber and recurring.interval must be positive integers")
    }
    if (request.installmentsNumber > 1) {
      throw invalid(operation, "recurring payments cannot have installments")
    }
  }
  const agricultural = request.agricultural
  if (agricultural && (!isPositiveInteger(agricultural.maturityPeriod) || !isPositiveInteger(agricultural.paymentFrequency))) {
    throw invalid(operation, "agricultural.maturityPeriod and paymentFrequency must be positive integers")
  }
}

export function validateCard(operation: string, card: CardInput): void {
  const holder = typeof card?.holderName === "string" ? card.holderName.trim() : ""
  if (holder === "" || holder.length > MAX_HOLDER_NAME) {
    throw invalid(operation, `card holder name must be 1 to ${MAX_HOLDER_NAME} characters`)
  }
  if (!/^\d{12,19}$/.test(String(card.number ?? "").replace(/[\s-]/g, ""))) {
    throw invalid(operation, "card number must be 12 to 19 digits")
  }
  if (!/^(0?[1-9]|1[0-2])$/.test(String(card.expiryMonth ?? "").trim())) {
    throw invalid(operation, "card expiry month must be 1 to 12")
  }
  if (!/^(\d{2}|\d{4})$/.test(String(card.expiryYear ?? "").trim())) {
    throw invalid(operation, "card expiry year must be 2 or 4 digits")
  }
  if (!/^\d{3,4}$/.test(String(card.cvv ?? "").trim())) {
    throw invalid(operation, "card CVV must be 3 or 4 digits")
  }
}

type Shape = "form" | "json"

/** Strings for the browser form, numbers where the 2D sample sends numbers; total is always the formatted string. */
function paymentFields(request: PaymentRequest, merchantKey: string, shape: Shape) {
  const number = (value: number) => (shape === "form" ? String(value) : value)
  const items = request.items.map((item) => ({
    name: item.name,
    // The interface types price as a number; a 2-decimal string converts to the same shortest literal.
    price: Number(formatAmount(item.price)),
    quantity: item.quantity,
    description: item.description,
  }))
  const billing = Object.fromEntries(
    Object.entries(BILLING_FIELD_NAMES)
      .map(([key, wireName]) => [wireName, request.billing?.[key as keyof typeof BILLING_FIELD_NAMES]])
      .filter(([, value]) => value !== undefined && value !== null && value !== "")
  )
  const recurring = request.recurring
  return compact({
    merchant_key: merchantKey,
    invoice_id: request.invoiceId,
    invoice_description: request.invoiceDescription,
    total: formatAmount(request.total),
    currency_code: request.currencyCode,
    installments_number: number(request.installmentsNumber),
    name: request.name,
    surname: request.surname,
    items: shape === "form" ? JSON.stringify(items) : items,
    return_url: request.returnUrl,
    cancel_url: request.cancelUrl,
    ...billing,
    ip: request.ip,
    card_program: request.cardProgram,
    transaction_type: request.transactionType,
    sale_webhook_key: request.saleWebhookKey,
    order_type: recurring ? number(1) : undefined,
    recurring_payment_number: recurring ? number(recurring.paymentNumber) : undefined,
    recurring_payment_cycle: recurring?.cycle,
    recurring_payment_interval: recurring ? number(recurring.interval) : undefined,
    recurring_web_hook_key: recurring?.webhookKey,
    maturity_period: request.agricultural ? number(request.agricultural.maturityPeriod) : undefined,
    payment_frequency: request.agricultural ? number(request.agricultural.paymentFrequency) : undefined,
    response_method: request.responseMethod,
    payment_completed_by: request.paymentCompletedBy,
    // The total is the whole price, any installment fee already a line of it: the gateway adds no commission on top
    // (the published clients spell it so: sipay-node's branded-solution payloads).
    is_comission_from_user: number(0),
  })
}

/** The non-card fields of the paySmart3D browser form, all strings, signed with the app secret. */
export function threeDFormFields(request: PaymentRequest, merchantKey: string, appSecret: string): Record<string, string> {
  const fields = Object.fromEntries(Object.entries(paymentFields(request, merchantKey, "form")).map(([name, value]) => [name, String(value)]))
  return signFields("paySmart", fields, appSecret)
}

export function cardFields(card: CardInput) {
  return {
    cc_holder_name: card.holderName.trim(),
    cc_no: card.number.replace(/[\s-]/g, ""),
    expiry_month: card.expiryMonth.trim().padStart(2, "0"),
    expiry_year: card.expiryYear.trim(),
    cvv: card.cvv.trim(),
  }
}

/** The JSON payment fields without a card (paySmart2D, payByCardToken*): items an array, installments_number a number, total the hashed string. */
export function cardPaymentFields(request: PaymentRequest, merchantKey: string, appSecret: string) {
  return signFields("paySmart", paymentFields(request, merchantKey, "json"), appSecret)
}

/** The paySmart2D JSON body. */
export function twoDBody(request: PaymentRequest, card: CardInput, merchantKey: string, appSecret: string) {
  return { ...cardFields(card), ...cardPaymentFields(request, merchantKey, appSecret) }
}
