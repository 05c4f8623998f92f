import type { MedusaNextFunction, MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { verifyCheckoutToken } from "../lib/hosted-page"
import type { RateLimitRefusal } from "../lib/limiter"
import { SIPAY_MODULE } from "../modules/sipay"
import type SipayModuleService from "../modules/sipay/service"
import { clientAddress } from "./client-address"

/**
 * A refusal by the limiter: HTTP 429, `Retry-After` in seconds, and the documented body
 * `{ type: "rate_limited", code, message, retry_after }` (README "Rate limits").
 */
export function sendRateLimited(res: MedusaResponse, refusal: RateLimitRefusal): void {
  res.setHeader("Retry-After", String(refusal.retryAfterSeconds))
  res.setHeader("Cache-Control", "no-store")
  res.status(429).json({ type: "rate_limited", code: refusal.code, message: refusal.message, retry_after: refusal.retryAfterSeconds })
}

export function limiterOf(req: MedusaRequest) {
  return req.scope.resolve<SipayModuleService>(SIPAY_MODULE).getLimiter()
}

/** The cart a payment session pays for, or null (unknown session, or none linked). */
export async function cartOfSession(req: MedusaRequest, sessionId: string): Promise<string | null> {
  if (!sessionId) {
    return null
  }
  const query = req.scope.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({ entity: "payment_session", fields: ["id", "payment_collection.cart.id"], filters: { id: sessionId } })
  return ((data[0] as any)?.payment_collection?.cart?.id as string | undefined) ?? null
}

/** Whether the caller proved it holds the session (its storefront or the shopper): only then do its tries spend the session's and cart's budgets. */
export type SessionHolder = (req: MedusaRequest, sessionId: string, cartId: string | null) => boolean

/** The hosted page's caller: it carries the page's token. */
export const holdsHostedPageToken: SessionHolder = (req, sessionId) =>
  verifyCheckoutToken(req.scope.resolve<SipayModuleService>(SIPAY_MODULE).getOptions().appSecret, sessionId, req.query.token)

/** A storefront's own form: it names the cart the session pays. */
export const holdsCart: SessionHolder = (req, _sessionId, cartId) => Boolean(cartId) && (req.body as { cart_id?: unknown } | undefined)?.cart_id === cartId

/**
 * Counts a new payment attempt (3D form, hosted-page sign) against the client address and, when the
 * caller holds the session, against the session and its cart, before the route starts it; refused
 * with 429 past any limit. A stranger who knows only a session id spends their own address's budget,
 * never the shopper's.
 */
export function limitPaymentAttempts(sessionParam: string, holds: SessionHolder) {
  return async (req: MedusaRequest, res: MedusaResponse, next: MedusaNextFunction) => {
    try {
      const limiter = limiterOf(req)
      if (!limiter.limits.enabled) {
        return next()
      }
      const sessionId = String(req.params[sessionParam] ?? "")
      const cartId = await cartOfSession(req, sessionId)
      const holder = holds(req, sessionId, cartId)
      const refusal = await limiter.countAttempt({
        sessionId: holder ? sessionId : null,
        cartId: holder ? cartId : null,
        address: clientAddress(req, sessionId),
      })
      if (refusal) {
        return sendRateLimited(res, refusal)
      }
      next()
    } catch (error) {
      next(error)
    }
  }
}

/** Counts an installment look-up (a gateway call) against the client address. */
export function limitInstallmentLookups(sessionParam?: string) {
  return async (req: MedusaRequest, res: MedusaResponse, next: MedusaNextFunction) => {
    try {
      const limiter = limiterOf(req)
      const address = clientAddress(req, sessionParam ? String(req.params[sessionParam] ?? "") : "")
      const refusal = limiter.limits.enabled && address ? await limiter.countInstallmentLookup(address) : null
      if (refusal) {
        return sendRateLimited(res, refusal)
      }
      next()
    } catch (error) {
      next(error)
    }
  }
}
