import { formatAmountOrNull } from "../sipay/amount"
import type { SaleRecord, TransactionStatus } from "../sipay/types"
import { preAuthorizationDeadline } from "./pre-authorization"
import type { AttemptView, OrderPaymentView } from "./types"

/** The chargeback state of getTransactions (the interface's one shown value). */
export const CHARGEBACK_STATE_ID = 11
const PRE_AUTHORIZATION = "Pre-Authorization"

export type PaymentFacts = OrderPaymentView["payment"] & {
  /** The payment's data as the provider keeps it (session data keys). */
  data: Record<string, unknown>
}

export type OrderPaymentInputs = {
  order_id: string
  payment: PaymentFacts
  attempts: AttemptView[]
  /** checkstatus of the paid invoice, when there is one. */
  status: TransactionStatus | null
  /** getTransactions records of the paid invoice. */
  sales: SaleRecord[]
  now: Date
}

function text(value: unknown): string | null {
  return typeof value === "string" && value !== "" ? value : null
}

/**
 * The sale that paid: the one the payment's own data records, never guessed from the session's
 * attempts (another tab's sale, given back, is not this payment's). Null before authorization.
 */
export function paidInvoiceId(data: Record<string, unknown>): string | null {
  return text(data.invoice_id)
}

/** Assembles the order widget's view from what Medusa recorded and what the gateway answered. Pure. */
export function orderPaymentView(input: OrderPaymentInputs): OrderPaymentView {
  const { payment, attempts, status, sales } = input
  const data = payment.data
  const invoiceId = paidInvoiceId(data)
  const attempt = attempts.find((a) => a.invoice_id === invoiceId) ?? null
  const sale = sales.find((s) => s.invoice_id === invoiceId) ?? null
  const transactionType = status?.found ? status.transactionType : text(data.transaction_type) ?? attempt?.transaction_type ?? null
  const uncaptured = !payment.captured_at && !payment.canceled_at && Number(payment.captured_amount) === 0
  const reserved = uncaptured && transactionType === PRE_AUTHORIZATION && (!status || status.status === "Completed")
  const reservedAt = attempt?.completed_at ?? attempt?.created_at ?? null

  return {
    order_id: input.order_id,
    payment: {
      id: payment.id,
      provider_id: payment.provider_id,
      amount: payment.amount,
      currency_code: payment.currency_code,
      captured_amount: payment.captured_amount,
      refunded_amount: payment.refunded_amount,
      captured_at: payment.captured_at,
      canceled_at: payment.canceled_at,
    },
    invoice_id: invoiceId,
    gateway_order_no: (status?.found ? status.orderId : null) ?? text(data.gateway_order_no) ?? attempt?.gateway_order_no ?? null,
    masked_card: text(data.masked_card) ?? attempt?.masked_card ?? sale?.credit_card_no ?? null,
    installments: (status?.found ? status.installment : null) ?? (typeof data.installments === "number" ? data.installments : null) ?? attempt?.installments ?? null,
    transaction_type: transactionType,
    status: status ? (status.found ? status.status : "Not found") : null,
    status_reason: status?.reason || null,
    refunded_amount: (status?.found ? formatAmountOrNull(status.totalRefundedAmount) : null) ?? formatAmountOrNull(data.refunded_amount),
    pre_authorization: reserved && reservedAt ? preAuthorizationDeadline(new Date(reservedAt), input.now) : null,
    chargeback: sales.some((s) => s.invoice_id === invoiceId && Number(s.transaction_state_id) === CHARGEBACK_STATE_ID),
    sale,
    attempts,
    checked_at: input.now.toISOString(),
    ledger_synced_at: null,
    chargebacks: [],
  }
}
