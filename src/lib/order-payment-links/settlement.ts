import { amountsEqual } from "../sipay/amount"

/** Payment collection states in which something already pays the order: no link is made for it, and a link's payment is given back. */
export const PAID_COLLECTION_STATUSES = ["authorized", "partially_authorized", "completed", "partially_captured"]

/** Why a payment of a phone order's link was given back instead of paying the order (shown on the order). */
export type RefusalReason = "second_payment" | "wrong_amount" | "order_changed" | "order_cancelled" | "already_paid"

/** What the link was made for: the order's total and currency at that moment, and the sale that paid it, if any. */
export type LinkTerms = { amount: string; currency_code: string; settled_invoice_id: string | null }

/** The sale as the gateway records it (checkstatus), never as the payer's form or the ledger said. */
export type GatewaySale = { invoice_id: string; outcome: "captured" | "authorized" | "pending" | "failed" | "cancelled" | "not_found"; amount: string | null; currency_code: string | null }

/** The order now: its status, total and currency, and whether a payment other than this sale's already pays it. */
export type OrderNow = { status: string; total: string; currency_code: string; paid_otherwise: boolean }

export type LinkSaleDecision =
  | { action: "settle" }
  | { action: "refund"; reason: RefusalReason }
  /** The gateway took no money (declined, cancelled): nothing to keep or give back. */
  | { action: "not_charged" }
  /** Not final at the gateway yet: looked at again on the next sync. */
  | { action: "wait" }

/**
 * What to do with one sale of a phone order's single-use link. Pure: the caller has asked the
 * gateway and read the order. Only one sale per link pays the order; it must be exactly the link's
 * amount and currency at the gateway, for an order that is still open, unpaid and unchanged.
 */
export function decideLinkSale(link: LinkTerms, sale: GatewaySale, order: OrderNow): LinkSaleDecision {
  if (sale.outcome === "pending" || sale.outcome === "not_found") return { action: "wait" }
  if (sale.outcome === "failed" || sale.outcome === "cancelled") return { action: "not_charged" }
  if (link.settled_invoice_id && link.settled_invoice_id !== sale.invoice_id) return { action: "refund", reason: "second_payment" }
  if (order.status === "canceled") return { action: "refund", reason: "order_cancelled" }
  const currency = String(sale.currency_code ?? "").toUpperCase()
  if (sale.outcome !== "captured" || sale.amount === null || !amountsEqual(sale.amount, link.amount) || currency !== link.currency_code.toUpperCase()) {
    return { action: "refund", reason: "wrong_amount" }
  }
  if (order.paid_otherwise) return { action: "refund", reason: "already_paid" }
  if (!amountsEqual(order.total, link.amount) || order.currency_code.toUpperCase() !== link.currency_code.toUpperCase()) {
    return { action: "refund", reason: "order_changed" }
  }
  return { action: "settle" }
}
