import { gatewayDay } from "../../../lib/sales-report/calendar"

/** The lookup's filters, named as the admin API's query (docs/contracts.md); kept in the page's address. */
export const FILTER_NAMES = ["date", "invoice_id", "currency_id", "payment_method_id", "min_amount", "max_amount", "transaction_state"] as const
export type SalesFilters = Record<(typeof FILTER_NAMES)[number], string>

/** Today in the gateway's calendar (Istanbul), which dates the sales. */
export function gatewayToday(): string {
  return gatewayDay(new Date())
}

export function filtersFrom(params: URLSearchParams): SalesFilters {
  const filters = Object.fromEntries(FILTER_NAMES.map((name) => [name, params.get(name) ?? ""])) as SalesFilters
  filters.date ||= gatewayToday()
  return filters
}

/** Only the filters that are set, as a query string. */
export function queryOf(filters: SalesFilters): string {
  return new URLSearchParams(FILTER_NAMES.filter((name) => filters[name] !== "").map((name) => [name, filters[name].trim()])).toString()
}
