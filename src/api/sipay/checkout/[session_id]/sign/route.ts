import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { assertCheckoutToken, issueThreeDForm } from "../../../../sipay-responses"
import type { AttemptChoiceBody } from "../../../../validators"

export const AUTHENTICATE = false

/**
 * The hosted page's signed fields, after the shopper chose installments. Only with the page's
 * token (`?token=`); the answer carries no shopper data.
 */
export const POST = async (req: MedusaRequest<AttemptChoiceBody>, res: MedusaResponse) => {
  assertCheckoutToken(req, req.params.session_id)
  await issueThreeDForm(req, res, req.params.session_id, { hostedPage: true })
}
