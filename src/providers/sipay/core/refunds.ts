import { MedusaError } from "@medusajs/framework/utils"
import { classifyTransaction } from "../../../lib/sipay/outcome"
import { fromMinorUnits, toMinorUnits, type SipayClient, type TransactionStatus } from "../../../lib/sipay"
import { REFUND_ID_REUSED_CODE } from "../../../lib/sipay/status-codes"
import { isSipayError } from "../../../lib/sipay/errors"
import { isRecordedRefund, refundTransactionIdFor } from "../../../lib/refunds/recorded-refund"
import type { SipaySessionData } from "../utils/session-data"
import type { RefundRow } from "./medusa-rows"

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
