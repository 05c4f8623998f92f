import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { cardsOfCustomer } from "../../../../../saved-cards"

/** A customer's saved cards at the gateway (masked number, brand, expiry where the gateway gives one), for the customer page. */
export const GET = async (req: AuthenticatedMedusaRequest, res: MedusaResponse) => {
  res.setHeader("Cache-Control", "no-store")
  res.json({ saved_cards: await cardsOfCustomer(req, req.params.id) })
}
