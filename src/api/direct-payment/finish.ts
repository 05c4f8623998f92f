import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { configurationCauseOf, SipayError, type PaymentResult } from "../../lib/sipay"
import { reportGatewayConfigurationCause } from "../configuration-refusals"
import { settlePaymentAttemptWorkflow } from "../../workflows/settle-payment-attempt"
import { paymentOutcomeCode, shopperMessage } from "../../lib/shopper-messages"
import { attemptEndedUnpaid, requestLocale } from "../rate-limits"
import { directAnswerOf, type DirectAnswer } from "../../lib/checkout/direct-answer"

/** What a direct answer reported, for the settle workflow (it settles from `answer` when conclusive and consistent, else asks the gateway). */
export type Reported = { masked_card: string | null; error_code: string | null; error: string | null; answer?: DirectAnswer | null }

export function reportedOf(outcome: PaymentResult): Reported {
  return {
    masked_card: outcome.maskedCardNumber,
    error_code: outcome.success ? null : String(outcome.errorCode || outcome.statusCode || ""),
    error: outcome.success ? null : outcome.error || outcome.statusDescription,
    answer: directAnswerOf(outcome),
  }
}

/** A direct payment call that threw: a lost answer is settled on the gateway's word; anything else is reported as it is. */
export function reportedOfError(error: unknown): Reported {
  if (error instanceof SipayError && error.code === "outcome_unknown") {
    return { masked_card: null, error_code: null, error: null }
  }
  return { masked_card: null, error_code: error instanceof SipayError ? String(error.statusCode ?? "") : null, error: (error as Error).message }
}

/** The gateway's answer to a payment did not come within the client's timeout: the payment may still go through. */
export function answerTimedOut(error: unknown): boolean {
  return error instanceof SipayError && error.code === "outcome_unknown" && error.timedOut
}

/**
 * A direct payment whose answer timed out and which the gateway has no outcome for yet: HTTP 202,
 * "confirming" (never a failure, nothing declined); the storefront asks the status route for the outcome.
 */
export function answerConfirming(req: MedusaRequest, res: MedusaResponse, body: Record<string, unknown>): void {
  res.status(202).json({ ...body, status: "confirming", order_id: null, code: "payment_confirming", message: shopperMessage("payment_confirming", requestLocale(req)) })
}

/**
 * Settles a direct attempt made with a saved card (payByCardTokenNonSecure) and answers the shopper as
 * pay-2d does (with the session paid on and the installment fee): 200 with the order when paid, 202
 * "confirming" when the answer timed out and the gateway has no outcome yet, else 402 with the class of
 * the outcome in the shopper's language (never the gateway's reason). A saved card's payment spends no decline budget: its card is
 * its customer's, stored after a payment it made, so it cannot be a card tester's probe; an attempt the
 * gateway declined still ends unpaid for the client's limits.
 */
export async function finishSavedCardPayment(
  req: MedusaRequest,
  res: MedusaResponse,
  invoiceId: string,
  reported: Reported,
  paidOn: { session_id: string; installment_fee: unknown },
  timedOut = false
): Promise<void> {
  const { result } = await settlePaymentAttemptWorkflow(req.scope).run({ input: { invoice_id: invoiceId, reported } })
  const body = { status: result.status, invoice_id: result.invoice_id, order_id: result.order_id, ...paidOn }
  if (result.status === "paid" || result.status === "authorized") {
    res.status(200).json({ ...body, cart_id: result.cart_id })
    return
  }
  if (result.status === "pending" && timedOut) {
    answerConfirming(req, res, body)
    return
  }
  const code = paymentOutcomeCode(result.status, reported.error_code, reported.error)
  if (code === "payments_unavailable") {
    await reportGatewayConfigurationCause(req, configurationCauseOf(reported.error_code, reported.error), "payByCardTokenNonSecure", reported.error)
  }
  if (code === "card_declined" || code === "card_not_valid") await attemptEndedUnpaid(req)
  res.status(402).json({ ...body, type: "payment_failed", code, message: shopperMessage(code, requestLocale(req)) })
}
