import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import { PaymentWebhookEvents } from "@medusajs/framework/utils"
import { SIPAY_MODULE } from "../modules/sipay"
import type SipayModuleService from "../modules/sipay/service"
import { parseInvoiceId } from "../providers/sipay/utils/session-data"
import { webhookFields } from "../lib/sipay"
import { settlePaymentAttemptWorkflow } from "../workflows/settle-payment-attempt"

type WebhookEvent = { provider: string; payload: { data?: unknown; rawData?: unknown } }

/**
 * The one handler of the gateway's sale webhook (the provider answers Medusa's own webhook flow
 * `not_supported`, see getWebhookActionAndData): every verified outcome is settled on its attempt
 * on the gateway's word: paid -> the cart becomes an order, failed -> recorded, paid but no longer
 * wanted -> given back. A webhook whose hash does not verify changes nothing.
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
      reported: { masked_card: verified.maskedCardNumber, error_code: verified.errorCode, error: verified.error, status: verified.status },
    },
  })
}

export const config: SubscriberConfig = {
  event: PaymentWebhookEvents.WebhookReceived,
}
