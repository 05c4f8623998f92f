import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { CARD_CONSENT } from "../../../../../lib/saved-cards/consent"
import { cardsOfCustomer } from "../../../../saved-cards"

/**
 * The signed-in customer's saved cards (Medusa authenticates /store/customers/me*), as the gateway
 * lists them now, and the consent text a storefront shows to save one (TR/EN, with its version).
 */
export const GET = async (req: AuthenticatedMedusaRequest, res: MedusaResponse) => {
  const cards = await cardsOfCustomer(req, req.auth_context.actor_id)
  res.setHeader("Cache-Control", "no-store")
  res.json({ saved_cards: cards, consent: CARD_CONSENT })
}
