import { validateHashKey } from "../../lib/sipay/hash"
import { parseAmount } from "../core/amounts"
import { istanbulYearMonth } from "../core/clock"
import { CODES, fail, optionalField, requireField, UnauthenticatedError } from "../core/codes"
import type { Gateway } from "../core/gateway"
import { usableUrl } from "../core/urls"
import { findCard, luhnValid, maskCard, TEST_CARDS, type TestCard } from "../cards"
import type { Currency, Merchant, RecurringRequest, SaleItem, SavedCardRecord, TransactionType } from "../types"

/** A card payment request that passed every rule of the interface. */
export type PaymentOrder = {
  merchant: Merchant
  integration: "2D" | "3D"
  invoice_id: string
  invoice_description: string
  total_minor: number
  currency_code: Currency
  installments: number
  /** The test card's entry in the outcome table. */
  card: TestCard
  /** What a sale keeps of the card: never its number. */
  card_view: { masked: string; bin: string; last4: string }
  holder_name: string
  /** The stored card a payByCardToken* request paid with. */
  saved_card: SavedCardRecord | null
  transaction_type: TransactionType
  items: SaleItem[]
  payer: Record<string, string>
  sale_webhook_key: string
  recurring: RecurringRequest | null
  agricultural: { maturity_period: number; payment_frequency: number } | null
  return_url: string
  cancel_url: string
  response_method: "GET" | "POST"
  payment_completed_by: "app" | "merchant"
}

const COMMON_MANDATORY = [
  "cc_holder_name", "cc_no", "expiry_month", "expiry_year", "cvv", "currency_code", "installments_number",
  "invoice_id", "invoice_description", "name", "surname", "total", "merchant_key", "items", "hash_key",
]
/**
 * payByCardToken*: the stored card and its customer instead of the card fields. installments_number
 * may be left out (1, as sipay-node signs it), name/surname too (sipay-node sends customer_name only),
 * invoice_description too (the PHP SDK's PaymentInvoice never sends it).
 */
const TOKEN_MANDATORY = ["card_token", "customer_number", "currency_code", "invoice_id", "total", "merchant_key", "items", "hash_key"]

/** Where a payment's card comes from: its fields (paySmart*), or a card stored by saveCard (payByCardToken*). */
export type CardSource = "fields" | "token"

/** Resolves a payByCardToken* request's stored card (saved-cards/records.ts), or throws the rule's code. */
export type StoredCardResolver = (body: Record<string, unknown>, merchant: Merchant) => SavedCardRecord
/** The test card a stored card is (its bin and last 4 digits): the number itself was never kept. */
function findStoredTestCard(saved: SavedCardRecord): TestCard | undefined {
  return TEST_CARDS.find((card) => card.number.startsWith(saved.bin) && card.number.endsWith(saved.last4))
}

const PAYER_FIELDS = ["name", "surname", "bill_address1", "bill_address2", "bill_city", "bill_postcode", "bill_state", "bill_country", "bill_email", "bill_phone", "ip"]
export const CURRENCIES: Currency[] = ["TRY", "USD", "EUR"]
const CARD_PROGRAMS = ["WORLD", "BONUS", "MAXIMUM", "BANKKART_COMBO", "PARAF", "AXESS", "ADVANT", "CARD_FNS"]

function positiveInteger(body: Record<string, unknown>, field: string): number {
  const text = requireField(body, field)
  if (!/^\d+$/.test(text.trim()) || Number(text) < 1) fail(CODES.VALIDATION, `The ${field} must be a positive integer.`)
  return Number(text)
}

