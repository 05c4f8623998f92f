import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { removeCardOfCustomer } from "../../../../../saved-cards"

/** The signed-in customer deletes one of their saved cards at the gateway. */
export const DELETE = async (req: AuthenticatedMedusaRequest, res: MedusaResponse) => {
  await removeCardOfCustomer(req, res, req.auth_context.actor_id, req.params.card_id)
}
