import { amountsEqual, PRE_AUTHORIZATION, type PaymentResult, type ResultHashParts, type TransactionStatus } from "../sipay"
import { formatAmountOrNull } from "../sipay/amount"
import { isLoopbackHost } from "../loopback"

/**
 * What a direct payment's answer (paySmart2D, payByCardTokenNonSecure) said, kept for the settle step:
 * no card data, no hash_key (its decrypted parts only). Safe in a workflow's input.
 */
export type DirectAnswer = {
  status_code: number | null
  payment_status: 0 | 1
  transaction_type: string | null
  order_no: string | null
  /** The decrypted result hash (status|total|invoice_id|order_id|currency_code), null when it did not decrypt. */
  result: ResultHashParts | null
}

/** The attempt a direct answer is held against: what the plugin asked the gateway for. */
export type DirectAttempt = { invoice_id: string; amount: unknown; currency_code: string; transaction_type: string; installments?: number | null }

export function directAnswerOf(outcome: PaymentResult): DirectAnswer {
  return {
    status_code: outcome.statusCode,
    payment_status: outcome.paymentStatus,
    transaction_type: outcome.transactionType,
    order_no: outcome.orderNo,
    result: outcome.hashParts,
  }
}

/**
 * Whether answers from this gateway address can be taken as the gateway's word: its result hash binds
 * the outcome to the invoice, total, order and currency but carries no MAC (AES-CBC, malleable), so what
 * authenticates an answer is TLS to the configured host. Plain HTTP only to this machine (the sandbox).
 */
export function answersAuthenticated(baseUrl: string): boolean {
  try {
    const url = new URL(baseUrl)
    return url.protocol === "https:" || (url.protocol === "http:" && isLoopbackHost(url.hostname))
  } catch {
    return false
  }
}

function captureModeMatches(intended: string, answered: string | null): boolean {
  return intended === "PreAuth" ? answered === PRE_AUTHORIZATION : answered === "Auth"
}

/**
 * The gateway's record of the attempt as its direct answer states it, when that answer is conclusive
 * (paid: code 100, payment_status 1, hash status 1 and an order number; declined: another code,
 * payment_status 0, hash status 0) and consistent with the attempt (invoice, total, currency, capture
 * mode, the hash's order number). Null otherwise: then checkstatus decides. Pure.
 */
export function transactionOfDirectAnswer(answer: DirectAnswer | null | undefined, attempt: DirectAttempt): TransactionStatus | null {
  const result = answer?.result
  if (!answer || !result) return null
  const paid = answer.status_code === 100 && answer.payment_status === 1 && result.status === "1" && Boolean(answer.order_no) && result.orderId === answer.order_no
  const declined = answer.status_code !== null && answer.status_code !== 100 && answer.payment_status === 0 && result.status === "0"
  if (!paid && !declined) return null
  const total = formatAmountOrNull(result.total)
  const consistent =
    total !== null &&
    result.invoiceId === attempt.invoice_id &&
    amountsEqual(total, attempt.amount as never) &&
    result.currencyCode.toUpperCase() === attempt.currency_code.toUpperCase() &&
    captureModeMatches(attempt.transaction_type, answer.transaction_type)
  if (!consistent) return null
  return {
    found: true,
    status: paid ? "Completed" : "Failed",
    orderId: result.orderId || null,
    invoiceId: attempt.invoice_id,
    transactionId: null,
    productPrice: total,
    // A direct sale is taken (Auth) or held (Pre-Authorization) in full, or not at all.
    transactionAmount: paid ? total : "0.00",
    totalRefundedAmount: "0.00",
    transactionType: answer.transaction_type,
    installment: attempt.installments ?? null,
    currencyCode: result.currencyCode.toUpperCase(),
    mdStatus: null,
    reason: null,
    statusCode: answer.status_code,
    raw: { source: "direct_answer" },
  }
}
