import { formatAmount, type AmountInput } from "./amount"
import { generateHashKey } from "./hash"
import type {
  CommissionsQuery,
  PosQuery,
  InstallmentsQuery,
  RecurringPlanUpdate,
  RefundOptions,
  TransactionsQuery,
} from "./types"
import { SipayError } from "./errors"

/**
 * The wire format, written down once: which fields each hash_key covers, in which order, and the
 * body of every operation. Bodies are signed from their own fields, so body and hash cannot drift.
 */
export const HASH_PARTS = {
  paySmart: ["total", "installments_number", "currency_code", "merchant_key", "invoice_id"],
  checkstatus: ["invoice_id", "merchant_key"],
  confirmPayment: ["merchant_key", "invoice_id", "status"],
  completePayment: ["merchant_key", "invoice_id", "order_id", "status"],
  refund: ["amount", "invoice_id", "merchant_key"],
  getTransactions: ["date", "invoiceid", "currency_id", "paymentmethodid", "minamount", "maxamount", "transactionState"],
  /** The official PHP SDK's CreateCardRequest (sipay-node leaves card_number out; the sandbox takes both). */
  saveCard: ["merchant_key", "customer_number", "card_holder_name", "card_number", "expiry_month", "expiry_year"],
  /** editCard and deleteCard (both published clients). */
  cardToken: ["merchant_key", "customer_number", "card_token"],
  /** Result hash of the 3D redirect, the 2D response and the sale webhook. */
  result: ["status", "total", "invoice_id", "order_id", "currency_code"],
} as const

export type HashedOperation = keyof typeof HASH_PARTS

/** Payments are never repeated by the client; reads may be repeated once after a network fault. */
export type OperationKind = "read" | "payment"

export type OperationSpec = {
  path: string
  base: "api" | "panel"
  bearer: boolean
  kind: OperationKind
  /** Default POST. */
  method?: "GET" | "POST"
  /** Answers an HTML page on success (payByCardToken: the bank's page), JSON otherwise. */
  answersHtml?: boolean
}

export const OPERATIONS = {
  token: { path: "/api/token", base: "api", bearer: false, kind: "read" },
  paySmart3D: { path: "/api/paySmart3D", base: "api", bearer: false, kind: "payment" },
  paySmart2D: { path: "/api/paySmart2D", base: "api", bearer: true, kind: "payment" },
  checkstatus: { path: "/api/checkstatus", base: "api", bearer: true, kind: "read" },
  confirmPayment: { path: "/api/confirmPayment", base: "api", bearer: true, kind: "payment" },
  refund: { path: "/api/refund", base: "api", bearer: true, kind: "payment" },
  completePayment: { path: "/payment/complete", base: "api", bearer: true, kind: "payment" },
  getpos: { path: "/api/getpos", base: "api", bearer: true, kind: "read" },
  installments: { path: "/api/installments", base: "api", bearer: true, kind: "read" },
  commissions: { path: "/api/commissions", base: "api", bearer: true, kind: "read" },
  getTransactions: { path: "/api/getTransactions", base: "api", bearer: true, kind: "read" },
  dplCreate: { path: "/api/dpl/create", base: "panel", bearer: true, kind: "payment" },
  dplSendEmail: { path: "/api/dpl/sendemail", base: "panel", bearer: true, kind: "payment" },
  recurringQuery: { path: "/api/recurringPlan/query", base: "api", bearer: true, kind: "read" },
  recurringUpdate: { path: "/api/recurringPlan/update", base: "api", bearer: true, kind: "payment" },
  // Card storage: a second saveCard would store the card twice, a second deleteCard answers "invalid": never repeated.
  saveCard: { path: "/api/saveCard", base: "api", bearer: true, kind: "payment" },
  getCardTokens: { path: "/api/getCardTokens", base: "api", bearer: true, kind: "read", method: "GET" },
  editCard: { path: "/api/editCard", base: "api", bearer: true, kind: "read" },
  deleteCard: { path: "/api/deleteCard", base: "api", bearer: true, kind: "payment" },
  payByCardToken: { path: "/api/payByCardToken", base: "api", bearer: true, kind: "payment", answersHtml: true },
  payByCardTokenNonSecure: { path: "/api/payByCardTokenNonSecure", base: "api", bearer: true, kind: "payment" },
} as const satisfies Record<string, OperationSpec>

export type OperationName = keyof typeof OPERATIONS

/** Added by the shopper's browser to the paySmart3D form; never produced by this client. */
export const CARD_FIELD_NAMES = ["cc_holder_name", "cc_no", "expiry_month", "expiry_year", "cvv"] as const

export const BILLING_FIELD_NAMES = {
  address1: "bill_address1",
  address2: "bill_address2",
  city: "bill_city",
  postcode: "bill_postcode",
  state: "bill_state",
  country: "bill_country",
  email: "bill_email",
  phone: "bill_phone",
} as const

type WireValue = string | number | boolean | null | undefined | unknown[]
type WireFields = Record<string, WireValue>

/** The values a hash covers, in order; absent values stay empty between the separators. */
export function hashPartsOf(operation: HashedOperation, fields: Record<string, unknown>): string[] {
  return HASH_PARTS[operation].map((name) => {
    const value = fields[name]
    return value === undefined || value === null ? "" : String(value)
  })
}

