import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { startPaymentAttemptWorkflow } from "../../../../../../workflows/start-payment-attempt"
import { clientAddress } from "../../../../../client-address"
import { limiterOf, sendRateLimited } from "../../../../../rate-limits"
import { sipayModuleOf } from "../../../../../sipay-responses"
import type { DirectPaymentBody } from "../../../../../validators"
import { finishDirectPayment, reportedOf, reportedOfError, type Reported } from "../../../../../direct-payment/finish"
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
  const paid = {
    holderName: card.holder_name,
    number: card.number.replace(/\s/g, ""),
    expiryMonth: card.expiry_month.padStart(2, "0"),
    expiryYear: card.expiry_year.length === 2 ? `20${card.expiry_year}` : card.expiry_year,
  }
  let reported: Reported
  try {
    reported = reportedOf(await sipayModuleOf(req).getClient().paySmart2D(attempt.request, { ...paid, cvv: card.cvv }))
  } catch (error) {
    reported = reportedOfError(error)
  }
  await finishDirectPayment(req, res, attempt.invoice_id, reported, saving ? () => saveCardAfterPayment(req, saving, paid, attempt.invoice_id) : undefined)
}
