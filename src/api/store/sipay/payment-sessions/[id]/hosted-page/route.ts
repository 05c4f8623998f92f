import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import { hostedPageAddress, sipayModuleOf, threeDSessionOf } from "../../../../../sipay-responses"
import { HostedPageBody } from "../../../../../validators"
import { cartOfCollection } from "../../../../../../workflows/steps/load-attempt-context"

/**
 * The hosted card page's address for a 3D payment session, signed for a limited time
 * (`checkoutTokenTtlSeconds`): `{ url, expires_at }`, the token in the address's fragment
 * (`…?lang=tr#token=…`), which browsers never send: no server or proxy logs it. Only for the holder
 * of the session's cart (`cart_id` in the body); any other caller gets the answer of an unknown session.
 */
export const POST = async (req: MedusaRequest, res: MedusaResponse) => {
  const parsed = HostedPageBody.safeParse(req.body ?? {})
  if (!parsed.success) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, "cart_id is required: the id of the cart this payment session pays")
  }
  const sessionId = req.params.id
  const session = await threeDSessionOf(req, sessionId)
  const query = req.scope.resolve(ContainerRegistrationKeys.QUERY)
  const cartId = await cartOfCollection(query, session.payment_collection_id)
  if (!cartId || cartId !== parsed.data.cart_id) {
    throw new MedusaError(MedusaError.Types.NOT_FOUND, "Payment session not found")
  }
  const page = hostedPageAddress(sipayModuleOf(req), sessionId, parsed.data.lang)
  res.setHeader("Cache-Control", "no-store")
  res.json({ url: page.url, expires_at: page.expires_at })
}
