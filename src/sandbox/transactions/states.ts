import type { SaleRecord } from "../types"

/**
 * transaction_state_id of getTransactions: the interface shows only 11 'Chargebacked'; the other
 * ids are the sandbox's (docs/sandbox.md lists them). One mapping, not scattered ifs.
 */
export const TRANSACTION_STATES = {
  COMPLETED: { id: 1, label: "Completed" },
  FAILED: { id: 2, label: "Failed" },
  PENDING: { id: 3, label: "Pending" },
  REFUNDED: { id: 4, label: "Refunded" },
  PARTIALLY_REFUNDED: { id: 5, label: "Partially Refunded" },
  PRE_AUTHORIZED: { id: 6, label: "Pre-Authorized" },
  CANCELLED: { id: 7, label: "Cancelled" },
  CHARGEBACKED: { id: 11, label: "Chargebacked" },
} as const

export type TransactionState = (typeof TRANSACTION_STATES)[keyof typeof TRANSACTION_STATES]

export function transactionState(sale: SaleRecord): TransactionState {
  if (sale.chargeback_at_ms) return TRANSACTION_STATES.CHARGEBACKED
  if (sale.state === "pending" || sale.awaiting_merchant) return TRANSACTION_STATES.PENDING
  if (sale.state === "failed") {
    const cancelled = sale.preauth?.state === "cancelled" || sale.preauth?.state === "expired" || sale.reason === "Cancelled"
    return cancelled ? TRANSACTION_STATES.CANCELLED : TRANSACTION_STATES.FAILED
  }
  if (sale.preauth?.state === "reserved") return TRANSACTION_STATES.PRE_AUTHORIZED
  if (sale.captured_minor > 0 && sale.refunded_minor >= sale.captured_minor) return TRANSACTION_STATES.REFUNDED
  if (sale.refunded_minor > 0) return TRANSACTION_STATES.PARTIALLY_REFUNDED
  return TRANSACTION_STATES.COMPLETED
}

/** Only money actually taken can be charged back. */
export function canChargeBack(sale: SaleRecord): boolean {
  return sale.state === "completed" && sale.captured_minor > 0 && !sale.chargeback_at_ms
}
