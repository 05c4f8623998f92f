import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { SipayError, type PaymentResult } from "../../lib/sipay"
import { settlePaymentAttemptWorkflow } from "../../workflows/settle-payment-attempt"
import { paymentOutcomeCode, shopperMessage } from "../../lib/shopper-messages"
import { attemptEndedUnpaid, requestLocale } from "../rate-limits"

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
 * Settles a direct attempt made with a saved card (payByCardTokenNonSecure) and answers the shopper as
 * pay-2d does: 200 with the order when paid, else 402 with the class of the outcome in the shopper's
 * language (never the gateway's reason). A saved card's payment spends no decline budget: its card is
 * its customer's, stored after a payment it made, so it cannot be a card tester's probe; an attempt the
 * gateway declined still ends unpaid for the client's limits.
 */
export async function finishSavedCardPayment(req: MedusaRequest, res: MedusaResponse, invoiceId: string, reported: Reported): Promise<void> {
  const { result } = await settlePaymentAttemptWorkflow(req.scope).run({ input: { invoice_id: invoiceId, reported } })
  const body = { status: result.status, invoice_id: result.invoice_id, order_id: result.order_id }
  if (result.status === "paid" || result.status === "authorized") {
    res.status(200).json({ ...body, cart_id: result.cart_id })
    return
  }
  const code = paymentOutcomeCode(result.status, reported.error_code)
  if (code === "card_declined" || code === "card_not_valid") await attemptEndedUnpaid(req)
  res.status(402).json({ ...body, type: "payment_failed", code, message: shopperMessage(code, requestLocale(req)) })
}
