import { macsEqual, serverMac } from "../server-mac"

/**
 * The gateway's confirmation of one attempt, as the settle workflow read it (checkstatus, after the
 * capture mode was enforced), kept in the session data under `gateway_confirmation` so that Medusa's
 * authorizePayment, run by complete-cart in the same flow, does not ask the gateway the same fact
 * again. Only the server can write one: it carries an HMAC-SHA256 (key derived from the app secret)
 * over every field, and it is valid for a short time only. It is never derived from a redirect or a
 * webhook (their result hash has no MAC); a planted or altered one does not verify and is dropped.
 */
export type GatewayConfirmation = {
  invoice_id: string
  /** The gateway's outcome: captured (money taken) or authorized (reserved). */
  status: "captured" | "authorized"
  /** The sale's total at the gateway (what the session amount is compared with), "149.90". */
  amount: string
  /** What the gateway took (its transaction amount) when captured, else null. */
  captured_amount: string | null
  currency_code: string
  /** The gateway's transaction type ("Auth", "Pre-Authorization"). */
  transaction_type: string
  gateway_order_no: string | null
  installments: number | null
  /** Milliseconds since the epoch after which it is no longer used. */
  expires_at: number
  mac: string
}

/** How long a confirmation stands in for a checkstatus: the settle step completes the cart at once. */
export const CONFIRMATION_TTL_MS = 120 * 1000

const PURPOSE = "medusa-plugin-sipay/gateway-confirmation/v1"

function macOf(appSecret: string, fields: Omit<GatewayConfirmation, "mac">): string {
  const payload = JSON.stringify([
    fields.invoice_id,
    fields.status,
    fields.amount,
    fields.captured_amount,
    fields.currency_code,
    fields.transaction_type,
    fields.gateway_order_no,
    fields.installments,
    fields.expires_at,
  ])
  return serverMac(appSecret, PURPOSE, payload)
}

export function signConfirmation(appSecret: string, fields: Omit<GatewayConfirmation, "mac" | "expires_at">, now = Date.now()): GatewayConfirmation {
  const unsigned = { ...fields, expires_at: now + CONFIRMATION_TTL_MS }
  return { ...unsigned, mac: macOf(appSecret, unsigned) }
}

/** The confirmation when it is one the server signed (whatever its age), else null. */
export function signedConfirmation(appSecret: string, value: unknown): GatewayConfirmation | null {
  if (!value || typeof value !== "object" || Array.isArray(value)) {
    return null
  }
  const c = value as Record<string, unknown>
  if (
    typeof c.invoice_id !== "string" ||
    (c.status !== "captured" && c.status !== "authorized") ||
    typeof c.amount !== "string" ||
    (c.captured_amount !== null && typeof c.captured_amount !== "string") ||
    typeof c.currency_code !== "string" ||
    typeof c.transaction_type !== "string" ||
    (c.gateway_order_no !== null && typeof c.gateway_order_no !== "string") ||
    (c.installments !== null && typeof c.installments !== "number") ||
    typeof c.expires_at !== "number" ||
    typeof c.mac !== "string"
  ) {
    return null
  }
  const fields = {
    invoice_id: c.invoice_id,
    status: c.status as GatewayConfirmation["status"],
    amount: c.amount,
    captured_amount: c.captured_amount as string | null,
    currency_code: c.currency_code,
    transaction_type: c.transaction_type,
    gateway_order_no: c.gateway_order_no as string | null,
    installments: c.installments as number | null,
    expires_at: c.expires_at,
  }
  if (!macsEqual(macOf(appSecret, fields), c.mac)) {
    return null
  }
  return { ...fields, mac: c.mac }
}

/** A signed confirmation still within its validity, for `invoiceId`, else null. */
export function validConfirmation(appSecret: string, value: unknown, invoiceId: string, now = Date.now()): GatewayConfirmation | null {
  const confirmation = signedConfirmation(appSecret, value)
  if (!confirmation || confirmation.invoice_id !== invoiceId || confirmation.expires_at <= now) {
    return null
  }
  return confirmation
}