/** Card payment request hash: total|installments_number|currency_code|merchant_key|invoice_id, app secret. */
function checkRequestHash(body: Record<string, unknown>, merchant: Merchant, totalMinor: number, installments: number): void {
  const parts = validateHashKey(String(body.hash_key), merchant.app_secret)
  if (!parts || parts.length !== 5) fail(CODES.INVALID_HASH, "Invalid hash key.")
  const [total, installment, currency, merchantKey, invoiceId] = parts
  const hashedTotal = parseAmount(total)
  if (hashedTotal === null || hashedTotal !== totalMinor) fail(CODES.TOTAL_HASH_MISMATCH, "The total does not match the total in the hash key.")
  if (Number(installment) !== installments || currency !== String(body.currency_code) || merchantKey !== merchant.merchant_key || invoiceId !== String(body.invoice_id)) {
    fail(CODES.INVALID_HASH, "Invalid hash key: the signed data does not match the request.")
  }
}

/** 3D forms carry items JSON-encoded, 2D bodies as an array; payByCardToken* takes either (the PHP SDK encodes them, sipay-node does not). */
function parseItems(raw: unknown, integration: "2D" | "3D" | "either"): SaleItem[] {
  let list: unknown = raw
  if (integration === "either" && typeof raw === "string") integration = "3D"
  if (integration === "either") {
    if (!Array.isArray(raw)) fail(CODES.VALIDATION, "The items field must be a JSON array of items.")
  } else if (integration === "3D") {
    try {
      list = JSON.parse(String(raw))
    } catch {
      fail(CODES.VALIDATION, "The items field must be a JSON-encoded array of items.")
    }
  } else if (!Array.isArray(raw)) {
    fail(CODES.VALIDATION, "The items field must be a JSON array of items.")
  }
  if (!Array.isArray(list) || list.length === 0) fail(CODES.VALIDATION, "The items field must be a non-empty array of items.")
  return list.map((entry, index) => {
    const item = (entry ?? {}) as Record<string, unknown>
    const price = parseAmount(item.price)
    const quantityText = String(item.quantity ?? item.qnantity ?? "")
    if (typeof item.name !== "string" || item.name.trim() === "") fail(CODES.VALIDATION, `The items.${index}.name field is required.`)
    if (price === null) fail(CODES.VALIDATION, `The items.${index}.price must be a non-negative amount.`)
    if (!/^\d+$/.test(quantityText) || Number(quantityText) < 1) fail(CODES.VALIDATION, `The items.${index}.quantity must be a positive integer.`)
    return { name: item.name, price_minor: price, quantity: Number(quantityText), description: String(item.description ?? "") }
  })
}

/** expiry_month / expiry_year well-formed and not in the past (sandbox clock, Istanbul calendar); the 4-digit year. */
export function checkExpiry(monthField: unknown, yearField: unknown, gateway: Gateway): { month: number; year: number } {
  const month = String(monthField).trim()
  const yearText = String(yearField).trim()
  if (!/^\d{1,2}$/.test(month) || Number(month) < 1 || Number(month) > 12) fail(CODES.VALIDATION, "The expiry_month must be 1 to 12.")
  if (!/^(\d{2}|\d{4})$/.test(yearText)) fail(CODES.VALIDATION, "The expiry_year must have 2 or 4 digits.")
  const year = yearText.length === 2 ? 2000 + Number(yearText) : Number(yearText)
  if (isExpired(Number(month), year, gateway)) fail(CODES.VALIDATION, "The card has expired (expiry_month, expiry_year).")
  return { month: Number(month), year }
}

export function isExpired(month: number, year: number, gateway: Gateway): boolean {
  const now = istanbulYearMonth(gateway.clock.now())
  return year < now.year || (year === now.year && month < now.month)
}

function checkCardData(body: Record<string, unknown>, gateway: Gateway): string {
  const number = String(body.cc_no).replace(/\s+/g, "")
  if (!luhnValid(number)) fail(CODES.VALIDATION, "The cc_no is not a valid card number.")
  checkExpiry(body.expiry_month, body.expiry_year, gateway)
  if (!/^\d{3,4}$/.test(String(body.cvv).trim())) fail(CODES.VALIDATION, "The cvv must be 3 or 4 digits.")
  return number
}

