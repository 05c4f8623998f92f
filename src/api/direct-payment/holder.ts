import type { MedusaNextFunction, MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import { clientOf } from "../client-address"
import { admitForRoute, attemptEndedUnpaid, cartOfSession, sendRateLimited } from "../rate-limits"
import type { DirectPaymentBody } from "../validators"

/**
 * Only the session's holder pays through it: the body's `cart_id` must be the cart the session pays
 * (as for `3d-form`). Anyone else gets the answer of an unknown session (no cart id, nothing of the
 * shopper) and spends only their own address's budget, never the session's or its cart's.
 */
export async function refuseDirectPaymentStrangers(req: MedusaRequest, res: MedusaResponse, next: MedusaNextFunction): Promise<void> {
  try {
    const sessionId = String(req.params.id ?? "")
    const cartId = await cartOfSession(req, sessionId)
    if (cartId && cartId === (req as MedusaRequest<DirectPaymentBody>).validatedBody.cart_id) {
      return next()
    }
    // A stranger's try is an attempt of their own client that ended unpaid: it spends their budget, never the session's or the cart's.
    const client = clientOf(req, sessionId)
    const refusal = await admitForRoute(req, res, { sessionId: null, cartId: null, cardNumber: null, address: client?.perAddress ? client.ip : null })
    if (refusal) {
      return sendRateLimited(req, res, refusal)
    }
    await attemptEndedUnpaid(req)
    next(new MedusaError(MedusaError.Types.NOT_FOUND, "Payment session not found"))
  } catch (error) {
    next(error)
  }
}
