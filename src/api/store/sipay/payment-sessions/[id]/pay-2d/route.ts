import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { configurationCauseOf, SipayError } from "../../../../../../lib/sipay"
import { answerConfigurationRefusal, answerShopperRefusal, reportGatewayConfigurationCause } from "../../../../../configuration-refusals"
import type { StartedAttempt } from "../../../../../../workflows/steps/start-payment-attempt"
import { settlePaymentAttemptWorkflow } from "../../../../../../workflows/settle-payment-attempt"
import { startPaymentAttemptWorkflow } from "../../../../../../workflows/start-payment-attempt"
import { paymentOutcomeCode, shopperMessage } from "../../../../../../lib/shopper-messages"
import { guardDirectPayment } from "../../../../../direct-payment-guard"
import { attemptStarted, requestLocale } from "../../../../../rate-limits"
import { planCardSaving, saveCardAfterPayment } from "../../../../../direct-payment/save-card"
import { sipayModuleOf } from "../../../../../sipay-responses"
import { answerConfirming, answerTimedOut, reportedOf, type Reported } from "../../../../../direct-payment/finish"
import type { DirectPaymentBody } from "../../../../../validators"

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
  // Against card testing, before any gateway call: the card's local check, the decline budgets, the limits.
  const guard = await guardDirectPayment(req, res, { sessionId, cartId: cart_id, card })
  if (!guard) {
    return
  }
  let attempt: StartedAttempt
  try {
    // The installment fee's cart line is made the choice's first (the BIN from the card, in transit): a changed total means a new session.
    ;({ result: attempt } = await startPaymentAttemptWorkflow(req.scope).run({
      input: { session_id: sessionId, flow: "2d", installments_number, maturity_period, payment_frequency, ip: guard.ip, cart_id, bin: card.number.replace(/\s/g, "").slice(0, 6) },
    }))
  } catch (error) {
    // Refused before the gateway: the store is not set up for it (the merchant is alerted), or a recurring product in installments.
    if (await answerConfigurationRefusal(req, res, error, { operation: "checkout", cartId: cart_id })) return
    if (answerShopperRefusal(req, res, error)) return
    throw error
  }
  await attemptStarted(req, attempt.invoice_id)
  let reported: Reported = { masked_card: null, error_code: null, error: null }
  let gatewayStatus: number | null = null
  let timedOut = false
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
    gatewayStatus = outcome.statusCode
    // The answer settles the attempt when it is conclusive and consistent (one gateway call on the path).
    reported = reportedOf(outcome)
  } catch (error) {
    // A lost answer is settled on the gateway's word below; anything else is reported as it is.
    timedOut = answerTimedOut(error)
    if (!(error instanceof SipayError) || error.code !== "outcome_unknown") {
      gatewayStatus = error instanceof SipayError ? error.statusCode : null
      reported = { masked_card: null, error_code: error instanceof SipayError ? String(error.statusCode ?? "") : null, error: (error as Error).message }
    }
  }
  // A try the gateway declined spends the decline budgets, also when settling it fails.
  const { result } = await settlePaymentAttemptWorkflow(req.scope)
    .run({ input: { invoice_id: attempt.invoice_id, reported } })
    .catch(async (error: unknown) => {
      await guard.declined(gatewayStatus)
      throw error
    })
  const body = { status: result.status, invoice_id: result.invoice_id, order_id: result.order_id, session_id: attempt.session_id, installment_fee: attempt.installment_fee }
  if (result.status === "paid" || result.status === "authorized") {
    const saved = saving ? await saveCardAfterPayment(req, saving, { holderName: card.holder_name, number: card.number, expiryMonth: card.expiry_month, expiryYear: card.expiry_year }, attempt.invoice_id) : {}
    res.status(200).json({ ...body, cart_id: result.cart_id, ...saved })
    return
  }
  if (result.status === "pending" && timedOut) {
    // The gateway's answer did not come within the client's timeout and it has no outcome yet: the
    // payment may still go through. Nothing was declined; the storefront asks the status route for the outcome.
    answerConfirming(req, res, body)
    return
  }
  await guard.declined(gatewayStatus)
  // One text per class of outcome, never the gateway's own reason (an oracle for card testers).
  const code = paymentOutcomeCode(result.status, gatewayStatus, reported.error)
  if (code === "payments_unavailable") {
    // The store's configuration (an unknown merchant key, a flow the merchant may not use): the merchant is alerted.
    await reportGatewayConfigurationCause(req, configurationCauseOf(gatewayStatus, reported.error), "paySmart2D", reported.error)
    res.status(402).json({ ...body, cart_id: result.cart_id, type: "payment_failed", code, message: shopperMessage(code, requestLocale(req)) })
    return
  }
  res.status(402).json({ ...body, type: "payment_failed", code, message: shopperMessage(code, requestLocale(req)) })
}
