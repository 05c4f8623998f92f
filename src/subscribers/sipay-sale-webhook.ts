import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import { PaymentWebhookEvents } from "@medusajs/framework/utils"
import { SIPAY_MODULE } from "../modules/sipay"
import type SipayModuleService from "../modules/sipay/service"
import { parseInvoiceId } from "../providers/sipay/utils/session-data"
import { webhookFields } from "../lib/sipay"
import { settlePaymentAttemptWorkflow } from "../workflows/settle-payment-attempt"

type WebhookEvent = { provider: string; payload: { data?: unknown; rawData?: unknown } }

/**
 * Medusa's core handles a paid sale webhook (authorize, complete the cart) but ignores failures.
 * This records every verified outcome on its attempt, and gives back a payment that must not
 * become an order. A webhook whose hash does not verify changes nothing.
 */
export default async function sipaySaleWebhookHandler({ event, container }: SubscriberArgs<WebhookEvent>) {
  if (event.data?.provider !== "sipay_sipay") {
    return
  }
  const logger = container.resolve("logger")
  const sipay = container.resolve<SipayModuleService>(SIPAY_MODULE)
  const verified = sipay.getClient().verifyResult(webhookFields(event.data.payload))
  if (!verified || !parseInvoiceId(verified.invoiceId)) {
    logger.warn("Sipay sale webhook ignored: its result hash does not verify or the invoice is not this store's")
    return
  }
  const [attempt] = await sipay.listPaymentAttempts({ invoice_id: verified.invoiceId })
  if (!attempt) {
    logger.warn(`Sipay sale webhook for unknown attempt ${verified.invoiceId} ignored`)
    return
  }
  await settlePaymentAttemptWorkflow(container).run({
    input: {
      invoice_id: verified.invoiceId,
      reported: { masked_card: verified.maskedCardNumber, error_code: verified.errorCode, error: verified.error },
    },
  })
}

export const config: SubscriberConfig = {
  event: PaymentWebhookEvents.WebhookReceived,
}
