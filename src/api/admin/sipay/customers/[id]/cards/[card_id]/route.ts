import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { removeCardOfCustomer } from "../../../../../../saved-cards"

/** The merchant removes one of a customer's saved cards at the gateway. */
export const DELETE = async (req: AuthenticatedMedusaRequest, res: MedusaResponse) => {
  await removeCardOfCustomer(req, res, req.params.id, req.params.card_id)
}
