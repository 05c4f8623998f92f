import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { SIPAY_MODULE } from "../modules/sipay"
import type SipayModuleService from "../modules/sipay/service"
import { startPaymentAttemptWorkflow } from "../workflows/start-payment-attempt"
import type { AttemptChoiceBody } from "./validators"

export function sipayModuleOf(req: MedusaRequest): SipayModuleService {
  return req.scope.resolve<SipayModuleService>(SIPAY_MODULE)
}

/** A new 3D attempt and its signed paySmart3D form fields (no card fields): used by the hosted page and custom forms. */
export async function issueThreeDForm(req: MedusaRequest<AttemptChoiceBody>, res: MedusaResponse, sessionId: string) {
  const body = req.validatedBody
  const { result } = await startPaymentAttemptWorkflow(req.scope).run({
    input: {
      session_id: sessionId,
      flow: "3d",
      installments_number: body.installments_number,
      maturity_period: body.maturity_period,
      payment_frequency: body.payment_frequency,
      ip: req.ip,
    },
  })
  const form = sipayModuleOf(req).getClient().build3DForm(result.request)
  res.setHeader("Cache-Control", "no-store")
  res.json({ action: form.action, fields: form.fields, invoice_id: result.invoice_id })
}
