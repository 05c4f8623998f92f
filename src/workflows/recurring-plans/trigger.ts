import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { SIPAY_MODULE } from "../../modules/sipay"
import type SipayModuleService from "../../modules/sipay/service"
import { recordRecurringPlanWorkflow } from "./index"

type AttemptFlags = { metadata?: Record<string, unknown> | null }

/**
 * Only an attempt made for a recurring product can open a plan (`metadata.recurring`, set when it
 * starts), so an ordinary order is passed over without the plan workflow. An attempt recorded before
 * the flag existed counts as one that may: the workflow decides, as it always did.
 */
export const mayOpenPlan = (attempts: AttemptFlags[]) => attempts.some((attempt) => attempt.metadata?.recurring !== false)

/** Whether a placed order was paid through an attempt that may open a plan (two small reads). */
export async function placedOrderMayOpenPlan(container: MedusaContainer, orderId: string): Promise<boolean> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({ entity: "order_cart", fields: ["cart_id"], filters: { order_id: orderId } })
  const cartId = (data[0] as { cart_id?: string } | undefined)?.cart_id
  if (!cartId) return false // no cart (a draft order): not paid through an attempt
  const attempts = await container.resolve<SipayModuleService>(SIPAY_MODULE).listPaymentAttempts({ cart_id: cartId }, { select: ["metadata"] })
  return mayOpenPlan(attempts as AttemptFlags[])
}

/** The plan of the order that a payment collection paid, recorded once (nothing without a recurring first payment). */
export async function recordPlanOfCollection(container: MedusaContainer, paymentCollectionId: string): Promise<void> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({ entity: "payment_collection", fields: ["order.id"], filters: { id: paymentCollectionId } })
  const orderId = (data[0] as { order?: { id?: string } } | undefined)?.order?.id
  if (orderId) await recordRecurringPlanWorkflow(container).run({ input: { order_id: orderId } })
}
