import { Button, createDataTableColumnHelper, DataTable, StatusBadge, Text, useDataTable, type DataTableSortingState } from "@medusajs/ui"
import { ReactNode, useMemo } from "react"
import type { SaleView, SalesTotal } from "../../../lib/sales-report"
import { saleStateText } from "../../lib/gateway-values"
import { formatAmount, formatGatewayTime, formatIstanbul, formatNumber, useSipayT } from "../../lib/i18n"
import { openOnRowClick, usePaginationTranslations } from "../../lib/table"
import { MedusaLinks } from "./sale-drawer"

const STATE_COLOR: Record<number, "green" | "red" | "orange" | "blue" | "grey" | "purple"> = {
  1: "green", 2: "red", 3: "orange", 4: "blue", 5: "blue", 6: "orange", 7: "grey", 11: "purple",
}

const column = createDataTableColumnHelper<SaleView>()

/** The columns; those the API sorts by carry its field as id (created_at, invoice_id, state, gross). */
function useColumns(onOpen: (sale: SaleView) => void) {
  const { t, locale } = useSipayT()
  return useMemo(() => {
    const sortable = (ascKey: string, descKey: string) => ({ enableSorting: true, sortAscLabel: t(ascKey), sortDescLabel: t(descKey) })
    return [
      column.accessor("created_at", { header: t("sales.columns.time"), ...sortable("sales.orders.oldest", "sales.orders.newest"), cell: ({ getValue }) => formatIstanbul(getValue(), locale, "time") }),
      column.accessor("invoice_id", {
        header: t("sales.columns.invoiceId"),
        ...sortable("sales.orders.ascending", "sales.orders.descending"),
        // A keyboard user opens the drawer from here; the row opens it on a click anywhere.
        cell: ({ row }) => (
          <Button size="small" variant="transparent" className="text-ui-fg-interactive px-0 font-mono" data-invoice-id={row.original.invoice_id} onClick={(event) => { event.stopPropagation(); onOpen(row.original) }}>
            {row.original.invoice_id}
          </Button>
        ),
      }),
      // The Medusa side next to the sale's id: the table scrolls sideways on narrow screens, its links stay in view.
      column.display({ id: "medusa", header: t("sales.columns.medusa"), meta: { ___truncateTooltip: false }, cell: ({ row }) => <MedusaLinks sale={row.original} /> }),
      column.accessor("transaction_state_id", {
        id: "state",
        header: t("sales.columns.state"),
        ...sortable("sales.orders.ascending", "sales.orders.descending"),
        cell: ({ row }) => <StatusBadge color={STATE_COLOR[row.original.transaction_state_id] ?? "grey"}>{saleStateText(row.original, t)}</StatusBadge>,
      }),
      column.accessor("gross", { header: t("sales.columns.gross"), align: "right", ...sortable("sales.orders.smallest", "sales.orders.largest"), cell: ({ row }) => formatAmount(row.original.gross, row.original.currency_code, locale) }),
      column.accessor("net", { header: t("sales.columns.net"), align: "right", cell: ({ getValue }) => formatNumber(getValue(), locale) }),
      column.accessor("merchant_commission", { header: t("sales.columns.commission"), align: "right", cell: ({ getValue }) => formatNumber(getValue(), locale) }),
      column.accessor("installment", { header: t("sales.columns.installments"), align: "right", size: 72 }),
      column.accessor("credit_card_no", { header: t("sales.columns.card"), cell: ({ getValue }) => <span className="font-mono">{getValue()}</span> }),
      column.accessor("total_refunded_amount", { header: t("sales.columns.refunded"), align: "right", cell: ({ getValue }) => formatNumber(getValue(), locale) }),
      column.display({
        id: "settlement",
        header: t("sales.columns.settlement"),
        meta: { ___truncateTooltip: false },
        cell: ({ row }) => (
          <div>
            <Text size="xsmall" leading="compact">{formatGatewayTime(row.original.settlement_date_bank, locale)}</Text>
            <Text size="xsmall" leading="compact" className="text-ui-fg-subtle">{formatGatewayTime(row.original.settlement_date_merchant, locale)}</Text>
          </div>
        ),
      }),
    ]
  }, [t, locale, onOpen])
}

/**
 * One row per sale; a row opens its drawer. From the ledger the API pages and sorts (sorting and
 * paging given); the gateway's answer is the whole day, shown as it came.
 */
export function SalesTable({ summary, sales, count, loading, emptyText, onOpen, sorting, page }: {
  /** What the table shows (count, ledger state), beside the sorting menu. */
  summary: ReactNode
  sales: SaleView[]
  count: number
  loading: boolean
  emptyText: string
  onOpen: (sale: SaleView) => void
  sorting?: { state: DataTableSortingState; onSortingChange: (state: DataTableSortingState) => void }
  page?: { pageIndex: number; pageSize: number; onPageChange: (pageIndex: number) => void }
}) {
  const { t } = useSipayT()
  const translations = usePaginationTranslations()
  const instance = useDataTable({
    data: sales,
    columns: useColumns(onOpen),
    getRowId: (sale) => `${sale.id}-${sale.invoice_id}`,
    rowCount: count,
    isLoading: loading,
    onRowClick: openOnRowClick(onOpen),
    sorting,
    pagination: page && { state: { pageIndex: page.pageIndex, pageSize: page.pageSize }, onPaginationChange: (state) => page.onPageChange(state.pageIndex) },
  })
  return (
    <DataTable instance={instance}>
      <div className="flex items-center justify-between gap-x-4 px-6 py-2">
        {summary}
        {sorting && <DataTable.SortingMenu tooltip={t("sales.sort")} />}
      </div>
      <DataTable.Table emptyState={{ empty: { heading: emptyText } }} />
      {page && <DataTable.Pagination translations={translations} />}
    </DataTable>
  )
}

/** Totals of the rows shown, per currency. */
export function SalesTotals({ totals }: { totals: SalesTotal[] }) {
  const { t, locale } = useSipayT()
  return (
    <div className="flex flex-col gap-y-1 px-6 py-4" data-testid="sales-totals">
      {totals.map((total) => (
        <Text key={total.currency_code} size="small" leading="compact">
          {t("sales.totals", { currency: total.currency_code, count: total.count, gross: formatNumber(total.gross, locale), net: formatNumber(total.net, locale), commission: formatNumber(total.commission, locale), refunded: formatNumber(total.refunded, locale) })}
        </Text>
      ))}
    </div>
  )
}
