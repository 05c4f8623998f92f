import { shopperMessage } from "../../lib/shopper-messages"
import { requestLocale } from "../rate-limits"
import type { MedusaRequest } from "@medusajs/framework/http"
import { MedusaError, Modules } from "@medusajs/framework/utils"
import { CARD_CONSENT, withConsent } from "../../lib/saved-cards/consent"
import type { SavedCardView } from "../../lib/saved-cards/card-view"
import { storeCard, type CardToStore } from "../../lib/saved-cards/store-card"
import { ensureCustomerHolder, type CustomerForHolder } from "../../workflows/saved-cards/customer-holder"
import { assertSavedCardsEnabled, ownCartCustomer, ownerOf, signedInCustomer } from "../saved-cards"
import { sipayModuleOf } from "../sipay-responses"
import type { DirectPaymentBody } from "../validators"

/**
 * Saving the card of a direct payment, the only checkout whose card passes through the store's
 * server: on the signed-in shopper's explicit opt-in (`save_card.consent_version`, the consent text
 * they were shown), for their own cart, after the payment succeeded. Checked before the payment, so
 * a request that cannot save is refused before anything is charged.
 */

export type SavingPlan = { customer: CustomerForHolder; consentVersion: string }

export async function planCardSaving(req: MedusaRequest, body: DirectPaymentBody): Promise<SavingPlan | null> {
  if (!body.save_card) {
    return null
  }
  assertSavedCardsEnabled(req)
  const customerId = signedInCustomer(req)
  if (!customerId) {
    throw new MedusaError(MedusaError.Types.UNAUTHORIZED, "Sign in to save a card: only a signed-in customer's card can be saved")
  }
  if (body.save_card.consent_version !== CARD_CONSENT.version) {
    throw new MedusaError(
      MedusaError.Types.INVALID_DATA,
      `The card-saving consent text has changed (version ${CARD_CONSENT.version}): show the shopper the current text (GET /store/customers/me/sipay-cards) and send its version`
    )
  }
  return { customer: await ownCartCustomer(req, body.cart_id, customerId), consentVersion: body.save_card.consent_version }
}

/** Stores the paid card for the customer and records their consent; a failure is reported, the payment stands. */
export async function saveCardAfterPayment(
  req: MedusaRequest,
  plan: SavingPlan,
  card: CardToStore,
  invoiceId: string
): Promise<{ saved_card: SavedCardView | null; save_card_error?: string }> {
  const sipay = sipayModuleOf(req)
  try {
    const { number, holder } = await ensureCustomerHolder(req.scope, plan.customer, "pp_sipay-2d_sipay")
    const { card: view } = await storeCard(sipay.getClient(), sipay.getOptions().appSecret, number, card, ownerOf(plan.customer, card.holderName))
    const consents = withConsent((holder.metadata as Record<string, unknown> | null)?.sipay_card_consents, {
      version: plan.consentVersion,
      given_at: new Date().toISOString(),
      masked_number: view.masked_number,
      invoice_id: invoiceId,
    })
    await req.scope.resolve(Modules.PAYMENT).updateAccountHolder({
      id: holder.id,
      provider_id: holder.provider_id,
      context: { account_holder: holder } as never,
      metadata: { ...(holder.metadata ?? {}), sipay_card_consents: consents },
    })
    return { saved_card: view }
  } catch (error) {
    req.scope.resolve("logger").warn(`sipay: the card of ${invoiceId} was paid but could not be saved: ${(error as Error).message}`)
    return { saved_card: null, save_card_error: shopperMessage("card_not_saved", requestLocale(req)) }
  }
}
