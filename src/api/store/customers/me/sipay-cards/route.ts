import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { CARD_CONSENT } from "../../../../../lib/saved-cards/consent"
import { cardsOfCustomer } from "../../../../saved-cards"
import { sipayModuleOf } from "../../../../sipay-responses"

/**
 * The signed-in customer's saved cards (Medusa authenticates /store/customers/me*), as the gateway
 * lists them now, whether the store offers saving and paying with them (`enabled`), and the consent
 * text a storefront shows to save one (TR/EN, with its version). Cards saved before the store turned
 * the option off are still listed, so that their owner can delete them.
 */
export const GET = async (req: AuthenticatedMedusaRequest, res: MedusaResponse) => {
  const enabled = Boolean(sipayModuleOf(req).getOptions().enableSavedCards)
  const cards = await cardsOfCustomer(req, req.auth_context.actor_id)
  res.setHeader("Cache-Control", "no-store")
  res.json({ enabled, saved_cards: cards, consent: enabled ? CARD_CONSENT : null })
}
