import { Alert, Button, createDataTableColumnHelper, DataTable, Heading, Input, Label, StatusBadge, Text, toast, useDataTable, usePrompt } from "@medusajs/ui"
import { useCallback, useEffect, useMemo, useState } from "react"
import { Link } from "react-router-dom"
import { adminRequest } from "../../lib/admin-api"
import { formatAmount, formatGatewayTime, formatLocalDateTime, useSipayT } from "../../lib/i18n"

type T = (key: string, options?: Record<string, unknown>) => string

export type RecurringPlan = {
  id: string
  plan_code: string
  order_id: string | null
  customer_id: string | null
  email: string | null
  amount: string
  currency_code: string
  cycle: "D" | "M" | "Y"
  interval: number
  payment_number: number
  charges_made: number
  status: string
  next_action_date: string | null
  refreshed_at: string | null
  created_at: string | null
  history: { at: string; actor: string | null; action: string; value: string | number | null; outcome: string; message?: string }[]
}

export type RecurringCharge = { recurringNumber: number | null; status: string | null; gatewayStatus: string | null; attempts: number | null; amount: string | null; actionDate: string | null; remarks: string | null }

const CYCLES = new Set(["D", "M", "Y"])

/** "Every month", "Every 3 days" (t("recurring.every.<cycle>") / t("recurring.everyN.<cycle>")). */
export function cycleText(plan: Pick<RecurringPlan, "cycle" | "interval">, t: T): string {
  if (!CYCLES.has(plan.cycle)) return `${plan.interval} ${plan.cycle}`
  return plan.interval === 1 ? t(`recurring.every.${plan.cycle}`) : t(`recurring.everyN.${plan.cycle}`, { count: plan.interval })
}

export function PlanStatus({ status }: { status: string }) {
  const { t } = useSipayT()
  const color = status === "Active" ? "green" : status === "Stopped" ? "red" : "grey"
  return <StatusBadge color={color}>{["Active", "Stopped", "Completed"].includes(status) ? t(`recurring.statuses.${status}`) : status}</StatusBadge>
}

/** The gateway's dates are Istanbul time (labelled). */
export function gatewayDate(value: string | null, t: T, locale: string): string {
  return value ? t("recurring.gatewayDate", { date: formatGatewayTime(value, locale) }) : "-"
}

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="grid grid-cols-[160px_1fr] gap-x-4 py-1">
      <Text size="small" className="text-ui-fg-subtle">{label}</Text>
      <div className="txt-compact-small text-ui-fg-base">{children}</div>
    </div>
  )
}

/** Actions the gateway offers; their names are t("recurring.actions.<action>"). */
const ACTIONS = new Set(["stop", "change_amount", "change_payment_number"])
const actionText = (action: string, t: T) => (ACTIONS.has(action) ? t(`recurring.actions.${action}`) : action)

const CHARGE_STATUSES = new Set(["Completed", "Success", "Failed", "Pending"])
const chargeColumn = createDataTableColumnHelper<RecurringCharge>()

/** The gateway's charges of a plan and their attempts, as it answered (all of them: a plan has few). */
function ChargesTable({ charges, currency }: { charges: RecurringCharge[]; currency: string }) {
  const { t, locale } = useSipayT()
  const columns = useMemo(() => [
    chargeColumn.accessor("recurringNumber", { header: "#", size: 48, cell: ({ getValue }) => getValue() ?? "-" }),
    chargeColumn.accessor("actionDate", { header: t("recurring.date"), cell: ({ getValue }) => gatewayDate(getValue(), t, locale) }),
    chargeColumn.accessor("amount", { header: t("recurring.amount"), cell: ({ getValue }) => formatAmount(getValue(), currency, locale) }),
    chargeColumn.display({
      id: "status",
      header: t("recurring.status"),
      meta: { ___truncateTooltip: false },
      cell: ({ row: { original: charge } }) => (
        <div>
          <StatusBadge color={charge.status === "Completed" ? "green" : "red"}>{charge.status && CHARGE_STATUSES.has(charge.status) ? t(`recurring.chargeStatuses.${charge.status}`) : (charge.status ?? charge.gatewayStatus ?? "-")}</StatusBadge>
          {charge.remarks ? <Text size="xsmall" className="text-ui-fg-subtle">{charge.remarks}</Text> : null}
        </div>
      ),
    }),
    chargeColumn.accessor("attempts", { header: t("recurring.attempts"), cell: ({ getValue }) => getValue() ?? "-" }),
  ], [t, locale, currency])
  const instance = useDataTable({ data: charges, columns, getRowId: (charge, index) => String(charge.recurringNumber ?? `at-${index}`), rowCount: charges.length })
  return (
    <DataTable instance={instance}>
      <DataTable.Table emptyState={{ empty: { heading: t("recurring.noCharges") } }} />
    </DataTable>
  )
}

/**
 * One plan: its record, the gateway's charges and attempts (asked when opened), and the actions the
 * gateway offers, each confirmed first; a refusal shows the gateway's reason.
 */
