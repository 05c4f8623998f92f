import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { assertCheckoutToken, issueThreeDForm } from "../../../../sipay-responses"
import type { HostedPageSignBody } from "../../../../validators"

export const AUTHENTICATE = false

/**
 * The hosted page's signed fields, after the shopper chose installments. Only with the page's
 * token (`token` in the body); the answer carries no shopper data.
 */
export const POST = async (req: MedusaRequest<HostedPageSignBody>, res: MedusaResponse) => {
  assertCheckoutToken(req, req.params.session_id)
  await issueThreeDForm(req, res, req.params.session_id, { hostedPage: true })
}
