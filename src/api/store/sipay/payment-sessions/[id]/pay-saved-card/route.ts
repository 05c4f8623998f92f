import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError, Modules } from "@medusajs/framework/utils"
import { findCustomerCard } from "../../../../../../lib/saved-cards/customer-cards"
import { SipayError, type SavedCardPayer } from "../../../../../../lib/sipay"
import { startPaymentAttemptWorkflow } from "../../../../../../workflows/start-payment-attempt"
import type { StartedAttempt } from "../../../../../../workflows/steps/start-payment-attempt"
import { answerShopperRefusal } from "../../../../../configuration-refusals"
import { PROVIDER_OF_FLOW, type AttemptFlow } from "../../../../../../workflows/steps/load-attempt-context"
import { customerNumberOfCustomer } from "../../../../../../workflows/saved-cards/customer-holder"
import { clientAddress } from "../../../../../client-address"
import { answerTimedOut, finishSavedCardPayment, reportedOf, reportedOfError, type Reported } from "../../../../../direct-payment/finish"
import { assertSavedCardsEnabled, ownCartCustomer, ownerOf, signedInCustomer } from "../../../../../saved-cards"
import { sipayModuleOf } from "../../../../../sipay-responses"
import { attemptStarted, requestLocale } from "../../../../../rate-limits"
import { paymentOutcomeCode, shopperMessage } from "../../../../../../lib/shopper-messages"
import type { SavedCardPaymentBody } from "../../../../../validators"

const NOT_FOUND = "Saved card not found"

/**
 * A signed-in customer pays their own cart with one of their saved cards. The session's provider
 * decides how: the 3D provider (the default) with payByCardToken, answering the bank's page for the
 * browser (`{ type: "bank_page", html, invoice_id }`; the shopper confirms there and comes back through
 * the 3D return like any 3D payment); the direct provider, only where direct payment is enabled, with
 * payByCardTokenNonSecure, answering like pay-2d (202 "confirming" when the gateway's answer timed
 * out). Attempts are limited like every attempt (the limits middleware); a saved card spends no decline budget (direct-payment/finish.ts). Everything is checked before an attempt starts:
 * the cart must be the customer's, the card one the gateway lists for the customer's number now
 * (another customer's, a deleted one or a made-up id: 404, nothing charged).
 */
export const POST = async (req: MedusaRequest<SavedCardPaymentBody>, res: MedusaResponse) => {
  const sessionId = req.params.id
  const body = req.validatedBody
  assertSavedCardsEnabled(req)
  const customerId = signedInCustomer(req)
  if (!customerId) {
    throw new MedusaError(MedusaError.Types.UNAUTHORIZED, "Sign in to pay with a saved card")
  }
  const customer = await ownCartCustomer(req, body.cart_id, customerId)
  const [session] = await req.scope.resolve(Modules.PAYMENT).listPaymentSessions({ id: sessionId })
  const flow = (Object.keys(PROVIDER_OF_FLOW) as AttemptFlow[]).find((candidate) => PROVIDER_OF_FLOW[candidate] === session?.provider_id)
  if (!session || !flow) {
    throw new MedusaError(MedusaError.Types.NOT_FOUND, "Payment session not found")
  }
  const sipay = sipayModuleOf(req)
  const holder = await customerNumberOfCustomer(req.scope, customerId)
  const card = holder ? await findCustomerCard(sipay.getClient(), sipay.getOptions().appSecret, holder.number, body.card_id) : undefined
  if (!holder || !card) {
    throw new MedusaError(MedusaError.Types.NOT_FOUND, NOT_FOUND)
  }
  let attempt: StartedAttempt
  try {
    // The installment fee's cart line is made the choice's first, as for a card typed in (the BIN from the gateway's masked number): a changed total means a new session.
    ;({ result: attempt } = await startPaymentAttemptWorkflow(req.scope).run({
      input: {
        session_id: sessionId,
        flow,
        installments_number: body.installments_number,
        maturity_period: body.maturity_period,
        payment_frequency: body.payment_frequency,
        ip: clientAddress(req, sessionId),
        cart_id: body.cart_id,
        bin: card.maskedNumber.slice(0, 6),
      },
    }))
  } catch (error) {
    if (answerShopperRefusal(req, res, error)) return
    throw error
  }
  await attemptStarted(req, attempt.invoice_id)
  const paidOn = { session_id: attempt.session_id, installment_fee: attempt.installment_fee }
  const owner = ownerOf(customer, `${attempt.request.name} ${attempt.request.surname}`)
  const payer: SavedCardPayer = { cardToken: card.cardToken, customerNumber: holder.number, customerName: owner.name, customerEmail: owner.email, customerPhone: owner.phone }
  res.setHeader("Cache-Control", "no-store")
  if (flow === "3d") {
    try {
      const { html } = await sipay.getClient().cards.payWith3D(attempt.request, payer)
      res.json({ type: "bank_page", html, invoice_id: attempt.invoice_id, ...paidOn })
    } catch (error) {
      // The gateway refused (or its answer was lost): nothing to confirm at the bank; the attempt is settled on its word later.
      // The shopper reads the class of the refusal, never the gateway's own reason (an oracle for card testers).
      const code = paymentOutcomeCode("failed", error instanceof SipayError ? error.statusCode : null, error instanceof SipayError ? error.description : null)
      res.status(402).json({ type: "payment_failed", status: "failed", invoice_id: attempt.invoice_id, ...paidOn, code, message: shopperMessage(code, requestLocale(req)) })
    }
    return
  }
  let reported: Reported
  let timedOut = false
  try {
    reported = reportedOf(await sipay.getClient().cards.payDirect(attempt.request, payer))
  } catch (error) {
    reported = reportedOfError(error)
    timedOut = answerTimedOut(error)
  }
  await finishSavedCardPayment(req, res, attempt.invoice_id, reported, paidOn, timedOut)
}
