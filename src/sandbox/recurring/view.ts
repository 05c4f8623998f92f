import { amountNumber } from "../core/amounts"
import { formatIsoMicro, formatIstanbul } from "../core/clock"
import type { RecurringPlan } from "../types"
import { nextChargeAt } from "./schedule"

/** data of recurringPlan/query and /update: the plan, and its charges (the first payment is number 1). */
export function recurringPlanView(plan: RecurringPlan, recurringNumber: number | null = null): Record<string, unknown> {
  const next = nextChargeAt(plan)
  return {
    plan_code: plan.plan_code,
    invoice_id: plan.invoice_id,
    order_id: plan.charges[0]?.order_id ?? plan.plan_code,
    currency_code: plan.currency_code,
    recurring_amount: amountNumber(plan.amount_minor),
    recurring_payment_number: plan.payment_number,
    recurring_payment_cycle: plan.cycle,
    recurring_payment_interval: plan.interval,
    recurring_status: plan.status,
    recurring_web_hook_key: plan.webhook_key,
    completed_payment_number: plan.charges.filter((charge) => charge.status === "Completed").length,
    next_action_date: next === null ? null : formatIstanbul(next),
    created_at: formatIsoMicro(plan.created_at_ms),
    updated_at: formatIsoMicro(plan.updated_at_ms),
    transactionHistories: plan.charges
      .filter((charge) => recurringNumber === null || charge.recurring_number === recurringNumber)
      .map((charge) => ({
        recurring_number: charge.recurring_number,
        sale_id: charge.sale_id,
        invoice_id: plan.invoice_id,
        order_id: charge.order_id,
        amount: amountNumber(charge.amount_minor),
        currency_code: plan.currency_code,
        status: charge.status,
        attempts: charge.attempts,
        action_date: formatIstanbul(charge.action_date_ms),
      })),
  }
}
