import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import { ContainerRegistrationKeys, Modules, OrderWorkflowEvents, PaymentEvents } from "@medusajs/framework/utils"
import { SIPAY_MODULE } from "../modules/sipay"
import type SipayModuleService from "../modules/sipay/service"
import { RECURRING_CHARGE_RECORDED_EVENT } from "../workflows/record-recurring-charge"
import { recordRecurringPlanWorkflow, refreshRecurringPlanWorkflow } from "../workflows/recurring-plans"

const SIPAY_PROVIDER = /^pp_sipay(-2d)?_/

type Container = SubscriberArgs["container"]
type AttemptFlags = { metadata?: Record<string, unknown> | null }

/**
 * Only an attempt made for a recurring product can open a plan: an ordinary order costs two small
 * reads here instead of the plan workflow. An attempt recorded before the flag existed counts as
 * one that may (the workflow decides, as it always did).
 */
const mayOpenPlan = (attempts: AttemptFlags[]) => attempts.some((attempt) => attempt.metadata?.recurring !== false)

async function placedOrderMayOpenPlan(container: Container, orderId: string): Promise<boolean> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({ entity: "order_cart", fields: ["cart_id"], filters: { order_id: orderId } })
  const cartId = (data[0] as { cart_id?: string } | undefined)?.cart_id
  if (!cartId) return false // no cart (a draft order): not paid through an attempt
  const attempts = await container.resolve<SipayModuleService>(SIPAY_MODULE).listPaymentAttempts({ cart_id: cartId }, { select: ["metadata"] })
  return mayOpenPlan(attempts as AttemptFlags[])
}

/** The order of a captured Sipay payment whose attempt may open a plan, else null. */
async function orderOfCapture(container: Container, paymentId: string): Promise<string | null> {
  const [payment] = await container.resolve(Modules.PAYMENT).listPayments({ id: paymentId })
  if (!payment || !SIPAY_PROVIDER.test(payment.provider_id)) return null
  const invoiceId = (payment.data as Record<string, unknown> | null)?.invoice_id
  if (typeof invoiceId === "string") {
    const attempts = await container.resolve<SipayModuleService>(SIPAY_MODULE).listPaymentAttempts({ invoice_id: invoiceId }, { select: ["metadata"] })
    if (attempts.length && !mayOpenPlan(attempts as AttemptFlags[])) return null
  }
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
    const orderId =
      event.name === PaymentEvents.CAPTURED
        ? await orderOfCapture(container, String(event.data.id))
        : (await placedOrderMayOpenPlan(container, String(event.data.id)))
          ? String(event.data.id)
          : null
    if (orderId) await recordRecurringPlanWorkflow(container).run({ input: { order_id: orderId } })
  } catch (error) {
    logger.warn(`Sipay recurring plan (${event.name}): ${(error as Error).message}`)
  }
}

export const config: SubscriberConfig = {
  event: [OrderWorkflowEvents.PLACED, PaymentEvents.CAPTURED, RECURRING_CHARGE_RECORDED_EVENT],
}
