import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { issueThreeDForm } from "../../../../sipay-responses"
import type { AttemptChoiceBody } from "../../../../validators"

export const AUTHENTICATE = false

/** The hosted page's signed fields, after the shopper chose installments. */
export const POST = async (req: MedusaRequest<AttemptChoiceBody>, res: MedusaResponse) => {
  await issueThreeDForm(req, res, req.params.session_id)
}
