import { createWorkflow, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import type { PlanAction } from "../../lib/recurring-plans/facts"
import { changeRecurringPlanStep, recordRecurringPlanStep, refreshRecurringPlanStep } from "./steps"

/** When an order's recurring first payment settled: its plan recorded once. */
export const recordRecurringPlanWorkflow = createWorkflow("sipay-record-recurring-plan", (input: { order_id: string }) => {
  return new WorkflowResponse(recordRecurringPlanStep(input))
})

/** The plan record brought up to the gateway's facts, with the gateway's charges and attempts. */
export const refreshRecurringPlanWorkflow = createWorkflow("sipay-refresh-recurring-plan", (input: { id?: string; plan_code?: string }) => {
  return new WorkflowResponse(refreshRecurringPlanStep(input))
})

/** An admin's change to a plan at the gateway (stop, amount, number of payments), logged, then the record refreshed. */
export const changeRecurringPlanWorkflow = createWorkflow(
  "sipay-change-recurring-plan",
  (input: { id: string; change: PlanAction; actor_id?: string | null }) => {
    const changed = changeRecurringPlanStep(input)
    const refreshed = refreshRecurringPlanStep({ id: input.id })
    return new WorkflowResponse({ changed, refreshed })
  }
)
