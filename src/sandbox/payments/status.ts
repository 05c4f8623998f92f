import type { Currency, SaleRecord } from "../types"

export type TransactionStatus = "Completed" | "Failed" | "Pending"

/** checkstatus's view of a sale: one small mapping, not scattered ifs. */
export function transactionStatus(sale: SaleRecord, includePending: boolean): { transaction_status: TransactionStatus; reason: string } {
  if (sale.state === "pending") return { transaction_status: includePending ? "Pending" : "Failed", reason: "Pending" }
  if (sale.state === "failed") return { transaction_status: "Failed", reason: sale.reason }
  if (sale.captured_minor > 0 && sale.refunded_minor >= sale.captured_minor) return { transaction_status: "Completed", reason: "Refunded" }
  if (sale.refunded_minor > 0) return { transaction_status: "Completed", reason: "Partially Refunded" }
  return { transaction_status: "Completed", reason: "" }
}

/** The amount taken (or held, for a reserved pre-authorization). */
export function transactionAmount(sale: SaleRecord): number {
  if (sale.preauth?.state === "reserved") return sale.total_minor
  return sale.captured_minor
}

export const CURRENCY_IDS: Record<string, number> = { TRY: 1, USD: 2, EUR: 3 }

/** The currency of a payment link's currency id (1, 2, 3). */
export function currencyOfId(id: number): Currency {
  return (Object.keys(CURRENCY_IDS) as Currency[]).find((code) => CURRENCY_IDS[code] === id)!
}
