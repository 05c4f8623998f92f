import { defineRouteConfig } from "@medusajs/admin-sdk"
import { ReceiptPercent } from "@medusajs/icons"
import { Alert, Button, Container, Heading, Text } from "@medusajs/ui"
import { useEffect, useMemo, useState } from "react"
import { useSearchParams } from "react-router-dom"
import { salesCsv, salesTotals } from "../../../lib/sales-report"
import type { SalesAnswer, SaleView } from "../../../lib/sales-report"
import { adminRequest } from "../../lib/admin-api"
import { filtersFrom, queryOf, SalesFilters } from "./filters"
import { FiltersForm } from "./filters-form"
import { SaleDrawer } from "./sale-drawer"
import { SalesTable, SalesTotals } from "./sales-table"

/** A file download of the sales shown (with a BOM, so spreadsheets read Turkish text as UTF-8). */
function downloadCsv(sales: SaleView[], date: string) {
  const url = URL.createObjectURL(new Blob(["\uFEFF", salesCsv(sales)], { type: "text/csv;charset=utf-8" }))
  const link = document.createElement("a")
  link.href = url
  link.download = `sipay-sales-${date}.csv`
  document.body.appendChild(link)
  link.click()
  link.remove()
  setTimeout(() => URL.revokeObjectURL(url), 10000)
}

/** The gateway's sales of one day (getTransactions), beside the Medusa orders they paid. */
const SalesPage = () => {
  const [params, setParams] = useSearchParams()
  const filters = useMemo(() => filtersFrom(params), [params])
  const [answer, setAnswer] = useState<SalesAnswer | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [loading, setLoading] = useState(false)
  const [open, setOpen] = useState<SaleView | null>(null)

  useEffect(() => {
    let current = true
    // What is shown (and exported) always matches the filters: no earlier answer while the next loads.
    setAnswer(null)
    setLoading(true)
    setError(null)
    adminRequest<SalesAnswer>(`/admin/sipay/transactions?${queryOf(filters)}`)
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
  }, [filters])

  const sales = answer?.sales ?? []
  const totals = useMemo(() => salesTotals(sales), [sales])
  const seenStates = useMemo(() => sales.map((s) => ({ id: s.transaction_state_id, label: s.transaction_state_label })), [sales])
  const search = (next: SalesFilters) => setParams(new URLSearchParams(queryOf(next)))

  return (
    <Container className="divide-y p-0">
      <div className="flex items-center justify-between px-6 py-4">
        <div>
          <Heading level="h1">Sales</Heading>
          <Text size="small" className="text-ui-fg-subtle">The gateway's sales of one day (Istanbul time), with the Medusa order each paid.</Text>
        </div>
        <Button size="small" variant="secondary" id="sales-export" disabled={!sales.length} onClick={() => downloadCsv(sales, filters.date)}>
          Export CSV
        </Button>
      </div>
      <FiltersForm filters={filters} seenStates={seenStates} onSearch={search} />
      {error && (
        <div className="px-6 py-4">
          <Alert variant="error" data-testid="sales-error">{error}</Alert>
        </div>
      )}
      {!error && (
        <div data-testid="sales-results" aria-busy={loading}>
          <div className="px-6 py-2">
            <Text size="small" className="text-ui-fg-subtle" data-testid="sales-count">
              {loading ? "Loading…" : `${sales.length} sale${sales.length === 1 ? "" : "s"} on ${answer?.date ?? filters.date}`}
            </Text>
          </div>
          {sales.length > 0 && <SalesTable sales={sales} onOpen={setOpen} />}
          {sales.length > 0 && <SalesTotals totals={totals} />}
        </div>
      )}
      <SaleDrawer sale={open} onClose={() => setOpen(null)} />
    </Container>
  )
}

export const config = defineRouteConfig({
  label: "Sales",
  icon: ReceiptPercent,
})

export default SalesPage
