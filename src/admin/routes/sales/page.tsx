import { defineRouteConfig } from "@medusajs/admin-sdk"
import { ReceiptPercent } from "@medusajs/icons"
import { Alert, Button, Container, Heading, Text, toast } from "@medusajs/ui"
import { useEffect, useMemo, useState } from "react"
import { useSearchParams } from "react-router-dom"
import type { SalesAnswer, SaleView } from "../../../lib/sales-report"
import { adminRequest } from "../../lib/admin-api"
import { formatGatewayTime, formatLocalDateTime, useSipayT } from "../../lib/i18n"
import { orderFromSorting, sortingFromOrder } from "../../lib/table"
import { DEFAULT_ORDER, filtersFrom, PAGE_SIZE, pageQueryOf, queryOf, SalesFilters, viewFrom, type SalesView as PageView } from "./filters"
import { FiltersForm } from "./filters-form"
import { SaleDrawer } from "./sale-drawer"
import { SalesTable, SalesTotals } from "./sales-table"

/** Where the ledger stands for the day shown. */
function LedgerLine({ answer }: { answer: SalesAnswer }) {
  const { t, locale } = useSipayT()
  if (answer.source === "gateway") {
    return <span data-testid="sales-source">{t("sales.sourceGateway")}</span>
  }
  const error = answer.ledger?.last_error
  if (!answer.ledger?.last_synced_at) {
    return <span data-testid="sales-source">{error ? t("sales.notSyncedFailed", { error }) : t("sales.notSynced")}</span>
  }
  const at = formatLocalDateTime(answer.ledger.last_synced_at, locale)
  return <span data-testid="sales-source">{error ? t("sales.lastSyncedFailed", { at, error }) : t("sales.lastSynced", { at })}</span>
}

