import { MedusaError } from "@medusajs/framework/utils"
import { classifyTransaction } from "../../../lib/sipay/outcome"
import { fromMinorUnits, toMinorUnits, type SipayClient, type TransactionStatus } from "../../../lib/sipay"
import { REFUND_ID_REUSED_CODE } from "../../../lib/sipay/status-codes"
import { isSipayError } from "../../../lib/sipay/errors"
import { isRecordedRefund, refundTransactionIdFor } from "../../../lib/refunds/recorded-refund"
import type { SipaySessionData } from "../utils/session-data"

export type RefundDatabase = { raw(sql: string, bindings?: readonly unknown[]): Promise<any> }

/** The refund Medusa created for this call (its id is the idempotency key), and what the payment's other refunds add up to. */
export type RefundRow = { metadata: unknown; refundedBeforeMinor: bigint; refundedOthersMinor: bigint }

/**
 * Medusa creates (and commits) the refund row before it calls the provider, so the provider reads the
 * intent from it: a refund the ledger records carries the server's mark (lib/refunds/recorded-refund.ts).
 * A refund whose row cannot be read is refused, never sent on a guess.
 */
export async function readRefundRow(db: RefundDatabase, refundId: string | undefined): Promise<RefundRow> {
  if (!refundId) {
    throw new MedusaError(MedusaError.Types.UNEXPECTED_STATE, "Sipay refund: Medusa gave no refund id; nothing was sent")
  }
  const result = await db.raw(
    `SELECT r.metadata,
       (SELECT coalesce(sum(o.amount), 0) FROM refund o WHERE o.payment_id = r.payment_id AND o.deleted_at IS NULL AND o.id <> r.id AND (o.created_at, o.id) < (r.created_at, r.id))::text AS refunded_before,
       (SELECT coalesce(sum(o.amount), 0) FROM refund o WHERE o.payment_id = r.payment_id AND o.deleted_at IS NULL AND o.id <> r.id)::text AS refunded_others
     FROM refund r WHERE r.id = ? AND r.deleted_at IS NULL`,
    [refundId]
  )
  const row = (Array.isArray(result) ? result : result?.rows ?? [])[0]
  if (!row) {
    throw new MedusaError(MedusaError.Types.UNEXPECTED_STATE, `Sipay refund: Medusa's refund ${refundId} cannot be read; nothing was sent`)
  }
  return { metadata: row.metadata, refundedBeforeMinor: toMinorUnits(row.refunded_before), refundedOthersMinor: toMinorUnits(row.refunded_others) }
}

type RefundInput = {
  client: SipayClient
  appSecret: string
  session: SipaySessionData & { invoice_id: string }
  requestedMinor: bigint
  row: RefundRow
  checkStatus: (invoiceId: string) => Promise<TransactionStatus>
}

const refundedAt = (transaction: TransactionStatus) => toMinorUnits(transaction.totalRefundedAmount ?? "0")

/**
 * A refund the gateway already made (the merchant panel), recorded in Medusa: one checkstatus of the
 * sale's own invoice and never a refund call. Refused when the gateway does not show the money back.
 */
async function recordGatewayRefund({ session, requestedMinor, row, checkStatus }: RefundInput): Promise<SipaySessionData> {
  const gatewayRefunded = refundedAt(await checkStatus(session.invoice_id))
  const recorded = row.refundedOthersMinor + requestedMinor
  if (gatewayRefunded < recorded) {
    throw new MedusaError(
      MedusaError.Types.NOT_ALLOWED,
      `Sipay: the gateway shows ${fromMinorUnits(gatewayRefunded)} refunded for sale ${session.invoice_id}; recording ${fromMinorUnits(requestedMinor)} more would exceed it (nothing recorded, nothing sent)`
    )
  }
  return { ...session, refunded_amount: fromMinorUnits(recorded) }
}

/**
 * A refund asked for in Medusa (the admin, an order cancel), sent to the gateway with a
 * refund_transaction_id derived from the refund itself: a retry of the same refund after a lost
 * answer is refused as reused (104) and confirmed by the gateway's refunded total; any other refund,
 * one asked for after a refund made in the panel included, goes out. When less is left at the
 * gateway than asked for, and refunds Medusa has not recorded yet (the panel's, a lost answer's)
 * make up the difference, only what is left is sent: the card gets back what was asked, once.
 */
async function sendRefund({ client, appSecret, session, requestedMinor, row, checkStatus }: RefundInput): Promise<SipaySessionData> {
  const before = await checkStatus(session.invoice_id)
  if (classifyTransaction(before) !== "captured") {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, "Only a captured payment can be refunded; cancel a pre-authorization instead")
  }
  const recordedTotal = fromMinorUnits(row.refundedOthersMinor + requestedMinor)
  const left = toMinorUnits(before.transactionAmount ?? session.captured_amount ?? session.amount) - refundedAt(before)
  const unrecorded = refundedAt(before) - row.refundedOthersMinor
  const toSend = requestedMinor > left && unrecorded > 0n && left + unrecorded >= requestedMinor ? left : requestedMinor
  if (toSend <= 0n) {
    return { ...session, refunded_amount: recordedTotal }
  }
  const refundTransactionId = refundTransactionIdFor(appSecret, session.invoice_id, row.refundedBeforeMinor, toSend)
  try {
    await client.refund(session.invoice_id, fromMinorUnits(toSend), { refundTransactionId })
  } catch (error) {
    const after = refundedAt(await checkStatus(session.invoice_id))
    const reused = isSipayError(error) && error.statusCode === REFUND_ID_REUSED_CODE
    // Reused: an earlier try of this very refund reached the gateway. Otherwise the answer may have been lost after it did.
    const done = reused ? after >= row.refundedBeforeMinor + toSend : after >= refundedAt(before) + toSend
    if (!done) {
      if (toSend > left) {
        throw new MedusaError(MedusaError.Types.INVALID_DATA, `A refund of ${fromMinorUnits(requestedMinor)} exceeds what is left to refund (${fromMinorUnits(left)} ${session.currency_code})`)
      }
      throw error
    }
  }
  return { ...session, refunded_amount: recordedTotal }
}

/** refundPayment: record what the gateway already refunded when the server marked the refund so, else send it. */
export function refundPaymentAtGateway(input: RefundInput): Promise<SipaySessionData> {
  return isRecordedRefund(input.appSecret, input.row.metadata, input.session.invoice_id, input.requestedMinor) ? recordGatewayRefund(input) : sendRefund(input)
}
