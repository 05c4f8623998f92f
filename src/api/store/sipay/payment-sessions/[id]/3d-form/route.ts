import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { issueThreeDForm } from "../../../../../sipay-responses"
import type { AttemptChoiceBody } from "../../../../../validators"

/** For a storefront's own card form: the signed non-card fields of a new 3D attempt. */
export const POST = async (req: MedusaRequest<AttemptChoiceBody>, res: MedusaResponse) => {
  await issueThreeDForm(req, res, req.params.id)
}
