import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { SipayError } from "../../../../../../lib/sipay"
import { settlePaymentAttemptWorkflow } from "../../../../../../workflows/settle-payment-attempt"
import { startPaymentAttemptWorkflow } from "../../../../../../workflows/start-payment-attempt"
import { clientAddress } from "../../../../../client-address"
import { limiterOf, sendRateLimited } from "../../../../../rate-limits"
import { sipayModuleOf } from "../../../../../sipay-responses"
import type { DirectPaymentBody } from "../../../../../validators"
import { planCardSaving, saveCardAfterPayment } from "../../../../../direct-payment/save-card"

/**
 * Direct (2D) card payment. The card goes once, in transit, to paySmart2D; it never enters a
 * workflow (whose input may be persisted), a log or a stored row: only the masked outcome is kept.
 * The body was read and checked by direct-payment/read-body.ts, and the caller proved it holds the
 * session's cart (`cart_id`, direct-payment/holder.ts), before this runs. With `save_card`, the
 * signed-in customer's card is stored at the gateway once it paid (direct-payment/save-card.ts).
 */
export const POST = async (req: MedusaRequest<DirectPaymentBody>, res: MedusaResponse) => {
  const sessionId = req.params.id
  const { card, cart_id, installments_number, maturity_period, payment_frequency } = req.validatedBody
  // An opt-in to save the card is checked before anything is charged (signed in, own cart, current consent).
  const saving = await planCardSaving(req, req.validatedBody)
  const ip = clientAddress(req, sessionId)
  // Against card testing: the store-wide decline budget, then this try counted per session, cart, card and address.
  const limiter = limiterOf(req)
  if (limiter.limits.enabled) {
    const refusal =
      (await limiter.checkDeclineBudget()) ??
      (await limiter.countAttempt({ sessionId, cartId: cart_id, cardNumber: card.number, address: ip }))
    if (refusal) {
      return sendRateLimited(res, refusal)
    }
  }
  const { result: attempt } = await startPaymentAttemptWorkflow(req.scope).run({
    input: { session_id: sessionId, flow: "2d", installments_number, maturity_period, payment_frequency, ip, cart_id },
  })
  let reported: { masked_card: string | null; error_code: string | null; error: string | null } = { masked_card: null, error_code: null, error: null }
  try {
    const outcome = await sipayModuleOf(req)
      .getClient()
      .paySmart2D(attempt.request, {
        holderName: card.holder_name,
        number: card.number.replace(/\s/g, ""),
        expiryMonth: card.expiry_month.padStart(2, "0"),
        expiryYear: card.expiry_year.length === 2 ? `20${card.expiry_year}` : card.expiry_year,
        cvv: card.cvv,
      })
    reported = {
      masked_card: outcome.maskedCardNumber,
      error_code: outcome.success ? null : String(outcome.errorCode || outcome.statusCode || ""),
      error: outcome.success ? null : outcome.error || outcome.statusDescription,
    }
  } catch (error) {
    // A lost answer is settled on the gateway's word below; anything else is reported as it is.
    if (!(error instanceof SipayError) || error.code !== "outcome_unknown") {
      reported = { masked_card: null, error_code: error instanceof SipayError ? String(error.statusCode ?? "") : null, error: (error as Error).message }
    }
  }
  // Every try that does not end paid spends the store-wide decline budget, an error included.
  const { result } = await settlePaymentAttemptWorkflow(req.scope)
    .run({ input: { invoice_id: attempt.invoice_id, reported } })
    .catch(async (error: unknown) => {
      await limiter.recordDecline()
      throw error
    })
  const body = { status: result.status, invoice_id: result.invoice_id, order_id: result.order_id }
  if (result.status === "paid" || result.status === "authorized") {
    const saved = saving ? await saveCardAfterPayment(req, saving, { holderName: card.holder_name, number: card.number, expiryMonth: card.expiry_month, expiryYear: card.expiry_year }, attempt.invoice_id) : {}
    res.status(200).json({ ...body, cart_id: result.cart_id, ...saved })
    return
  }
  await limiter.recordDecline()
  const message = result.status === "failed" ? reported.error || result.error || "The card payment failed" : result.error ?? "The payment is not complete"
  res.status(402).json({ ...body, type: "payment_failed", code: reported.error_code, message })
}
