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