export function PlanPanel({ planId, onChanged }: { planId: string; onChanged?: (plan: RecurringPlan) => void }) {
  const { t, locale } = useSipayT()
  const [plan, setPlan] = useState<RecurringPlan | null>(null)
  const [charges, setCharges] = useState<RecurringCharge[]>([])
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [amount, setAmount] = useState("")
  const [paymentNumber, setPaymentNumber] = useState("")
  const prompt = usePrompt()

  const load = useCallback(async () => {
    try {
      const answer = await adminRequest<{ recurring_plan: RecurringPlan; charges: RecurringCharge[] }>(`/admin/sipay/recurring-plans/${encodeURIComponent(planId)}`)
      setPlan(answer.recurring_plan)
      setCharges(answer.charges)
      setError(null)
    } catch (failure) {
      setError((failure as Error).message)
    }
  }, [planId])

  useEffect(() => {
    load()
  }, [load])

  const act = async (body: Record<string, unknown>, description: string) => {
    const confirmed = await prompt({ title: t("recurring.confirmTitle", { action: actionText(String(body.action), t) }), description, confirmText: t("common.confirm"), cancelText: t("common.cancel") })
    if (!confirmed) return
    setBusy(true)
    try {
      const answer = await adminRequest<{ recurring_plan: RecurringPlan; charges: RecurringCharge[] }>(`/admin/sipay/recurring-plans/${encodeURIComponent(planId)}`, { method: "POST", json: body })
      setPlan(answer.recurring_plan)
      setCharges(answer.charges)
      setAmount("")
      setPaymentNumber("")
      toast.success(t("recurring.updated"))
      onChanged?.(answer.recurring_plan)
    } catch (failure) {
      toast.error(t("recurring.notChanged"), { description: (failure as Error).message })
      await load()
    } finally {
      setBusy(false)
    }
  }

  if (error) return <Alert variant="error">{error}</Alert>
  if (!plan) return <Text size="small">{t("common.loading")}</Text>
  const active = plan.status === "Active"
  return (
    <div className="flex flex-col gap-y-4" data-testid="recurring-plan-panel">
      <div>
        <Row label={t("recurring.status")}><PlanStatus status={plan.status} /></Row>
        <Row label={t("recurring.planCode")}>{plan.plan_code}</Row>
        <Row label={t("recurring.customer")}>{plan.email ?? plan.customer_id ?? "-"}</Row>
        <Row label={t("recurring.order")}>{plan.order_id ? <Link className="text-ui-fg-interactive" to={`/orders/${plan.order_id}`}>{plan.order_id}</Link> : "-"}</Row>
        <Row label={t("recurring.amount")}>{formatAmount(plan.amount, plan.currency_code, locale)}</Row>
        <Row label={t("recurring.cycle")}>{cycleText(plan, t)}</Row>
        <Row label={t("recurring.payments")}>{t("recurring.paymentsOf", { made: plan.charges_made, planned: plan.payment_number })}</Row>
        <Row label={t("recurring.nextCharge")}>{gatewayDate(plan.next_action_date, t, locale)}</Row>
        <Row label={t("recurring.checked")}>{formatLocalDateTime(plan.refreshed_at, locale)}</Row>
      </div>
      <div>
        <Heading level="h3">{t("recurring.charges")}</Heading>
        <ChargesTable charges={charges} currency={plan.currency_code} />
      </div>
      {active ? (
        <div className="flex flex-col gap-y-3">
          <Heading level="h3">{t("recurring.changePlan")}</Heading>
          <div className="flex items-end gap-x-2">
            <div className="flex-1">
              <Label size="small" htmlFor="plan-amount">{t("recurring.newAmount")}</Label>
              <Input id="plan-amount" size="small" inputMode="decimal" placeholder={plan.amount} value={amount} onChange={(e) => setAmount(e.target.value)} />
            </div>
            <Button size="small" variant="secondary" disabled={busy || !/^\d+(\.\d{1,2})?$/.test(amount)} onClick={() => act({ action: "change_amount", amount: Number(amount).toFixed(2) }, t("recurring.changeAmountConfirm", { next: formatAmount(amount, plan.currency_code, locale), current: formatAmount(plan.amount, plan.currency_code, locale) }))}>
              {t("recurring.changeAmount")}
            </Button>
          </div>
          <div className="flex items-end gap-x-2">
            <div className="flex-1">
              <Label size="small" htmlFor="plan-payments">{t("recurring.newPayments")}</Label>
              <Input id="plan-payments" size="small" inputMode="numeric" placeholder={String(plan.payment_number)} value={paymentNumber} onChange={(e) => setPaymentNumber(e.target.value)} />
            </div>
            <Button size="small" variant="secondary" disabled={busy || !/^\d+$/.test(paymentNumber)} onClick={() => act({ action: "change_payment_number", payment_number: Number(paymentNumber) }, t("recurring.changePaymentsConfirm", { next: paymentNumber, current: plan.payment_number }))}>
              {t("recurring.changePayments")}
            </Button>
          </div>
          <Button size="small" variant="danger" disabled={busy} onClick={() => act({ action: "stop" }, t("recurring.stopConfirm"))}>
            {t("recurring.stop")}
          </Button>
        </div>
      ) : null}
      {plan.history.length ? (
        <div>
          <Heading level="h3">{t("recurring.history")}</Heading>
          {plan.history.map((entry) => (
            <Text key={entry.at + entry.action} size="xsmall" className="text-ui-fg-subtle">
              {t(entry.outcome === "done" ? "recurring.historyDone" : "recurring.historyRefused", { at: formatLocalDateTime(entry.at, locale), action: actionText(entry.action, t), value: entry.value === null ? "" : ` ${entry.value}`, message: entry.message ?? "" })}
            </Text>
          ))}
        </div>
      ) : null}
    </div>
  )
}
