import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { SipayError, type PaymentResult } from "../../lib/sipay"
import { settlePaymentAttemptWorkflow } from "../../workflows/settle-payment-attempt"
import { limiterOf } from "../rate-limits"

/** What a direct answer reported, for the settle workflow (untrusted: the gateway is asked there). */
export type Reported = { masked_card: string | null; error_code: string | null; error: string | null }

export function reportedOf(outcome: PaymentResult): Reported {
  return {
    masked_card: outcome.maskedCardNumber,
    error_code: outcome.success ? null : String(outcome.errorCode || outcome.statusCode || ""),
    error: outcome.success ? null : outcome.error || outcome.statusDescription,
  }
}

/** A direct payment call that threw: a lost answer is settled on the gateway's word; anything else is reported as it is. */
export function reportedOfError(error: unknown): Reported {
  if (error instanceof SipayError && error.code === "outcome_unknown") {
    return { masked_card: null, error_code: null, error: null }
  }
  return { masked_card: null, error_code: error instanceof SipayError ? String(error.statusCode ?? "") : null, error: (error as Error).message }
}

/**
 * Settles a direct attempt (paySmart2D or a saved card's NonSecure payment) and answers the shopper:
 * 200 with the order when paid (plus what `onPaid` adds), else 402. Every try that does not end paid
 * spends the store-wide decline budget, an error included.
 */
export async function finishDirectPayment(
  req: MedusaRequest,
  res: MedusaResponse,
  invoiceId: string,
  reported: Reported,
  onPaid?: () => Promise<Record<string, unknown>>
): Promise<void> {
  const limiter = limiterOf(req)
  const { result } = await settlePaymentAttemptWorkflow(req.scope)
    .run({ input: { invoice_id: invoiceId, reported } })
    .catch(async (error: unknown) => {
      await limiter.recordDecline()
      throw error
    })
  const body = { status: result.status, invoice_id: result.invoice_id, order_id: result.order_id }
  if (result.status === "paid" || result.status === "authorized") {
    res.status(200).json({ ...body, cart_id: result.cart_id, ...(onPaid ? await onPaid() : {}) })
    return
  }
  await limiter.recordDecline()
  const message = result.status === "failed" ? reported.error || result.error || "The card payment failed" : result.error ?? "The payment is not complete"
  res.status(402).json({ ...body, type: "payment_failed", code: reported.error_code, message })
}
