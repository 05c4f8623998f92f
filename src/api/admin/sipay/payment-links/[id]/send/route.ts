import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import { sendPaymentLinkWorkflow } from "../../../../../../workflows/payment-links"
import { sipayModuleOf } from "../../../../../sipay-responses"
import type { SendPaymentLinkBody } from "../../validators"
import { LINK_RELATIONS, paymentLinkView } from "../../view"

/** E-mails the link to every address (one dpl/sendemail); a refusal is recorded and answered with the gateway's code. */
export const POST = async (req: AuthenticatedMedusaRequest<SendPaymentLinkBody>, res: MedusaResponse) => {
  const { result } = await sendPaymentLinkWorkflow(req.scope).run({
    input: { id: req.params.id, emails: req.validatedBody.emails },
  })
  if (result.outcome === "failed" && result.error) {
    const code = result.error.error_code && /^\d+$/.test(result.error.error_code) ? ` [${result.error.error_code}]` : ""
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `Sipay dpl/sendemail failed${code}: ${result.error.error_message}`)
  }
  const link = await sipayModuleOf(req).retrievePaymentLink(req.params.id, { relations: LINK_RELATIONS })
  res.json({ payment_link: paymentLinkView(link), send: result.send })
}
