import { defineRouteConfig } from "@medusajs/admin-sdk"
import { ArrowPath } from "@medusajs/icons"
import { Alert, Container, createDataTableColumnHelper, DataTable, Drawer, IconButton, Select, useDataTable } from "@medusajs/ui"
import { useCallback, useEffect, useMemo, useState } from "react"
import { adminRequest } from "../../lib/admin-api"
import { formatAmount, useSipayT } from "../../lib/i18n"
import { ListToolbar } from "../../lib/list-toolbar"
import { openOnRowClick, usePaginationTranslations } from "../../lib/table"
import { cycleText, gatewayDate, PlanPanel, PlanStatus, type RecurringPlan } from "./plan-panel"

const PAGE_SIZE = 20

const column = createDataTableColumnHelper<RecurringPlan>()

function useColumns() {
  const { t, locale } = useSipayT()
  return useMemo(() => [
    column.display({ id: "customer", header: t("recurring.customer"), cell: ({ row }) => <span data-testid="recurring-plan-row">{row.original.email ?? row.original.customer_id ?? "-"}</span> }),
    column.accessor("order_id", { header: t("recurring.order"), cell: ({ getValue }) => getValue() ?? "-" }),
    column.accessor("amount", { header: t("recurring.amount"), cell: ({ row }) => formatAmount(row.original.amount, row.original.currency_code, locale) }),
    column.display({ id: "cycle", header: t("recurring.cycle"), cell: ({ row }) => cycleText(row.original, t) }),
    column.display({ id: "payments", header: t("recurring.payments"), cell: ({ row }) => `${row.original.charges_made} / ${row.original.payment_number}` }),
    column.accessor("next_action_date", { header: t("recurring.nextCharge"), cell: ({ getValue }) => gatewayDate(getValue(), t, locale) }),
    column.accessor("status", { header: t("recurring.status"), cell: ({ getValue }) => <PlanStatus status={getValue()} /> }),
  ], [t, locale])
}

/** The store's recurring plans, from the plugin's records (the gateway has no list): opening one asks the gateway. */
const RecurringPlansPage = () => {
  const { t } = useSipayT()
  const [plans, setPlans] = useState<RecurringPlan[]>([])
  const [count, setCount] = useState(0)
  const [page, setPage] = useState(0)
  const [status, setStatus] = useState("all")
  const [error, setError] = useState<string | null>(null)
  const [loading, setLoading] = useState(true)
  const [selected, setSelected] = useState<string | null>(null)
  const translations = usePaginationTranslations()

  const load = useCallback(async () => {
    try {
      const params = new URLSearchParams({ limit: String(PAGE_SIZE), offset: String(page * PAGE_SIZE) })
      if (status !== "all") params.set("status", status)
      const answer = await adminRequest<{ recurring_plans: RecurringPlan[]; count: number }>(`/admin/sipay/recurring-plans?${params}`)
      setPlans(answer.recurring_plans)
      setCount(answer.count)
      setError(null)
    } catch (failure) {
      setError((failure as Error).message)
    } finally {
      setLoading(false)
    }
  }, [page, status])

  useEffect(() => {
    load()
  }, [load])

  useEffect(() => {
    const id = new URLSearchParams(window.location.search).get("id")
    if (id) setSelected(id)
  }, [])

  const instance = useDataTable({
    data: plans,
    columns: useColumns(),
    getRowId: (plan) => plan.id,
    rowCount: count,
    isLoading: loading,
    onRowClick: openOnRowClick((plan: RecurringPlan) => setSelected(plan.id)),
    pagination: { state: { pageIndex: page, pageSize: PAGE_SIZE }, onPaginationChange: (state) => setPage(state.pageIndex) },
  })

  return (
    <Container className="divide-y p-0">
      <DataTable instance={instance}>
        <ListToolbar title={t("recurring.title")} subtitle={t("recurring.subtitle")}>
            <Select size="small" value={status} onValueChange={(value) => { setPage(0); setStatus(value) }}>
              <Select.Trigger aria-label={t("recurring.status")}><Select.Value /></Select.Trigger>
              <Select.Content>
                <Select.Item value="all">{t("recurring.allStatuses")}</Select.Item>
                <Select.Item value="Active">{t("recurring.statuses.Active")}</Select.Item>
                <Select.Item value="Stopped">{t("recurring.statuses.Stopped")}</Select.Item>
                <Select.Item value="Completed">{t("recurring.statuses.Completed")}</Select.Item>
              </Select.Content>
            </Select>
            <IconButton size="small" onClick={load} aria-label={t("recurring.refresh")}><ArrowPath /></IconButton>
        </ListToolbar>
        {error ? <div className="px-6 py-4"><Alert variant="error">{error}</Alert></div> : null}
        <DataTable.Table emptyState={{ empty: { heading: t("recurring.none") } }} />
        <DataTable.Pagination translations={translations} />
      </DataTable>
      <Drawer open={selected !== null} onOpenChange={(open) => !open && setSelected(null)}>
        <Drawer.Content>
          <Drawer.Header><Drawer.Title>{t("recurring.plan")}</Drawer.Title></Drawer.Header>
          <Drawer.Body className="overflow-y-auto">{selected ? <PlanPanel planId={selected} onChanged={load} /> : null}</Drawer.Body>
        </Drawer.Content>
      </Drawer>
    </Container>
  )
}

export const config = defineRouteConfig({ label: "sipay.recurring.menu", translationNs: "translation", icon: ArrowPath })

export default RecurringPlansPage
