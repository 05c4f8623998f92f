import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import { ContainerRegistrationKeys, Modules, OrderWorkflowEvents, PaymentEvents } from "@medusajs/framework/utils"
import { RECURRING_CHARGE_RECORDED_EVENT } from "../workflows/record-recurring-charge"
import { recordRecurringPlanWorkflow, refreshRecurringPlanWorkflow } from "../workflows/recurring-plans"

const SIPAY_PROVIDER = /^pp_sipay(-2d)?_/

async function orderOfPayment(container: SubscriberArgs["container"], paymentId: string): Promise<string | null> {
  const [payment] = await container.resolve(Modules.PAYMENT).listPayments({ id: paymentId })
  if (!payment || !SIPAY_PROVIDER.test(payment.provider_id)) return null
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({ entity: "payment_collection", fields: ["order.id"], filters: { id: payment.payment_collection_id } })
  return ((data[0] as { order?: { id?: string } } | undefined)?.order?.id as string | undefined) ?? null
}

/**
 * A recurring plan is recorded when its first payment settled: the order placed (a charge taken at
 * once) or its pre-authorization captured (the gateway opens the plan then). Each recorded charge
 * brings the plan's record up to the gateway's facts (charges made, next date, status).
 */
export default async function sipayRecurringPlansHandler({ event, container }: SubscriberArgs<Record<string, any>>) {
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
  try {
    if (event.name === RECURRING_CHARGE_RECORDED_EVENT) {
      await refreshRecurringPlanWorkflow(container).run({ input: { plan_code: String(event.data.plan_code) } })
      return
    }
    const orderId = event.name === PaymentEvents.CAPTURED ? await orderOfPayment(container, String(event.data.id)) : String(event.data.id)
    if (orderId) await recordRecurringPlanWorkflow(container).run({ input: { order_id: orderId } })
  } catch (error) {
    logger.warn(`Sipay recurring plan (${event.name}): ${(error as Error).message}`)
  }
}

export const config: SubscriberConfig = {
  event: [OrderWorkflowEvents.PLACED, PaymentEvents.CAPTURED, RECURRING_CHARGE_RECORDED_EVENT],
}