export function signFields<T extends WireFields>(
  operation: HashedOperation,
  fields: T,
  secret: string
): T & { hash_key: string } {
  return { ...fields, hash_key: generateHashKey(hashPartsOf(operation, fields), secret) }
}

/** Drops undefined members so optional fields are absent rather than "undefined". */
export function compact<T extends Record<string, unknown>>(fields: T): T {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as T
}

/** formatAmount, a refusal reported as a validation SipayError of the operation. */
export function wireAmount(operation: string, amount: AmountInput): string {
  try {
    return formatAmount(amount)
  } catch (error) {
    throw new SipayError({ operation, description: (error as Error).message, code: "validation" })
  }
}

export function tokenBody(appId: string, appSecret: string) {
  return { app_id: appId, app_secret: appSecret }
}

export function checkStatusBody(merchantKey: string, invoiceId: string, includePending: boolean, appSecret: string) {
  const fields = compact({
    merchant_key: merchantKey,
    invoice_id: invoiceId,
    include_pending_status: includePending ? "true" : undefined,
  })
  return signFields("checkstatus", fields, appSecret)
}

export const CONFIRM_STATUS = { complete: 1, cancel: 2 } as const

export function confirmPaymentBody(
  merchantKey: string,
  invoiceId: string,
  action: keyof typeof CONFIRM_STATUS,
  total: AmountInput,
  appSecret: string
) {
  if (!(action in CONFIRM_STATUS)) {
    throw new SipayError({ operation: "confirmPayment", description: "action must be complete or cancel", code: "validation" })
  }
  const fields = {
    invoice_id: invoiceId,
    merchant_key: merchantKey,
    status: CONFIRM_STATUS[action],
    total: wireAmount("confirmPayment", total),
  }
  return signFields("confirmPayment", fields, appSecret)
}

export function refundBody(
  credentials: { merchantKey: string; appId: string; appSecret: string },
  invoiceId: string,
  amount: AmountInput,
  options: RefundOptions
) {
  const fields = {
    invoice_id: invoiceId,
    amount: wireAmount("refund", amount),
    merchant_key: credentials.merchantKey,
    app_id: credentials.appId,
    app_secret: credentials.appSecret,
  }
  return compact({
    ...signFields("refund", fields, credentials.appSecret),
    refund_transaction_id: options.refundTransactionId,
    refund_web_hook_key: options.refundWebhookKey,
  })
}

export function completePaymentBody(
  merchantKey: string,
  invoiceId: string,
  orderId: string,
  action: "complete" | "cancel",
  appSecret: string
) {
  const fields = { merchant_key: merchantKey, invoice_id: invoiceId, order_id: orderId, status: action }
  return signFields("completePayment", fields, appSecret)
}

/** The first 6 digits of a card number or bin: getpos is never sent more. */
export function binOf(cardOrBin: string): string {
  return String(cardOrBin).replace(/\D/g, "").slice(0, 6)
}

function flag(value: boolean | undefined): number | undefined {
  return value === undefined ? undefined : value ? 1 : 0
}

export function getPosBody(merchantKey: string, query: PosQuery) {
  return compact({
    credit_card: binOf(query.bin),
    amount: wireAmount("getpos", query.amount),
    currency_code: query.currencyCode,
    merchant_key: merchantKey,
    is_2d: flag(query.is2d),
    is_recurring: flag(query.isRecurring),
  })
}

/** /api/commissions (sipay-php-sdk RetrieveCommissionRequest): no merchant_key, the bearer names the merchant. */
export function commissionsBody(query: CommissionsQuery) {
  return compact({ currency_code: query.currencyCode, commission_by: query.commissionBy ?? "user" })
}

export function installmentsBody(merchantKey: string, query: InstallmentsQuery) {
  return compact({
    merchant_key: merchantKey,
    credit_card: query.bin === undefined ? undefined : binOf(query.bin),
    amount: query.amount === undefined ? undefined : wireAmount("installments", query.amount),
    currency_code: query.currencyCode,
  })
}

function filterValue(value: string | number | undefined): string {
  return value === undefined || value === null ? "" : String(value)
}

/** Unused filters are sent as empty strings, as in the interface's sample; the secret is the merchant key. */
export function transactionsBody(merchantKey: string, query: TransactionsQuery) {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(query.date)) {
    throw new SipayError({ operation: "getTransactions", description: "date must be YYYY-MM-DD", code: "validation" })
  }
  const filters = {
    date: query.date,
    invoiceid: filterValue(query.invoiceId),
    currency_id: filterValue(query.currencyId),
    paymentmethodid: filterValue(query.paymentMethodId),
    minamount: filterValue(query.minAmount),
    maxamount: filterValue(query.maxAmount),
    transactionState: filterValue(query.transactionState),
  }
  const hash_key = generateHashKey(hashPartsOf("getTransactions", filters), merchantKey)
  return { merchant_key: merchantKey, hash_key, ...filters }
}

export function recurringQueryBody(merchantKey: string, planCode: string, recurringNumber?: number | string) {
  return compact({ merchant_key: merchantKey, plan_code: planCode, recurring_number: recurringNumber })
}

export function recurringUpdateBody(merchantKey: string, update: RecurringPlanUpdate) {
  return compact({
    merchant_key: merchantKey,
    plan_code: update.planCode,
    recurring_amount: update.amount === undefined ? undefined : wireAmount("recurringPlan/update", update.amount),
    recurring_status: update.status,
    recurring_payment_number: update.paymentNumber,
  })
}
