import type { DataTablePaginationState, DataTableSortingState } from "@medusajs/ui"
import { useSipayT } from "./i18n"

/** The pagination footer's words (DataTable.Pagination), in the user's language. */
export function usePaginationTranslations() {
  const { t } = useSipayT()
  return { of: t("pagination.of"), results: t("pagination.results"), pages: t("pagination.pages"), prev: t("pagination.prev"), next: t("pagination.next") }
}

/** An API order ("-gross") as DataTable's sorting state ({ id: "gross", desc: true }). */
export function sortingFromOrder(order: string): DataTableSortingState {
  return order.startsWith("-") ? { id: order.slice(1), desc: true } : { id: order, desc: false }
}

/** DataTable's sorting state as an API order; none (a header clicked back to unsorted) is the fallback. */
export function orderFromSorting(sorting: DataTableSortingState | null | undefined, fallback: string): string {
  return sorting?.id ? `${sorting.desc ? "-" : ""}${sorting.id}` : fallback
}

/** A page of an offset-paged API as DataTable's pagination state, and back. */
export function paginationFromOffset(offset: number, pageSize: number): DataTablePaginationState {
  return { pageIndex: Math.floor(offset / pageSize), pageSize }
}

export function offsetFromPagination(pagination: DataTablePaginationState): number {
  return pagination.pageIndex * pagination.pageSize
}

/**
 * DataTable's onRowClick, opening the clicked row's data. @medusajs/ui 4.2.0–4.2.6 type its second
 * argument as the row's data but pass tanstack's Row (the data under `original`): take either.
 */
export function openOnRowClick<T>(open: (item: T) => void) {
  return (_event: unknown, row: T) => open(rowData(row))
}

export function rowData<T>(row: T | { original: T }): T {
  const candidate = row as { original?: T; getValue?: unknown }
  return candidate && typeof candidate === "object" && "original" in candidate && typeof candidate.getValue === "function" ? (candidate.original as T) : (row as T)
}
