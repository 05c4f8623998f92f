import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import { PaymentWebhookEvents } from "@medusajs/framework/utils"
import { SIPAY_MODULE } from "../modules/sipay"
import type SipayModuleService from "../modules/sipay/service"
import { parseInvoiceId } from "../providers/sipay/utils/session-data"
import { webhookFields } from "../lib/sipay"
import { settlePaymentAttemptWorkflow } from "../workflows/settle-payment-attempt"
import { syncLedger } from "../workflows/sales-ledger/sync-ledger"
import { gatewayDay } from "../lib/sales-report/calendar"

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
  if (!verified) {
    logger.warn("Sipay sale webhook ignored: its result hash does not verify")
    return
  }
  if (!parseInvoiceId(verified.invoiceId)) {
    // A verified sale the plugin did not issue (a payment link's): today's ledger is synced at once,
    // so the link's payment is seen in seconds rather than at the next ledger job (README).
    const report = await syncLedger(container, { days: [gatewayDay(new Date())] })
    logger.info(`Sipay sale webhook for invoice ${verified.invoiceId} (not one of the plugin's attempts): today's ledger synced${report.ran ? "" : " by the run already under way"}`)
    return
  }
  const [attempt] = await sipay.listPaymentAttempts({ invoice_id: verified.invoiceId })
  if (!attempt) {
    logger.warn(`Sipay sale webhook for unknown attempt ${verified.invoiceId} ignored`)
    return
  }
  // Settled on the gateway's word already (the return or the direct answer placed its order) and the
  // webhook reports the same payment: nothing it says could change anything, so the gateway is not
  // asked again. Any other report (a failure, a card not yet recorded) is settled as below.
  const settled = attempt.status === "paid" || (attempt.status === "authorized" && attempt.transaction_type === "PreAuth")
  if (attempt.order_id && settled && verified.status === "1" && (attempt.masked_card || !verified.maskedCardNumber)) {
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
