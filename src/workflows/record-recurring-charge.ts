import { emitEventStep } from "@medusajs/medusa/core-flows"
import { createWorkflow, transform, when, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { RecurringNotification, recordRecurringChargeStep } from "./steps/record-recurring-charge"

export const RECURRING_CHARGE_RECORDED_EVENT = "sipay.recurring_charge.recorded"

/** A recurring webhook triggers reading the charge from the gateway: recorded once as the gateway reports it (a later try updates it), each change announced. */
export const recordRecurringChargeWorkflow = createWorkflow("sipay-record-recurring-charge", (input: RecurringNotification) => {
  const recorded = recordRecurringChargeStep(input)
  when({ recorded }, ({ recorded }) => recorded.changed).then(() => {
    emitEventStep({
      eventName: RECURRING_CHARGE_RECORDED_EVENT,
      data: transform({ recorded }, ({ recorded }) => ({
        id: recorded.charge.id,
        plan_code: recorded.charge.plan_code,
        recurring_number: recorded.charge.recurring_number,
        order_id: recorded.charge.order_id,
        status: recorded.charge.status,
        attempts: recorded.charge.attempts,
      })),
    })
  })
  return new WorkflowResponse(recorded)
})
