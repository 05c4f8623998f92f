import type { LedgerFilters, LedgerSort } from "../../../../modules/sipay/ledger/store"
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
