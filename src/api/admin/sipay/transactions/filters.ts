import type { LedgerDayInfo } from "../../../../lib/sales-report"
import type { LedgerFilters, LedgerSort, LedgerStore } from "../../../../modules/sipay/ledger/store"
import type { SalesExportQuery, SalesQuery } from "./validators"

/** The lookup's query names as the ledger's filters. */
export function ledgerFiltersOf(query: SalesExportQuery): LedgerFilters {
  return {
    day: query.date,
    invoice_id: query.invoice_id,
    currency_id: query.currency_id,
    payment_type_id: query.payment_method_id,
    min_amount: query.min_amount,
    max_amount: query.max_amount,
    transaction_state_id: query.transaction_state,
  }
}

export function ledgerSortOf(query: SalesQuery): { sort: LedgerSort; direction: "asc" | "desc" } {
  const descending = query.order.startsWith("-")
  return { sort: query.order.replace(/^-/, "") as LedgerSort, direction: descending ? "desc" : "asc" }
}

/** Where the ledger stands for one day (null when it was never synced), as both look-ups answer it. */
export async function ledgerDayInfo(store: LedgerStore, date: string): Promise<LedgerDayInfo | null> {
  const day = (await store.days([date])).get(date)
  return day ? { last_synced_at: day.last_synced_at, sale_count: day.sale_count, last_error: day.last_error, last_duration_ms: day.last_duration_ms } : null
}
