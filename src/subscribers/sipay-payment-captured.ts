import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import { Modules, PaymentEvents } from "@medusajs/framework/utils"
import { SIPAY_MODULE } from "../modules/sipay"
import type SipayModuleService from "../modules/sipay/service"

const SIPAY_PROVIDERS = ["pp_sipay_sipay", "pp_sipay-2d_sipay"]

/** A pre-authorization captured in Medusa (full or partial) is paid: its attempt says so at once. */
export default async function sipayPaymentCapturedHandler({ event, container }: SubscriberArgs<{ id: string }>) {
  const [payment] = await container.resolve(Modules.PAYMENT).listPayments({ id: event.data.id })
  if (!payment || !SIPAY_PROVIDERS.includes(payment.provider_id)) {
    return
  }
  const data = (payment.data as Record<string, unknown> | null) ?? {}
  // A sale ("Auth") is captured as it is authorized: there is no pre-authorization to mark paid.
  if (typeof data.invoice_id !== "string" || data.transaction_type === "Auth") {
    return
  }
  const sipay = container.resolve<SipayModuleService>(SIPAY_MODULE)
  const [attempt] = await sipay.listPaymentAttempts({ invoice_id: data.invoice_id, status: "authorized" })
  if (attempt) {
    await sipay.updatePaymentAttempts({ id: attempt.id, status: "paid" })
  }
}

export const config: SubscriberConfig = {
  event: PaymentEvents.CAPTURED,
}