/** The gateway's sales of one day, from the store's ledger (synced from the gateway), beside the Medusa orders they paid. */
const SalesPage = () => {
  const { t, locale } = useSipayT()
  // The gateway's day, written as the user writes dates.
  const day = (date: string) => formatGatewayTime(date, locale)
  const [params, setParams] = useSearchParams()
  const filters = useMemo(() => filtersFrom(params), [params])
  const view = useMemo(() => viewFrom(params), [params])
  const [answer, setAnswer] = useState<SalesAnswer | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [loading, setLoading] = useState(false)
  const [syncing, setSyncing] = useState(false)
  const [reload, setReload] = useState(0)
  const [open, setOpen] = useState<SaleView | null>(null)
  // "Look up now" asks the gateway (a POST): a click of the merchant's, never something a link to this page can start.
  const [source, setSource] = useState<"ledger" | "gateway">("ledger")

  useEffect(() => {
    let current = true
    // What is shown always matches the filters: no earlier answer while the next loads.
    setAnswer(null)
    setLoading(true)
    setError(null)
    // The ledger is read with a GET; asking the gateway now is a POST (it makes a gateway call).
    const request =
      source === "gateway"
        ? adminRequest<SalesAnswer>("/admin/sipay/transactions/lookup", { method: "POST", json: Object.fromEntries(new URLSearchParams(queryOf(filters))) })
        : adminRequest<SalesAnswer>(`/admin/sipay/transactions?${pageQueryOf(filters, view)}&limit=${PAGE_SIZE}`)
    request
      .then((result) => current && setAnswer(result))
      .catch((failure: Error) => {
        if (current) {
          setAnswer(null)
          setError(failure.message)
        }
      })
      .finally(() => current && setLoading(false))
    return () => {
      current = false
    }
  }, [filters, view, source, reload])

  const sales = answer?.sales ?? []
  const count = answer?.count ?? 0
  const offset = Number(view.offset)
  const paged = answer?.source === "ledger"
  const seenStates = useMemo(() => sales.map((s) => ({ id: s.transaction_state_id, label: s.transaction_state_label })), [sales])
  const go = (nextFilters: SalesFilters, nextView: PageView) => setParams(new URLSearchParams(pageQueryOf(nextFilters, nextView)))
  const search = (next: SalesFilters) => go(next, { ...view, offset: "0" })

  const syncNow = async () => {
    setSyncing(true)
    try {
      const { sync } = await adminRequest<{ sync: { days: { sales: number }[] } }>("/admin/sipay/transactions/sync", { method: "POST", json: { date: filters.date } })
      toast.success(t("sales.synced", { count: sync.days[0]?.sales ?? 0, date: day(filters.date) }))
      setReload((n) => n + 1)
    } catch (failure) {
      toast.error((failure as Error).message)
    } finally {
      setSyncing(false)
    }
  }

  const exportHref = `/admin/sipay/transactions/export?${queryOf(filters)}`

  // What the table shows: the count (or the page's range) and where the ledger stands.
  const summary = (
    <div className="flex flex-col">
      <Text size="small" className="text-ui-fg-subtle" data-testid="sales-count">
        {loading || !answer
          ? t("common.loading")
          : paged && count > sales.length
            ? t("sales.range", { from: offset + 1, to: offset + sales.length, count, date: day(answer.date) })
            : t("sales.count", { count, date: day(answer.date) })}
      </Text>
      {answer && (
        <Text size="xsmall" className="text-ui-fg-muted">
          <LedgerLine answer={answer} />
        </Text>
      )}
    </div>
  )

  return (
    <Container className="divide-y p-0">
      <div className="flex items-center justify-between px-6 py-4">
        <div>
          <Heading level="h1">{t("sales.title")}</Heading>
          <Text size="small" className="text-ui-fg-subtle">{t("sales.subtitle")}</Text>
        </div>
        <div className="flex gap-x-2">
          <Button size="small" variant="secondary" id="sales-sync" isLoading={syncing} onClick={syncNow}>
            {t("sales.syncNow")}
          </Button>
          <Button size="small" variant="secondary" id="sales-source-toggle" onClick={() => setSource(source === "gateway" ? "ledger" : "gateway")}>
            {source === "gateway" ? t("sales.showLedger") : t("sales.lookUpNow")}
          </Button>
          {count > 0 && paged ? (
            <Button size="small" variant="secondary" id="sales-export" asChild>
              <a href={exportHref} download={`sipay-sales-${filters.date}.csv`}>{t("sales.exportCsv")}</a>
            </Button>
          ) : (
            <Button size="small" variant="secondary" id="sales-export" disabled>
              {t("sales.exportCsv")}
            </Button>
          )}
        </div>
      </div>
      <FiltersForm filters={filters} seenStates={seenStates} onSearch={search} />
      {error && (
        <div className="px-6 py-4">
          <Alert variant="error" data-testid="sales-error">{error}</Alert>
        </div>
      )}
      {!error && (
        <div data-testid="sales-results" aria-busy={loading}>
          <SalesTable
            summary={summary}
            sales={sales}
            count={count}
            loading={loading}
            emptyText={t("sales.count", { count: 0, date: day(filters.date) })}
            onOpen={setOpen}
            sorting={paged ? { state: sortingFromOrder(view.order), onSortingChange: (sorting) => go(filters, { ...view, order: orderFromSorting(sorting, DEFAULT_ORDER), offset: "0" }) } : undefined}
            page={paged ? { pageIndex: Math.floor(offset / PAGE_SIZE), pageSize: PAGE_SIZE, onPageChange: (index) => go(filters, { ...view, offset: String(index * PAGE_SIZE) }) } : undefined}
          />
          {answer && answer.totals.length > 0 && <SalesTotals totals={answer.totals} />}
        </div>
      )}
      <SaleDrawer sale={open} onClose={() => setOpen(null)} />
    </Container>
  )
}

export const config = defineRouteConfig({
  label: "sipay.sales.menu",
  translationNs: "translation",
  icon: ReceiptPercent,
})

export default SalesPage