function parseRecurring(body: Record<string, unknown>, merchant: Merchant, installments: number): RecurringRequest | null {
  // Only 1 marks a recurring payment; any other value is a single payment, as live (sipay-node's
  // examples/final-payment-test.ts sends 'sale' and is titled "Final test with working credentials").
  if (optionalField(body, "order_type") !== "1") return null
  const paymentNumber = positiveInteger(body, "recurring_payment_number")
  const cycle = requireField(body, "recurring_payment_cycle")
  if (!["D", "M", "Y"].includes(cycle)) fail(CODES.VALIDATION, "The recurring_payment_cycle must be D, M or Y.")
  const interval = positiveInteger(body, "recurring_payment_interval")
  if (installments > 1) fail(CODES.RECURRING_WITH_INSTALLMENTS, "Recurring payments cannot have installments.")
  const webhookKey = requireField(body, "recurring_web_hook_key")
  if (!(webhookKey in merchant.recurring_webhooks)) fail(CODES.INVALID_WEBHOOK_KEY, "Invalid recurring web hook key.")
  return { payment_number: paymentNumber, cycle: cycle as RecurringRequest["cycle"], interval, webhook_key: webhookKey }
}

function parseAgricultural(body: Record<string, unknown>, card: TestCard) {
  const maturity = optionalField(body, "maturity_period")
  const frequency = optionalField(body, "payment_frequency")
  if (!card.agricultural) {
    if (maturity || frequency) fail(CODES.INSTALLMENT_NOT_ALLOWED, "Agricultural installments are not available for this card.")
    return null
  }
  const terms = { maturity_period: positiveInteger(body, "maturity_period"), payment_frequency: positiveInteger(body, "payment_frequency") }
  if (!card.agricultural.maturity_period.includes(terms.maturity_period) || !card.agricultural.payment_frequency.includes(terms.payment_frequency)) {
    fail(CODES.INSTALLMENT_NOT_ALLOWED, "The maturity_period or payment_frequency is not offered for this card.")
  }
  return terms
}

function choice<T extends string>(body: Record<string, unknown>, field: string, allowed: Record<string, T>, fallback: T): T {
  const value = optionalField(body, field)
  if (value === "") return fallback
  const found = allowed[value] ?? allowed[value.toUpperCase()]
  if (!found) fail(CODES.VALIDATION, `The ${field} must be one of ${Object.keys(allowed).join(", ")}.`)
  return found
}

/**
 * Applies the interface's rules in a fixed order; throws the first broken rule's code. A stored-card
 * payment (`storedCard`) takes its card from the merchant's stored cards where the card fields are checked.
 */
