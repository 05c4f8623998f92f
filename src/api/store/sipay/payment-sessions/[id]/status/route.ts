import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import { paymentStatusOf } from "../../../../../payment-status"
import { cartOfSession, requestLocale } from "../../../../../rate-limits"
import type { PaymentStatusBody } from "../../../../../validators"

/**
 * A shopper who comes back (the kit's checkout page, the failure URL, a retry, the hosted page):
 * `{ status: paid | confirming | failed | none, order_id, code, message }`, the open attempt settled on
 * the spot from the gateway (README "Recovery"). Only the holder of the session's cart asks (`cart_id`,
 * as pay-2d takes it); anyone else gets the answer of an unknown session.
 */
export const POST = async (req: MedusaRequest<PaymentStatusBody>, res: MedusaResponse) => {
  const sessionId = req.params.id
  const cartId = await cartOfSession(req, sessionId)
  if (!cartId || cartId !== req.validatedBody.cart_id) {
    throw new MedusaError(MedusaError.Types.NOT_FOUND, "Payment session not found")
  }
  res.setHeader("Cache-Control", "no-store")
  res.json(await paymentStatusOf(req, sessionId, cartId, requestLocale(req)))
}
