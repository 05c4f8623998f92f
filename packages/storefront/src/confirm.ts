import { shopperMessage, waitForPaymentOutcome, type DirectPaymentResult, type Locale, type SdkLike, type SessionHeaders } from "./index"

/** A direct payment whose answer timed out, as the status route ends it: paid, failed, or still confirming after `timeoutMs`. */
export async function confirmDirectPayment(
  sdk: SdkLike,
  input: { sessionId: string; cartId: string; locale?: Locale; headers?: SessionHeaders; timeoutMs?: number }
): Promise<DirectPaymentResult> {
  const outcome = input.timeoutMs === 0 ? null : await waitForPaymentOutcome(sdk, input)
  if (outcome?.status === "paid" && outcome.order_id) {
    return { status: "paid", order_id: outcome.order_id, cart_id: input.cartId, session_id: input.sessionId }
  }
  if (outcome?.status === "failed") {
    return { status: "failed", code: outcome.code, message: outcome.message ?? shopperMessage("card_declined", input.locale ?? "tr"), session_id: input.sessionId }
  }
  return { status: "confirming", code: "payment_confirming", message: shopperMessage("payment_confirming", input.locale ?? "tr"), session_id: input.sessionId }
}
