import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import { issueThreeDForm } from "../../../../../sipay-responses"
import type { AttemptChoiceBody } from "../../../../../validators"

/**
 * For a storefront's own card form: the signed non-card fields of a new 3D attempt. The body's
 * `cart_id` must be the cart the session pays: a session id alone starts nothing.
 */
export const POST = async (req: MedusaRequest<AttemptChoiceBody>, res: MedusaResponse) => {
  const cartId = req.validatedBody.cart_id
  if (!cartId) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, "cart_id is required: the id of the cart this payment session pays")
  }
  await issueThreeDForm(req, res, req.params.id, { cartId })
}
