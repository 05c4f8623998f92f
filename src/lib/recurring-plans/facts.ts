import { formatAmountOrNull } from "../sipay/amount"
import type { RecurringPlan } from "../sipay"

/** What a plan record keeps of the gateway's answer to recurringPlan/query (or /update). */
export type GatewayPlanFacts = {
  status?: string
  amount?: string
  payment_number?: number
  charges_made?: number
  next_action_date: string | null
}

const STATUS_WORDS: Record<string, string> = {
  active: "Active",
  "1": "Active",
  stopped: "Stopped",
  stop: "Stopped",
  passive: "Stopped",
  cancelled: "Stopped",
  "0": "Stopped",
  completed: "Completed",
  finished: "Completed",
}

/** The plan's status in the admin's words: Active, Stopped or Completed (another gateway word is kept as sent). */
export function planStatus(value: unknown): string | undefined {
  if (value === null || value === undefined || value === "") return undefined
  const word = String(value).trim()
  return STATUS_WORDS[word.toLowerCase()] ?? word
}

function positiveInteger(value: unknown): number | undefined {
  const number = Number(value)
  return Number.isInteger(number) && number > 0 ? number : undefined
}

/** The record's gateway facts from a full (not narrowed) plan answer; a field the answer lacks is left as recorded. */
export function planFactsOf(plan: RecurringPlan): GatewayPlanFacts {
  const fields = plan.plan ?? {}
  const completed = plan.charges.filter((charge) => charge.status === "Completed").length
  const status = planStatus(plan.recurringStatus)
  return {
    ...(status ? { status } : {}),
    ...(formatAmountOrNull(fields.recurring_amount) ? { amount: formatAmountOrNull(fields.recurring_amount)! } : {}),
    ...(positiveInteger(fields.payment_number) ? { payment_number: positiveInteger(fields.payment_number) } : {}),
    ...(completed > 0 ? { charges_made: completed } : {}),
    // A plan that will not charge again has no next date, whatever the answer says.
    next_action_date: status === "Stopped" || status === "Completed" ? null : plan.nextActionDate,
  }
}

export type PlanAction =
  | { action: "stop" }
  | { action: "change_amount"; amount: string }
  | { action: "change_payment_number"; payment_number: number }

/** One line of a plan's admin log. */
export type PlanHistoryEntry = { at: string; actor: string | null; action: PlanAction["action"]; value: string | number | null; outcome: "done" | "refused"; message?: string }

export function actionValue(action: PlanAction): string | number | null {
  return action.action === "change_amount" ? action.amount : action.action === "change_payment_number" ? action.payment_number : null
}

/** A plan record as the admin and store APIs show it (the admin also sees the action log). */
export function planView(record: Record<string, any>, audience: "admin" | "customer" = "admin") {
  const view = {
    id: record.id,
    plan_code: record.plan_code,
    order_id: record.order_id ?? null,
    customer_id: record.customer_id ?? null,
    email: record.email ?? null,
    amount: formatAmountOrNull(record.amount) ?? String(record.amount),
    currency_code: record.currency_code,
    cycle: record.cycle,
    interval: record.interval,
    payment_number: record.payment_number,
    charges_made: record.charges_made,
    status: record.status,
    next_action_date: record.next_action_date ?? null,
    refreshed_at: record.refreshed_at ?? null,
    created_at: record.created_at ?? null,
  }
  return audience === "admin" ? { ...view, invoice_id: record.invoice_id, history: record.history?.entries ?? [] } : view
}
