import type { SaleRecord } from "../sipay/types"

/** What the plugin knows about a sale beside the gateway's record. */
export type SaleLinks = {
  /** The Medusa order this sale paid (a checkout's, a phone order's, or a recurring plan's first order). */
  order_id: string | null
  /** For a sale that paid no order (given back, not settled yet): the order its cart or phone order got otherwise. */
  related_order_id: string | null
  /** What the sale is to Medusa (lib/sales-report/sale-owner.ts): payment, given_back, attempt, recurring_charge, payment_link, not_ours. */
  sale_kind: string
  payment_session_id: string | null
  attempt_number: number | null
  /** This plugin's record of the payment link (dpl_id set, not a phone order's), when it has one. */
  payment_link_id: string | null
  /** The phone order's link record, for a phone order's sale. */
  order_link_id: string | null
}

/** A sale record as the gateway gave it, plus `medusa`. */
export type SaleView = SaleRecord & { medusa: SaleLinks }

/** Where a sales answer comes from, and when the ledger last had that day from the gateway. */
export type LedgerDayInfo = { last_synced_at: string | null; sale_count: number; last_error: string | null; last_duration_ms: number | null }

export type SalesTotalView = { currency_code: string; count: number; gross: string; net: string; commission: string; refunded: string }

/**
 * GET /admin/sipay/transactions. `count` is every sale matching the filters, `sales` one page of them
 * (source ledger), or all of them as the gateway answered now (source gateway); `totals` cover all.
 */
export type SalesAnswer = {
  date: string
  source: "ledger" | "gateway"
  count: number
  limit: number
  offset: number
  order: string
  sales: SaleView[]
  totals: SalesTotalView[]
  /** The ledger's state of the day (null when it was never synced). */
  ledger: LedgerDayInfo | null
}

export type AttemptView = {
  /** What the attempt's sale is to Medusa (lib/sales-report/sale-owner.ts): payment (the order's), given_back, attempt. */
  sale_kind?: string
  invoice_id: string
  attempt_number: number
  flow: string
  status: string
  transaction_type: string
  installments: number
  amount: string
  currency_code: string
  masked_card: string | null
  gateway_order_no: string | null
  error_code: string | null
  error_message: string | null
  created_at: string | null
  completed_at: string | null
}

/** The gateway's view of an order's Sipay payment (GET /admin/sipay/orders/:order_id/payment). */
export type OrderPaymentView = {
  order_id: string
  payment: {
    id: string
    provider_id: string
    amount: string
    currency_code: string
    captured_amount: string
    refunded_amount: string
    captured_at: string | null
    canceled_at: string | null
  }
  invoice_id: string | null
  gateway_order_no: string | null
  masked_card: string | null
  installments: number | null
  transaction_type: string | null
  /** checkstatus: Completed, Failed, Pending, or null when the gateway was not asked (no invoice id). */
  status: string | null
  status_reason: string | null
  /** What the gateway has refunded (checkstatus), else what the payment recorded. */
  refunded_amount: string | null
  /** Uncaptured pre-authorization only: when the gateway cancels it. */
  pre_authorization: { deadline: string; days_left: number } | null
  /** getTransactions showed the sale as 11 'Chargebacked'. */
  chargeback: boolean
  /** The sale as getTransactions showed it, when it was found. */
  sale: SaleRecord | null
  attempts: AttemptView[]
  /** When the gateway was asked (the view may come from a cache of this age). */
  checked_at: string
  /** When the ledger (where `sale` comes from) last had this sale from the gateway; null: not in the ledger yet. */
  ledger_synced_at: string | null
  /** The chargebacks the ledger saw on this order (the plugin's records). */
  chargebacks: { id: string; invoice_id: string; amount: string; currency_code: string; detected_at: string }[]
}
