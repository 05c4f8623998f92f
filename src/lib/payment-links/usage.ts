import type { SaleRecord } from "../sipay"
import { recordExpiryMoment } from "./expiry"

/**
 * A link's uses and status without an e-mail: the interface has no read operation for links, so
 * uses are counted from the merchant's sales (getTransactions, one call per day of the link's
 * life), and the status follows the rules the gateway applies (past its expiry: EXPIRED; uses
 * reaching the maximum: USED). Pure.
 */

/** Sale states in which the payer's money was taken (the sandbox's getTransactions table). */
const PAID_STATES = new Set([1, 4, 5, 11])

export function paidSalesOfLink(sales: SaleRecord[], dplId: number): SaleRecord[] {
  return sales.filter((sale) => Number(sale.dpl_id) === dplId && PAID_STATES.has(Number(sale.transaction_state_id)))
}

export type LinkState = { number_of_uses: number; status: string }

export function linkStateFrom(
  link: { status: string; expire_date: string; max_number_of_uses: number },
  paidSales: number,
  now: Date
): LinkState {
  const expiresAt = recordExpiryMoment(link.expire_date)
  let status = link.status
  if (link.max_number_of_uses > 0 && paidSales >= link.max_number_of_uses) {
    status = "USED"
  } else if (expiresAt && now.getTime() > expiresAt.getTime()) {
    status = "EXPIRED"
  }
  return { number_of_uses: paidSales, status }
}