export function validatePayment(body: Record<string, unknown>, gateway: Gateway, integration: "2D" | "3D", tokenMerchant: Merchant | null, storedCard?: StoredCardResolver): PaymentOrder {
  const common = storedCard ? TOKEN_MANDATORY : COMMON_MANDATORY
  const mandatory = integration === "3D" ? [...common, "cancel_url", "return_url"] : common
  for (const field of mandatory) requireField(body, field)
  const merchant = gateway.merchants.byKey(String(body.merchant_key))
  if (!merchant) fail(CODES.MERCHANT_NOT_FOUND, "Merchant not found.")
  if (tokenMerchant && tokenMerchant.merchant_key !== merchant.merchant_key) throw new UnauthenticatedError()
  const allowed = integration === "3D" ? gateway.merchants.allows3d(merchant) : gateway.merchants.allows2d(merchant)
  if (!allowed) fail(CODES.INTEGRATION_NOT_ALLOWED, `The ${integration} integration method is not allowed for this merchant.`)
  for (const field of ["return_url", "cancel_url"]) {
    if (optionalField(body, field) && !usableUrl(body[field])) fail(CODES.VALIDATION, `The ${field} must be an absolute http(s) URL.`)
  }
  const currency = String(body.currency_code) as Currency
  if (!CURRENCIES.includes(currency)) fail(CODES.INVALID_CURRENCY, "Invalid currency code.")
  const totalMinor = parseAmount(body.total)
  if (totalMinor === null || totalMinor === 0) fail(CODES.VALIDATION, "The total must be a positive amount.")
  const installments = storedCard && optionalField(body, "installments_number") === "" ? 1 : positiveInteger(body, "installments_number")
  checkRequestHash(body, merchant, totalMinor, installments)
  let cardView: PaymentOrder["card_view"]
  let found: TestCard | undefined
  let holderName: string
  let savedCard: SavedCardRecord | null = null
  if (storedCard) {
    savedCard = storedCard(body, merchant)
    if (isExpired(savedCard.expiry_month, savedCard.expiry_year, gateway)) fail(CODES.VALIDATION, "The stored card has expired.")
    cardView = { masked: `${savedCard.bin}****${savedCard.last4}`, bin: savedCard.bin, last4: savedCard.last4 }
    found = findStoredTestCard(savedCard)
    holderName = savedCard.holder_name
  } else {
    if (String(body.cc_holder_name).length > 100) fail(CODES.VALIDATION, "The cc_holder_name may not be greater than 100 characters.")
    const cardNumber = checkCardData(body, gateway)
    cardView = { masked: maskCard(cardNumber), bin: cardNumber.slice(0, 6), last4: cardNumber.slice(-4) }
    found = findCard(cardNumber)
    holderName = String(body.cc_holder_name)
  }
  const items = parseItems(body.items, storedCard ? "either" : integration)
  if (items.reduce((sum, item) => sum + item.price_minor * item.quantity, 0) !== totalMinor) {
    fail(CODES.ITEMS_TOTAL_MISMATCH, "The sum of the items does not equal the total.")
  }
  if (!merchant.installments.includes(installments)) fail(CODES.INSTALLMENT_NOT_ALLOWED, "Installment not found for this merchant.")
  const cardProgram = optionalField(body, "card_program")
  if (cardProgram && !CARD_PROGRAMS.includes(cardProgram)) fail(CODES.VALIDATION, `The card_program must be one of ${CARD_PROGRAMS.join(", ")}.`)
  const transactionType = choice<TransactionType>(body, "transaction_type", { Auth: "Auth", PreAuth: "Pre-Authorization" }, "Auth")
  const responseMethod = choice(body, "response_method", { GET: "GET", POST: "POST" }, "GET")
  const completedBy = integration === "3D" ? choice(body, "payment_completed_by", { app: "app", merchant: "merchant" }, "app") : "app"
  const recurring = parseRecurring(body, merchant, installments)
  const saleWebhookKey = optionalField(body, "sale_webhook_key") || optionalField(body, "sale_web_hook_key")
  if (saleWebhookKey && !(saleWebhookKey in merchant.sale_webhooks)) fail(CODES.INVALID_WEBHOOK_KEY, "Invalid sale web hook key.")
  const invoiceId = String(body.invoice_id)
  if (gateway.store.findSale(merchant.merchant_key, invoiceId)) fail(CODES.INVOICE_REUSED, "The invoice id has already been used.")
  const card = found
  if (!card || card.outcome === "pos_not_defined") fail(CODES.POS_NOT_DEFINED, "Pos was not defined")
  if (!card.installments.includes(installments)) fail(CODES.INSTALLMENT_NOT_ALLOWED, "Installment not found for this card.")
  const agricultural = parseAgricultural(body, card)
  const payer = Object.fromEntries(PAYER_FIELDS.map((field) => [field, optionalField(body, field)]))
  return {
    merchant, integration, invoice_id: invoiceId, invoice_description: optionalField(body, "invoice_description"),
    total_minor: totalMinor, currency_code: currency, installments, card, card_view: cardView,
    holder_name: holderName, saved_card: savedCard, transaction_type: transactionType, items, payer,
    sale_webhook_key: saleWebhookKey, recurring, agricultural,
    return_url: optionalField(body, "return_url"), cancel_url: optionalField(body, "cancel_url"),
    response_method: responseMethod,
    payment_completed_by: completedBy,
  }
}
