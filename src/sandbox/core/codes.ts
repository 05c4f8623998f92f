/** One table of the gateway's status codes, one code per rule (docs/sandbox.md lists which rule answers which). */
export const CODES = {
  SUCCESS: 100,
  VALIDATION: 1,
  INVOICE_REUSED: 3,
  INVALID_CURRENCY: 12,
  ITEMS_TOTAL_MISMATCH: 13,
  MERCHANT_NOT_FOUND: 14,
  INVALID_CREDENTIALS: 30,
  TRANSACTION_NOT_FOUND: 31,
  INVALID_INVOICE_ID: 32,
  INTEGRATION_NOT_ALLOWED: 34,
  INSTALLMENT_NOT_ALLOWED: 40,
  TRANSACTION_FAILED: 41,
  CARD_BLOCKED: 44,
  REFUND_FAILED: 49,
  RECURRING_WITH_INSTALLMENTS: 55,
  INVALID_WEBHOOK_KEY: 56,
  NO_INSTALLMENTS: 62,
  RECURRING_UPDATE_FAILED: 71,
  TOTAL_HASH_MISMATCH: 68,
  INVALID_HASH: 90,
  POS_NOT_DEFINED: 102,
  REFUND_ID_REUSED: 104,
  NOT_APPROVED: 105,
} as const

/** A rule broken by a request: the code and a description naming the problem. */
export class GatewayError extends Error {
  constructor(
    readonly code: number,
    readonly description: string
  ) {
    super(description)
  }
}

export function fail(code: number, description: string): never {
  throw new GatewayError(code, description)
}

/** Identifiers the gateway stores as text: an object or array there is refused, never stored as "[object Object]". */
const TEXT_FIELDS = new Set(["invoice_id", "order_id", "merchant_key", "plan_code", "refund_transaction_id"])

export function requireField(body: Record<string, unknown>, field: string): string {
  const value = body[field]
  if (value === undefined || value === null || String(value).trim() === "") {
    fail(CODES.VALIDATION, `The ${field} field is required.`)
  }
  if (TEXT_FIELDS.has(field) && typeof value === "object") fail(CODES.VALIDATION, `The ${field} must be a string.`)
  return typeof value === "object" ? JSON.stringify(value) : String(value)
}

export function optionalField(body: Record<string, unknown>, field: string): string {
  const value = body[field]
  if (TEXT_FIELDS.has(field) && value !== null && typeof value === "object") fail(CODES.VALIDATION, `The ${field} must be a string.`)
  return value === undefined || value === null ? "" : String(value).trim()
}

/** A token of another merchant than the request's merchant_key: answered like an unknown token (401). */
export class UnauthenticatedError extends Error {}
