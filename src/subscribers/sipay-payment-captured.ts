import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import { ContainerRegistrationKeys, Modules, PaymentEvents } from "@medusajs/framework/utils"
import { SIPAY_MODULE } from "../modules/sipay"
import type SipayModuleService from "../modules/sipay/service"
import { SIPAY_PROVIDER } from "../providers/sipay/utils/provider-ids"
import { mayOpenPlan, recordPlanOfCollection } from "../workflows/recurring-plans/trigger"

/**
 * A Sipay payment captured in Medusa (a sale as it is authorized, a pre-authorization later, full
 * or partial). Its attempt, read once, serves both consequences: a pre-authorization's attempt is
 * paid at once, and a recurring first payment gets its plan recorded (the gateway opens a plan once
 * the money is taken).
 */
export default async function sipayPaymentCapturedHandler({ event, container }: SubscriberArgs<{ id: string }>) {
  const [payment] = await container.resolve(Modules.PAYMENT).listPayments({ id: event.data.id })
  if (!payment || !SIPAY_PROVIDER.test(payment.provider_id)) {
    return
  }
  const sipay = container.resolve<SipayModuleService>(SIPAY_MODULE)
  const invoiceId = (payment.data as Record<string, unknown> | null)?.invoice_id
  const [attempt] = typeof invoiceId === "string" ? await sipay.listPaymentAttempts({ invoice_id: invoiceId }, { select: ["id", "status", "metadata"] }) : []
  if (attempt?.status === "authorized") {
    await sipay.updatePaymentAttempts({ id: attempt.id, status: "paid" })
  }
  if (attempt && !mayOpenPlan([attempt as { metadata?: Record<string, unknown> | null }])) {
    return
  }
  try {
    await recordPlanOfCollection(container, payment.payment_collection_id)
  } catch (error) {
    container.resolve(ContainerRegistrationKeys.LOGGER).warn(`Sipay recurring plan (${event.name}): ${(error as Error).message}`)
  }
}

export const config: SubscriberConfig = {
  event: PaymentEvents.CAPTURED,
}
