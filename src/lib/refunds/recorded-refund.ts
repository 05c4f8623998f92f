import { macsEqual, serverMac } from "../server-mac"

/**
 * Medusa 2.21.2 records a refund only through the provider (refundPaymentWorkflow ->
 * paymentModule.refundPayment -> provider.refundPayment). A refund the gateway already made (in the
 * merchant panel) is recorded with this mark in the refund's metadata: an HMAC (key derived from the
 * app secret) over the sale's invoice id and the amount. The provider reads the refund it is called
 * for and, on a mark that verifies, records without sending anything to the gateway. Nobody else can
 * set it: the admin API takes no refund metadata, and a mark for another sale or amount does not verify.
 */
export const RECORDED_REFUND_KEY = "sipay_recorded_refund"

const PURPOSE = "medusa-plugin-sipay/recorded-refund/v1"

const payloadOf = (invoiceId: string, amountMinor: bigint) => JSON.stringify([invoiceId, amountMinor.toString()])

/** The refund metadata that asks the provider to record, not to refund. */
export function recordedRefundMetadata(appSecret: string, invoiceId: string, amountMinor: bigint): Record<string, string> {
  return { [RECORDED_REFUND_KEY]: serverMac(appSecret, PURPOSE, payloadOf(invoiceId, amountMinor)) }
}

/** True when the refund's metadata carries the server's mark for exactly this sale and amount. */
export function isRecordedRefund(appSecret: string, metadata: unknown, invoiceId: string, amountMinor: bigint): boolean {
  const mark = metadata && typeof metadata === "object" ? (metadata as Record<string, unknown>)[RECORDED_REFUND_KEY] : undefined
  return typeof mark === "string" && macsEqual(serverMac(appSecret, PURPOSE, payloadOf(invoiceId, amountMinor)), mark)
}

/**
 * The gateway's refund_transaction_id of a refund sent from Medusa: the same for a retry of the same
 * refund (same sale, same amount, same refunds recorded before it), so a retry after a lost answer is
 * refused by the gateway as a reused id (104) instead of refunding twice; different for every other
 * refund, so a refund asked for after one made in the panel is still sent.
 */
export function refundTransactionIdFor(appSecret: string, invoiceId: string, refundedBeforeMinor: bigint, amountMinor: bigint): string {
  const mac = serverMac(appSecret, `${PURPOSE}/refund-transaction-id`, JSON.stringify([invoiceId, refundedBeforeMinor.toString(), amountMinor.toString()]))
  return `rf_${mac.replace(/[^A-Za-z0-9]/g, "").slice(0, 40)}`
}
