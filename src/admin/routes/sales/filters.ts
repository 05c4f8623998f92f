import { gatewayDay } from "../../../lib/sales-report/calendar"

/** The lookup's filters, named as the admin API's query (docs/contracts.md); kept in the page's address. */
export const FILTER_NAMES = ["date", "invoice_id", "currency_id", "payment_method_id", "min_amount", "max_amount", "transaction_state"] as const
export type SalesFilters = Record<(typeof FILTER_NAMES)[number], string>

/** How the ledger's result is shown (sorted, paged); also in the address. Looking up the gateway now is an action of the page, never in its address. */
export const VIEW_NAMES = ["order", "offset"] as const
export type SalesView = Record<(typeof VIEW_NAMES)[number], string>
export const PAGE_SIZE = 50

/** The API's sort fields (created_at, gross, state, invoice_id; "-" for descending); newest first by default. */
export const DEFAULT_ORDER = "-created_at"
const ORDER = /^-?(created_at|gross|state|invoice_id)$/

/** Today in the gateway's calendar (Istanbul), which dates the sales. */
export function gatewayToday(): string {
  return gatewayDay(new Date())
}

export function filtersFrom(params: URLSearchParams): SalesFilters {
  const filters = Object.fromEntries(FILTER_NAMES.map((name) => [name, params.get(name) ?? ""])) as SalesFilters
  filters.date ||= gatewayToday()
  return filters
}

export function viewFrom(params: URLSearchParams): SalesView {
  return {
    order: ORDER.test(params.get("order") ?? "") ? params.get("order")! : DEFAULT_ORDER,
    offset: /^\d+$/.test(params.get("offset") ?? "") ? params.get("offset")! : "0",
  }
}

/** Only the filters that are set, as a query string. */
export function queryOf(filters: SalesFilters): string {
  return new URLSearchParams(FILTER_NAMES.filter((name) => filters[name] !== "").map((name) => [name, filters[name].trim()])).toString()
}

/** Filters plus the view (defaults left out), as the page's address and the API's query. */
export function pageQueryOf(filters: SalesFilters, view: SalesView): string {
  const query = new URLSearchParams(queryOf(filters))
  if (view.order !== DEFAULT_ORDER) query.set("order", view.order)
  if (view.offset !== "0") query.set("offset", view.offset)
  return query.toString()
}
