import { parseAmount } from "../core/amounts"
import { CODES, fail, optionalField, requireField } from "../core/codes"
import type { Gateway } from "../core/gateway"
import { envelope, type Reply } from "../http/io"
import type { RequestContext } from "../http/router"
import { recurringPlanFields } from "../recurring/view"
import type { RecurringPlan } from "../types"
import { requestMerchant } from "./merchant-request"

const STOP_VALUES = ["0", "stop", "stopped", "cancel", "cancelled", "passive"]
const ACTIVE_VALUES = ["1", "active"]

function findPlan(ctx: RequestContext, gateway: Gateway, failure: number): RecurringPlan {
  const merchant = requestMerchant(ctx, gateway)
  const planCode = requireField(ctx.body, "plan_code")
  const plan = gateway.store.state.recurring_plans.find((p) => p.merchant_key === merchant.merchant_key && p.plan_code === planCode)
  if (!plan) fail(failure, "Recurring plan not found.")
  return plan
}

/** POST /api/recurringPlan/query: merchant_key, plan_code, recurring_number? (narrows transactionHistories). */
export function queryRecurringPlan(ctx: RequestContext, gateway: Gateway): Reply {
  const plan = findPlan(ctx, gateway, CODES.TRANSACTION_NOT_FOUND)
  const numberText = optionalField(ctx.body, "recurring_number")
  if (numberText && !/^\d+$/.test(numberText)) fail(CODES.VALIDATION, "The recurring_number must be an integer.")
  // At the top level, as the official modules and sipay-node read it (docs/sandbox.md, Recurring payments).
  return envelope(CODES.SUCCESS, "Success", { message: "Success", ...recurringPlanFields(gateway, plan, numberText ? Number(numberText) : null) })
}

/** POST /api/recurringPlan/update: stop the plan, change the amount of later charges or their number; 71 when refused. */
export function updateRecurringPlan(ctx: RequestContext, gateway: Gateway): Reply {
  const plan = findPlan(ctx, gateway, CODES.RECURRING_UPDATE_FAILED)
  const refuse = (why: string): never => fail(CODES.RECURRING_UPDATE_FAILED, `Recurring plan update failed: ${why}`)
  const amountText = optionalField(ctx.body, "recurring_amount")
  const statusText = optionalField(ctx.body, "recurring_status").toLowerCase()
  const numberText = optionalField(ctx.body, "recurring_payment_number")
  if (!amountText && !statusText && !numberText) refuse("nothing to update (recurring_amount, recurring_status or recurring_payment_number).")
  if (plan.status !== "Active") refuse(`the plan is ${plan.status.toLowerCase()}.`)
  const amount = amountText ? parseAmount(amountText) : null
  if (amountText && (amount === null || amount === 0)) refuse("the recurring_amount must be a positive amount.")
  if (statusText && !STOP_VALUES.includes(statusText) && !ACTIVE_VALUES.includes(statusText)) refuse("the recurring_status must be 0 (stop) or 1 (active).")
  if (numberText && (!/^\d+$/.test(numberText) || Number(numberText) < plan.charges.length || Number(numberText) < 1)) {
    refuse(`the recurring_payment_number must be an integer of at least ${Math.max(plan.charges.length, 1)} (charges made).`)
  }
  if (amount !== null) plan.amount_minor = amount
  if (numberText) plan.payment_number = Number(numberText)
  if (plan.charges.length >= plan.payment_number) plan.status = "Completed"
  if (STOP_VALUES.includes(statusText)) plan.status = "Stopped"
  plan.updated_at_ms = gateway.clock.now()
  gateway.store.save()
  // sipay-node's RecurringPlanUpdateResponse is {status_code, message}; the plan follows at the top level.
  return envelope(CODES.SUCCESS, "Recurring plan updated", { message: "Recurring plan updated", ...recurringPlanFields(gateway, plan) })
}
