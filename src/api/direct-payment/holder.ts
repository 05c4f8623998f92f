import type { MedusaNextFunction, MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import { clientAddress } from "../client-address"
import { cartOfSession, limiterOf, sendRateLimited } from "../rate-limits"
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
    const limiter = limiterOf(req)
    if (limiter.limits.enabled) {
      const refusal = await limiter.countAttempt({ sessionId: null, cartId: null, address: clientAddress(req, sessionId) })
      if (refusal) {
        return sendRateLimited(res, refusal)
      }
    }
    next(new MedusaError(MedusaError.Types.NOT_FOUND, "Payment session not found"))
  } catch (error) {
    next(error)
  }
}
