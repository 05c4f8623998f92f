import { defineRouteConfig } from "@medusajs/admin-sdk"
import { ArrowPath } from "@medusajs/icons"
import { Alert, Button, Container, Drawer, Heading, Select, Table, Text } from "@medusajs/ui"
import { useCallback, useEffect, useState } from "react"
import { adminRequest } from "../../lib/admin-api"
import { formatAmount, useSipayT } from "../../lib/i18n"
import { cycleText, gatewayDate, PlanPanel, PlanStatus, type RecurringPlan } from "./plan-panel"

const PAGE_SIZE = 20

/** The store's recurring plans, from the plugin's records (the gateway has no list): opening one asks the gateway. */
const RecurringPlansPage = () => {
  const { t, locale } = useSipayT()
  const [plans, setPlans] = useState<RecurringPlan[]>([])
  const [count, setCount] = useState(0)
  const [page, setPage] = useState(0)
  const [status, setStatus] = useState("all")
  const [error, setError] = useState<string | null>(null)
  const [selected, setSelected] = useState<string | null>(null)

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
    }
  }, [page, status])

  useEffect(() => {
    load()
  }, [load])

  useEffect(() => {
    const id = new URLSearchParams(window.location.search).get("id")
    if (id) setSelected(id)
  }, [])

  return (
    <Container className="divide-y p-0">
      <div className="flex items-center justify-between px-6 py-4">
        <div>
          <Heading level="h1">{t("recurring.title")}</Heading>
          <Text size="small" className="text-ui-fg-subtle">{t("recurring.subtitle")}</Text>
        </div>
        <div className="flex items-center gap-x-2">
          <Select size="small" value={status} onValueChange={(value) => { setPage(0); setStatus(value) }}>
            <Select.Trigger><Select.Value /></Select.Trigger>
            <Select.Content>
              <Select.Item value="all">{t("recurring.allStatuses")}</Select.Item>
              <Select.Item value="Active">{t("recurring.statuses.Active")}</Select.Item>
              <Select.Item value="Stopped">{t("recurring.statuses.Stopped")}</Select.Item>
              <Select.Item value="Completed">{t("recurring.statuses.Completed")}</Select.Item>
            </Select.Content>
          </Select>
          <Button size="small" variant="secondary" onClick={load} aria-label={t("recurring.refresh")}><ArrowPath /></Button>
        </div>
      </div>
      {error ? <div className="px-6 py-4"><Alert variant="error">{error}</Alert></div> : null}
      <Table>
        <Table.Header>
          <Table.Row>
            <Table.HeaderCell>{t("recurring.customer")}</Table.HeaderCell>
            <Table.HeaderCell>{t("recurring.order")}</Table.HeaderCell>
            <Table.HeaderCell>{t("recurring.amount")}</Table.HeaderCell>
            <Table.HeaderCell>{t("recurring.cycle")}</Table.HeaderCell>
            <Table.HeaderCell>{t("recurring.payments")}</Table.HeaderCell>
            <Table.HeaderCell>{t("recurring.nextCharge")}</Table.HeaderCell>
            <Table.HeaderCell>{t("recurring.status")}</Table.HeaderCell>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {plans.map((plan) => (
            <Table.Row key={plan.id} className="cursor-pointer" onClick={() => setSelected(plan.id)} data-testid="recurring-plan-row">
              <Table.Cell>{plan.email ?? plan.customer_id ?? "-"}</Table.Cell>
              <Table.Cell>{plan.order_id ?? "-"}</Table.Cell>
              <Table.Cell>{formatAmount(plan.amount, plan.currency_code, locale)}</Table.Cell>
              <Table.Cell>{cycleText(plan, t)}</Table.Cell>
              <Table.Cell>{`${plan.charges_made} / ${plan.payment_number}`}</Table.Cell>
              <Table.Cell>{gatewayDate(plan.next_action_date, t)}</Table.Cell>
              <Table.Cell><PlanStatus status={plan.status} /></Table.Cell>
            </Table.Row>
          ))}
        </Table.Body>
      </Table>
      {!plans.length && !error ? <Text size="small" className="px-6 py-4 text-ui-fg-subtle">{t("recurring.none")}</Text> : null}
      <Table.Pagination count={count} pageSize={PAGE_SIZE} pageIndex={page} pageCount={Math.max(1, Math.ceil(count / PAGE_SIZE))} canPreviousPage={page > 0} canNextPage={(page + 1) * PAGE_SIZE < count} previousPage={() => setPage(page - 1)} nextPage={() => setPage(page + 1)} translations={{ of: t("pagination.of"), results: t("pagination.results"), pages: t("pagination.pages"), prev: t("pagination.prev"), next: t("pagination.next") }} />
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
