import { fromMinorUnits, toMinorUnits } from "../sipay/amount"
import type { SaleRecord } from "../sipay/types"

export type SalesTotal = { currency_code: string; count: number; gross: string; net: string; commission: string; refunded: string }

/** Sums per currency of what is shown, added in minor units (never through floats). */
export function salesTotals(sales: readonly SaleRecord[]): SalesTotal[] {
  const sums = new Map<string, { count: number; gross: bigint; net: bigint; commission: bigint; refunded: bigint }>()
  for (const sale of sales) {
    const currency = sale.currency_code || String(sale.currency_id)
    const sum = sums.get(currency) ?? { count: 0, gross: 0n, net: 0n, commission: 0n, refunded: 0n }
    sum.count += 1
    sum.gross += toMinorUnits(sale.gross ?? 0)
    sum.net += toMinorUnits(sale.net ?? 0)
    sum.commission += toMinorUnits(sale.merchant_commission ?? 0)
    sum.refunded += toMinorUnits(sale.total_refunded_amount ?? 0)
    sums.set(currency, sum)
  }
  return [...sums.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([currency_code, sum]) => ({
      currency_code,
      count: sum.count,
      gross: fromMinorUnits(sum.gross),
      net: fromMinorUnits(sum.net),
      commission: fromMinorUnits(sum.commission),
      refunded: fromMinorUnits(sum.refunded),
    }))
}
