import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import { ContainerRegistrationKeys, PaymentWebhookEvents } from "@medusajs/framework/utils"
import { SIPAY_MODULE } from "../modules/sipay"
import type SipayModuleService from "../modules/sipay/service"
import { webhookFields } from "../lib/sipay"
import { dplIdOf } from "../lib/sales-report/sale-owner"
import { parseInvoiceId } from "../providers/sipay/utils/session-data"
import { settlePaymentAttemptWorkflow } from "../workflows/settle-payment-attempt"
import { settleOrderPaymentLinks } from "../workflows/order-payment-links/settle-links"
import { resolveSaleOwner } from "../workflows/sale-owner/resolve-sale-owners"
import { LedgerStore } from "../modules/sipay/ledger/store"
import { pullInvoiceIntoLedger } from "../lib/sales-report/ledger-pull"
import { gatewayDay } from "../lib/sales-report/calendar"

type WebhookEvent = { provider: string; payload: { data?: unknown; rawData?: unknown } }

/**
 * The one handler of the gateway's sale webhook (the provider answers Medusa's own webhook flow
 * `not_supported`, see getWebhookActionAndData). A webhook whose hash does not verify changes
 * nothing; a verified one acts on what its sale is to Medusa (resolveSaleOwner), on the gateway's
 * word only: one of the plugin's attempts is settled (paid -> the cart becomes an order, failed ->
 * recorded, paid but no longer wanted -> given back); a payment link's sale is looked up (that
 * invoice only) into the ledger once, and a phone order's link sale settled on one checkstatus of it.
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
    await recordLinkSale(container, verified.invoiceId)
    return
  }
  // One of the plugin's attempts: settling decides, on the gateway's word, whether it is kept or given back (resolveSaleOwner).
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

/**
 * A sale the plugin did not issue (a payment link's): that one invoice is looked up at the gateway and
 * put in the ledger, once (a replayed webhook finds it there and asks nothing); a phone order's link
 * sale is then settled on one checkstatus of it (settle-links.ts), once. The whole day is left to the
 * ledger's schedule.
 */
async function recordLinkSale(container: SubscriberArgs<WebhookEvent>["container"], invoiceId: string): Promise<void> {
  const logger = container.resolve("logger")
  const ledger = new LedgerStore(container.resolve(ContainerRegistrationKeys.PG_CONNECTION))
  if (!(await ledger.byInvoices([invoiceId])).length) {
    const today = gatewayDay(new Date())
    await pullInvoiceIntoLedger(container.resolve<SipayModuleService>(SIPAY_MODULE).getClient(), ledger, invoiceId, [today])
  }
  const owner = await resolveSaleOwner(container, { invoice_id: invoiceId })
  const dplId = dplIdOf({ invoice_id: invoiceId })
  if ("source" in owner && owner.source === "phone_order" && dplId !== null) {
    await settleOrderPaymentLinks(container, { sale: { dpl_id: dplId, invoice_id: invoiceId } })
    return
  }
  logger.info(`Sipay sale webhook for invoice ${invoiceId}: ${owner.kind === "payment_link" ? "a payment link's sale, in the ledger" : "not one of this store's attempts or phone orders"}`)
}
