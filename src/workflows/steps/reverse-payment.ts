import { SipayClient, TransactionStatus, fromMinorUnits, toMinorUnits } from "../../lib/sipay"
import { classifyTransaction } from "../../lib/sipay/outcome"

/**
 * Gives back a payment that must not become an order (a form paid after the cart changed, a second
 * tab paid after the first): a captured payment is refunded in full, a pre-authorization cancelled.
 * Safe to run twice: the gateway's own state says what is left to give back.
 */
export async function reverseGatewayPayment(
  client: SipayClient,
  invoiceId: string,
  transaction: TransactionStatus
): Promise<"refunded" | "cancelled" | "nothing_to_reverse"> {
  const outcome = classifyTransaction(transaction)
  if (outcome === "authorized") {
    await client.confirmPayment(invoiceId, "cancel", transaction.productPrice ?? transaction.transactionAmount ?? "0")
    return "cancelled"
  }
  if (outcome !== "captured") {
    return "nothing_to_reverse"
  }
  const captured = toMinorUnits(transaction.transactionAmount ?? transaction.productPrice ?? "0")
  const left = captured - toMinorUnits(transaction.totalRefundedAmount ?? "0")
  if (left <= 0n) {
    return "refunded"
  }
  try {
    // One reversal per invoice: a second try is refused (104) and then confirmed below.
    await client.refund(invoiceId, fromMinorUnits(left), { refundTransactionId: `rev_${invoiceId}`.slice(0, 64) })
  } catch (error) {
    const after = await client.checkStatus(invoiceId)
    if (toMinorUnits(after.totalRefundedAmount ?? "0") < captured) {
      throw error
    }
  }
  return "refunded"
}
