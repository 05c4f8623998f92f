import { Alert, Button, Heading, Input, Label, StatusBadge, Table, Text, toast, usePrompt } from "@medusajs/ui"
import { useCallback, useEffect, useState } from "react"
import { adminRequest, formatDateTime, formatMoney } from "../../lib/admin-api"

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

const CYCLES: Record<string, [string, string]> = { D: ["day", "days"], M: ["month", "months"], Y: ["year", "years"] }

export function cycleText(plan: Pick<RecurringPlan, "cycle" | "interval">): string {
  const [one, many] = CYCLES[plan.cycle] ?? [plan.cycle, plan.cycle]
  return plan.interval === 1 ? `Every ${one}` : `Every ${plan.interval} ${many}`
}

export function PlanStatus({ status }: { status: string }) {
  const color = status === "Active" ? "green" : status === "Stopped" ? "red" : "grey"
  return <StatusBadge color={color}>{status}</StatusBadge>
}

/** The gateway's dates are Istanbul time. */
export function gatewayDate(value: string | null): string {
  return value ? `${value} (Istanbul)` : "-"
}

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="grid grid-cols-[160px_1fr] gap-x-4 py-1">
      <Text size="small" className="text-ui-fg-subtle">{label}</Text>
      <div className="txt-compact-small text-ui-fg-base">{children}</div>
    </div>
  )
}

const ACTION_TEXT: Record<string, string> = { stop: "Stop", change_amount: "Change amount", change_payment_number: "Change number of payments" }

/**
 * One plan: its record, the gateway's charges and attempts (asked when opened), and the actions the
 * gateway offers, each confirmed first; a refusal shows the gateway's reason.
 */
export function PlanPanel({ planId, onChanged }: { planId: string; onChanged?: (plan: RecurringPlan) => void }) {
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
    const confirmed = await prompt({ title: `${ACTION_TEXT[String(body.action)]}?`, description, confirmText: "Confirm", cancelText: "Cancel" })
    if (!confirmed) return
    setBusy(true)
    try {
      const answer = await adminRequest<{ recurring_plan: RecurringPlan; charges: RecurringCharge[] }>(`/admin/sipay/recurring-plans/${encodeURIComponent(planId)}`, { method: "POST", json: body })
      setPlan(answer.recurring_plan)
      setCharges(answer.charges)
      setAmount("")
      setPaymentNumber("")
      toast.success("Plan updated at the gateway")
      onChanged?.(answer.recurring_plan)
    } catch (failure) {
      toast.error("Not changed", { description: (failure as Error).message })
      await load()
    } finally {
      setBusy(false)
    }
  }

  if (error) return <Alert variant="error">{error}</Alert>
  if (!plan) return <Text size="small">Loading…</Text>
  const active = plan.status === "Active"
  return (
    <div className="flex flex-col gap-y-4" data-testid="recurring-plan-panel">
      <div>
        <Row label="Status"><PlanStatus status={plan.status} /></Row>
        <Row label="Plan code">{plan.plan_code}</Row>
        <Row label="Customer">{plan.email ?? plan.customer_id ?? "-"}</Row>
        <Row label="Order">{plan.order_id ? <a className="text-ui-fg-interactive" href={`/app/orders/${plan.order_id}`}>{plan.order_id}</a> : "-"}</Row>
        <Row label="Amount">{formatMoney(plan.amount, plan.currency_code)}</Row>
        <Row label="Cycle">{cycleText(plan)}</Row>
        <Row label="Payments">{`${plan.charges_made} of ${plan.payment_number}`}</Row>
        <Row label="Next charge">{gatewayDate(plan.next_action_date)}</Row>
        <Row label="Checked">{formatDateTime(plan.refreshed_at)}</Row>
      </div>
      <div>
        <Heading level="h3">Charges at the gateway</Heading>
        <Table>
          <Table.Header>
            <Table.Row>
              <Table.HeaderCell>#</Table.HeaderCell>
              <Table.HeaderCell>Date</Table.HeaderCell>
              <Table.HeaderCell>Amount</Table.HeaderCell>
              <Table.HeaderCell>Status</Table.HeaderCell>
              <Table.HeaderCell>Attempts</Table.HeaderCell>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {charges.map((charge) => (
              <Table.Row key={String(charge.recurringNumber)}>
                <Table.Cell>{charge.recurringNumber ?? "-"}</Table.Cell>
                <Table.Cell>{gatewayDate(charge.actionDate)}</Table.Cell>
                <Table.Cell>{formatMoney(charge.amount, plan.currency_code)}</Table.Cell>
                <Table.Cell>
                  <StatusBadge color={charge.status === "Completed" ? "green" : "red"}>{charge.status ?? charge.gatewayStatus ?? "-"}</StatusBadge>
                  {charge.remarks ? <Text size="xsmall" className="text-ui-fg-subtle">{charge.remarks}</Text> : null}
                </Table.Cell>
                <Table.Cell>{charge.attempts ?? "-"}</Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table>
      </div>
      {active ? (
        <div className="flex flex-col gap-y-3">
          <Heading level="h3">Change the plan</Heading>
          <div className="flex items-end gap-x-2">
            <div className="flex-1">
              <Label size="small" htmlFor="plan-amount">New amount of later charges</Label>
              <Input id="plan-amount" size="small" inputMode="decimal" placeholder={plan.amount} value={amount} onChange={(e) => setAmount(e.target.value)} />
            </div>
            <Button size="small" variant="secondary" disabled={busy || !/^\d+(\.\d{1,2})?$/.test(amount)} onClick={() => act({ action: "change_amount", amount: Number(amount).toFixed(2) }, `Later charges will be ${formatMoney(amount, plan.currency_code)} instead of ${formatMoney(plan.amount, plan.currency_code)}.`)}>
              Change amount
            </Button>
          </div>
          <div className="flex items-end gap-x-2">
            <div className="flex-1">
              <Label size="small" htmlFor="plan-payments">New number of payments (first included)</Label>
              <Input id="plan-payments" size="small" inputMode="numeric" placeholder={String(plan.payment_number)} value={paymentNumber} onChange={(e) => setPaymentNumber(e.target.value)} />
            </div>
            <Button size="small" variant="secondary" disabled={busy || !/^\d+$/.test(paymentNumber)} onClick={() => act({ action: "change_payment_number", payment_number: Number(paymentNumber) }, `The plan will have ${paymentNumber} payments in all instead of ${plan.payment_number}.`)}>
              Change payments
            </Button>
          </div>
          <Button size="small" variant="danger" disabled={busy} onClick={() => act({ action: "stop" }, "The gateway will make no later charge on this plan. This cannot be undone from here.")}>
            Stop the plan
          </Button>
        </div>
      ) : null}
      {plan.history.length ? (
        <div>
          <Heading level="h3">Changes made here</Heading>
          {plan.history.map((entry) => (
            <Text key={entry.at + entry.action} size="xsmall" className="text-ui-fg-subtle">
              {`${formatDateTime(entry.at)}: ${ACTION_TEXT[entry.action] ?? entry.action}${entry.value === null ? "" : ` ${entry.value}`}, ${entry.outcome === "done" ? "done" : `refused: ${entry.message ?? ""}`}`}
            </Text>
          ))}
        </div>
      ) : null}
    </div>
  )
}
