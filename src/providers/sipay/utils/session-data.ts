import type { GatewayConfirmation } from "../../../lib/checkout/confirmation"
import type { PhoneOrderSale } from "./phone-order"

/**
 * The payment session data this plugin owns (docs/contracts.md). The storefront can read it and can
 * plant keys in it, so initiatePayment returns every key, and nothing here is secret.
 */
export type SipaySessionData = {
  session_id: string
  /** The session amount as the gateway's decimal string, e.g. "149.90". */
  amount: string
  currency_code: string
  /** Every attempt's invoice id, latest last. */
  invoice_ids: string[]
  status: string
  /** Set once a Completed attempt was matched. */
  invoice_id?: string | null
  gateway_order_no?: string | null
  transaction_type?: string | null
  masked_card?: string | null
  installments?: number | null
  /** What the gateway captured (Auth, or a confirmed pre-authorization). */
  captured_amount?: string | null
  /** A partial capture confirmed at the gateway by the plugin, awaiting Medusa's capture of it. */
  pending_capture?: string | null
  /** What the gateway has refunded in total, as last seen. */
  refunded_amount?: string | null
  /**
   * The capture mode the store asked for when the latest attempt started ("Auth" or "PreAuth"),
   * written by the server only: every settle path compares the gateway's transaction type with it.
   */
  intended_transaction_type?: "Auth" | "PreAuth" | null
  /** Attempts the plugin recorded failed, cancelled or reversed: never asked about again. */
  closed_invoice_ids?: string[]
  /** The attempt a settle path found paid at the gateway: authorizePayment asks about it first. */
  settling_invoice_id?: string | null
  /**
   * The gateway's answer about `settling_invoice_id` as the settle workflow read it, signed by the
   * server and valid for a short time (src/lib/checkout/confirmation.ts): authorizePayment in the
   * same flow uses it instead of asking the gateway again. One that does not verify is dropped.
   */
  gateway_confirmation?: GatewayConfirmation | null
  /** A phone order's payment-link sale this session records, signed by the server (./phone-order.ts); one that does not verify is dropped. */
  phone_order_sale?: PhoneOrderSale | null
}

/**
 * Every session-data key the plugin owns (docs/mapping.md). initiatePayment and
 * updatePayment keep only these: any other key the storefront plants is dropped.
 */
export const OWNED_SESSION_KEYS = [
  "session_id",
  "amount",
  "currency_code",
  "invoice_ids",
  "status",
  "invoice_id",
  "gateway_order_no",
  "transaction_type",
  "masked_card",
  "installments",
  "captured_amount",
  "pending_capture",
  "refunded_amount",
  "intended_transaction_type",
  "closed_invoice_ids",
  "settling_invoice_id",
  "gateway_confirmation",
  "phone_order_sale",
] as const satisfies readonly (keyof SipaySessionData)[]

/** The owned keys of `data` (a copy); every other key is left out. */
export function ownedSessionData(data: Record<string, unknown> | undefined | null): Partial<SipaySessionData> {
  const owned: Record<string, unknown> = {}
  for (const key of OWNED_SESSION_KEYS) {
    if (data && Object.prototype.hasOwnProperty.call(data, key)) {
      owned[key] = data[key]
    }
  }
  return owned as Partial<SipaySessionData>
}

/**
 * Medusa stores `{ ...storefront data, ...provider data }` when a session is created: a key the
 * provider answers with `undefined` is left out of the stored JSON, so every planted key that is
 * not owned is answered that way.
 */
export function droppingPlantedKeys(planted: Record<string, unknown> | undefined | null, owned: Record<string, unknown>): Record<string, unknown> {
  const answer: Record<string, unknown> = {}
  for (const key of Object.keys(planted ?? {})) {
    if (!(OWNED_SESSION_KEYS as readonly string[]).includes(key)) {
      answer[key] = undefined
    }
  }
  return { ...answer, ...owned }
}

export const SUPPORTED_CURRENCIES = ["TRY", "USD", "EUR"] as const
export type SupportedCurrency = (typeof SUPPORTED_CURRENCIES)[number]

export const INVOICE_ID_PATTERN = /^[A-Za-z0-9_]{1,64}$/

export function isSupportedCurrency(code: string): code is SupportedCurrency {
  return (SUPPORTED_CURRENCIES as readonly string[]).includes(code.toUpperCase())
}

/** invoice_id = <payment session id>_<attempt> (attempt 1, 2, ...). */
export function buildInvoiceId(sessionId: string, attempt: number): string {
  const invoiceId = `${sessionId}_${attempt}`
  if (!INVOICE_ID_PATTERN.test(invoiceId)) {
    throw new Error(`invoice id would not match [A-Za-z0-9_]{1,64}: session id ${sessionId}`)
  }
  return invoiceId
}

/** The session id and attempt number of one of our invoice ids, or null when it is not ours. */
export function parseInvoiceId(invoiceId: unknown): { sessionId: string; attempt: number } | null {
  if (typeof invoiceId !== "string" || !INVOICE_ID_PATTERN.test(invoiceId)) {
    return null
  }
  const match = /^(payses_[A-Za-z0-9]+)_(\d+)$/.exec(invoiceId)
  if (!match) {
    return null
  }
  return { sessionId: match[1], attempt: Number(match[2]) }
}

/** Invoice ids of this session only: a planted id of another session is never checked. */
export function invoiceIdsOfSession(data: Partial<SipaySessionData> | undefined): string[] {
  const sessionId = data?.session_id
  const ids = Array.isArray(data?.invoice_ids) ? data!.invoice_ids : []
  if (typeof sessionId !== "string") {
    return []
  }
  return ids.filter((id) => typeof id === "string" && parseInvoiceId(id)?.sessionId === sessionId)
}

/**
 * The attempts authorizePayment asks the gateway about, at most `limit`: the one a settle path
 * found paid first, then the others newest first, leaving out those the plugin recorded closed.
 */
export function invoicesToAsk(data: Partial<SipaySessionData> | undefined, limit: number): string[] {
  const sessionId = data?.session_id
  const ids = invoiceIdsOfSession(data)
  const closed = new Set(Array.isArray(data?.closed_invoice_ids) ? data!.closed_invoice_ids : [])
  const settling = data?.settling_invoice_id
  const ordered: string[] = []
  if (typeof settling === "string" && parseInvoiceId(settling)?.sessionId === sessionId) {
    ordered.push(settling)
  }
  for (const id of [...ids].reverse()) {
    if (!closed.has(id) && !ordered.includes(id)) {
      ordered.push(id)
    }
  }
  return ordered.slice(0, Math.max(1, limit))
}
