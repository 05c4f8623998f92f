import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { capturePreAuthorizationWorkflow } from "../../../../../../workflows/capture-pre-authorization"
import type { PartialCaptureBody } from "../../../../../validators"

/** Captures part of a pre-authorization: the gateway takes that amount and releases the rest. */
export const POST = async (req: AuthenticatedMedusaRequest<PartialCaptureBody>, res: MedusaResponse) => {
  const { result } = await capturePreAuthorizationWorkflow(req.scope).run({
    input: { payment_id: req.params.payment_id, amount: req.validatedBody.amount, captured_by: req.auth_context?.actor_id },
  })
  res.json({ payment: result })
}
