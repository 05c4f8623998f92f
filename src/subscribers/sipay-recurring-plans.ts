import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import { ContainerRegistrationKeys, OrderWorkflowEvents } from "@medusajs/framework/utils"
import { RECURRING_CHARGE_RECORDED_EVENT } from "../workflows/record-recurring-charge"
import { recordRecurringPlanWorkflow, refreshRecurringPlanWorkflow } from "../workflows/recurring-plans"
import { placedOrderMayOpenPlan } from "../workflows/recurring-plans/trigger"

/**
 * A recurring plan is recorded when its first payment settled: here when the order is placed (a
 * charge taken at once); a pre-authorization captured later is the payment-captured subscriber's.
 * Each recorded charge brings the plan's record up to the gateway's facts (charges made, next date,
 * status).
 */
export default async function sipayRecurringPlansHandler({ event, container }: SubscriberArgs<Record<string, any>>) {
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
  try {
    if (event.name === RECURRING_CHARGE_RECORDED_EVENT) {
      await refreshRecurringPlanWorkflow(container).run({ input: { plan_code: String(event.data.plan_code) } })
      return
    }
    const orderId = String(event.data.id)
    if (await placedOrderMayOpenPlan(container, orderId)) await recordRecurringPlanWorkflow(container).run({ input: { order_id: orderId } })
  } catch (error) {
    logger.warn(`Sipay recurring plan (${event.name}): ${(error as Error).message}`)
  }
}

export const config: SubscriberConfig = {
  event: [OrderWorkflowEvents.PLACED, RECURRING_CHARGE_RECORDED_EVENT],
}
