import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import { refreshPaymentLinkWorkflow } from "../../../../../workflows/payment-links"
import { sipayModuleOf } from "../../../../sipay-responses"
import type { GetPaymentLinkQuery } from "../validators"
import { LINK_RELATIONS, paymentLinkView } from "../view"

/** One link with its e-mail sends; `?refresh=true` first counts its uses from the gateway's sales. */
export const GET = async (req: AuthenticatedMedusaRequest<unknown, GetPaymentLinkQuery>, res: MedusaResponse) => {
  const sipay = sipayModuleOf(req)
  const [found] = await sipay.listPaymentLinks({ id: req.params.id })
  if (!found) {
    throw new MedusaError(MedusaError.Types.NOT_FOUND, `Payment link ${req.params.id} was not found`)
  }
  if ((req.validatedQuery as unknown as GetPaymentLinkQuery).refresh) {
    await refreshPaymentLinkWorkflow(req.scope).run({ input: { id: found.id } })
  }
  const link = await sipay.retrievePaymentLink(found.id, { relations: LINK_RELATIONS })
  res.json({ payment_link: paymentLinkView(link) })
}
