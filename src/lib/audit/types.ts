import type { SaleOwner } from "../sales-report/sale-owner"

/**
 * The merchant's audit of one gateway day (Europe/Istanbul, as the ledger dates sales): every sale
 * of the day beside Medusa's records, and each difference in the merchant's words (words.ts).
 */

/** Books and gateway disagree: the day does not agree until it is fixed. */
export const DIFFERENCE_KINDS = [
  "paid_without_order",
  "order_money_given_back",
  "refund_missing_in_medusa",
  "refund_missing_at_gateway",
  "amounts_differ",
  "chargeback_not_recorded",
  "old_ledger_refund",
] as const

/** The books agree, but the merchant has something to do. */
export const NOTICE_KINDS = ["chargeback", "pre_authorization_lapsing"] as const

export type DifferenceKind = (typeof DIFFERENCE_KINDS)[number]
export type NoticeKind = (typeof NOTICE_KINDS)[number]
export type FindingKind = DifferenceKind | NoticeKind

export const FINDING_KINDS: readonly FindingKind[] = [...DIFFERENCE_KINDS, ...NOTICE_KINDS]

/**
 * A refund Medusa recorded on a payment. `recorded_from_ledger`: its note says the sales ledger recorded
 * it (a refund made in the merchant panel); `marked`: it carries the server's recorded-refund mark for
 * this payment's own sale and amount (lib/refunds/recorded-refund.ts), which the ledger sets since the fix.
 */
export type MedusaRefundFacts = { id: string; amount_minor: bigint; recorded_from_ledger: boolean; marked: boolean }

/** Medusa's record of one payment, as the audit reads it. */
export type MedusaPaymentFacts = {
  id: string
  /** The sale the payment records (its data's invoice_id). */
  invoice_id: string | null
  order_id: string | null
  currency_code: string
  amount_minor: bigint
  captured_minor: bigint
  refunded_minor: bigint
  canceled: boolean
  refunds: MedusaRefundFacts[]
}

/** A gateway sale of the day, from the ledger. */
export type AuditSaleFacts = {
  sale_id: string
  invoice_id: string
  gateway_order_id: string | null
  /** ISO instant (the gateway's clock). */
  created_at: string
  transaction_state_id: number
  currency_code: string
  gross_minor: bigint
  refunded_minor: bigint
}

/** Everything known about one sale: what it is to Medusa (resolveSaleOwners) and Medusa's records around it. */
export type AuditSaleInput = {
  sale: AuditSaleFacts
  owner: SaleOwner
  /** The payment the sale paid (owner kind payment). */
  payment: MedusaPaymentFacts | null
  /** Other Medusa payments of the sale's payment session (a given-back checkout attempt): where the old ledger booked its refunds. */
  sessionPayments: MedusaPaymentFacts[]
  /** The store's chargeback record of this sale, if the ledger made one. */
  chargeback: { order_id: string | null } | null
}

export type AuditInput = {
  day: string
  /** The audit's clock: reservation ages and "being settled" are measured from the sale's time to it. */
  now: Date
  sales: AuditSaleInput[]
  /** The pre-authorization watch's threshold (option preAuthorizationWarningDays, default 17). */
  preAuthorizationWarningDays: number
  /** A paid sale younger than this without an order is still being settled, not a difference. */
  settlingSeconds: number
}

export type Finding = {
  kind: FindingKind
  severity: "difference" | "notice"
  invoice_id: string
  sale_id: string
  sale_created_at: string
  currency_code: string
  /** The order to open: the one the sale paid, else the order its cart or phone order got otherwise. */
  order_id: string | null
  payment_id: string | null
  /** What the gateway and Medusa hold of this sale (decimal strings), and the amount the finding is about. */
  gateway_amount: string | null
  medusa_amount: string | null
  amount: string | null
  /** pre_authorization_lapsing: when the gateway cancels it, whole days left. */
  deadline?: string
  days_left?: number
  /** chargeback_not_recorded: the order the store recorded it on, when another than the sale's. */
  recorded_order_id?: string | null
  /** old_ledger_refund: the refund Medusa recorded and the sale (invoice) of the payment it was booked on. */
  refund_id?: string
  payment_invoice_id?: string | null
}

/** One line per gateway sale of the day. */
export type AuditLine = Pick<AuditSaleFacts, "sale_id" | "invoice_id" | "gateway_order_id" | "created_at" | "transaction_state_id" | "currency_code"> & {
  sale_kind: SaleOwner["kind"]
  order_id: string | null
  payment_id: string | null
  gateway: { captured: string; refunded: string; reserved: string }
  medusa: { captured: string; refunded: string } | null
  /** A paid sale the plugin is still settling (younger than settlingSeconds). */
  settling: boolean
  findings: FindingKind[]
}

export type AuditCurrencyTotals = {
  currency_code: string
  sales: number
  gateway_captured: string
  gateway_refunded: string
  gateway_reserved: string
  medusa_captured: string
  medusa_refunded: string
}

export type AuditSummary = {
  sales: number
  /** Sales per kind (what each sale is to Medusa). */
  kinds: Partial<Record<SaleOwner["kind"], number>>
  /** Sales with money refunded at the gateway, chargebacks, paid sales still being settled. */
  refunds: number
  chargebacks: number
  settling: number
  differences: number
  notices: number
  totals: AuditCurrencyTotals[]
}

export type AuditReport = {
  day: string
  checked_at: string
  /** True when no difference was found (notices do not change it). */
  agrees: boolean
  summary: AuditSummary
  findings: Finding[]
  lines: AuditLine[]
  /** Where the gateway's side came from: the ledger's copy of the day, and when it was pulled. */
  ledger: { last_synced_at: string | null; pulled_now: boolean }
}
