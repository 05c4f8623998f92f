/** The one table of gateway status codes (docs/gateway-reference.md, "Status codes seen"). */

export type StatusCodeInfo = {
  code: number
  /** Stable identifier for programmatic use, e.g. "refund_id_reused". */
  key: string
  description: string
  /** Only transient conditions: the same request may succeed later. */
  retryable: boolean
}

type Entry = [code: number, key: string, description: string, retryable?: boolean]

const ENTRIES: Entry[] = [
  [1, "validation", "request validation failed"],
  [2, "invalid_credentials", "invalid credentials"],
  [3, "invoice_already_processed", "invoice already processed"],
  [12, "invalid_currency_or_items", "invalid currency or items"],
  [13, "items_total_mismatch", "items total does not equal the total"],
  [14, "merchant_not_found", "merchant not found"],
  [30, "invalid_credentials", "invalid credentials"],
  [31, "transaction_not_found", "transaction not found"],
  [32, "invalid_invoice_id", "invalid invoice id"],
  [34, "integration_method_not_allowed", "integration method not allowed"],
  [36, "pos_not_found", "POS not found"],
  [40, "installment_not_found", "installment not found"],
  [41, "transaction_failed", "transaction failed"],
  [44, "card_blocked", "card blocked"],
  [49, "refund_failed", "refund failed"],
  [55, "recurring_with_installments", "recurring payments cannot have installments"],
  [56, "invalid_sale_webhook_key", "invalid sale webhook key"],
  [62, "no_installments", "no installments assigned"],
  [68, "total_hash_mismatch", "total does not match the hash key"],
  [69, "order_pending", "order pending", true],
  [71, "recurring_plan_update_failed", "recurring plan update failed"],
  [90, "invalid_hash_key", "invalid hash key"],
  [100, "success", "success"],
  [101, "refund_request_created", "refund request created"],
  [102, "pos_not_defined", "POS not defined"],
  [104, "refund_id_reused", "refund_transaction_id is not unique"],
  [105, "not_approved", "not approved"],
  [110, "partial_refund_not_allowed", "partial refund not allowed"],
  [117, "invoice_already_processed", "invoice already processed"],
]

export const STATUS_CODES: ReadonlyMap<number, StatusCodeInfo> = new Map(
  ENTRIES.map(([code, key, description, retryable = false]) => [code, { code, key, description, retryable }])
)

export const SUCCESS_CODE = 100
export const REFUND_CREATED_CODE = 101
export const TRANSACTION_NOT_FOUND_CODE = 31
/** checkstatus of an unknown invoice: 31 (reference), 32 "Invalid invoice id" (the gateway's docs). */
export const NOT_FOUND_CODES: readonly number[] = [31, 32]
export const NO_INSTALLMENTS_CODE = 62
export const REFUND_ID_REUSED_CODE = 104

/** The gateway's code as a number, or null (it sends numbers, numeric strings, or nothing). */
export function parseStatusCode(value: unknown): number | null {
  if (typeof value === "number" && Number.isInteger(value)) {
    return value
  }
  if (typeof value === "string" && /^-?\d+$/.test(value.trim())) {
    return Number(value.trim())
  }
  return null
}

export function describeStatusCode(code: number | string | null | undefined): StatusCodeInfo & { known: boolean } {
  const parsed = parseStatusCode(code)
  const info = parsed === null ? undefined : STATUS_CODES.get(parsed)
  if (info) {
    return { ...info, known: true }
  }
  return {
    code: parsed ?? -1,
    key: "gateway_error",
    description: parsed === null ? "no status code" : `unknown status code ${parsed}`,
    retryable: false,
    known: false,
  }
}
