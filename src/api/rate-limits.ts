import type { MedusaNextFunction, MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { verifyCheckoutToken } from "../lib/hosted-page"
import type { AttemptKeys, RateLimitRefusal } from "../lib/limiter"
import { localeOfAcceptLanguage, shopperMessage, type ShopperLocale } from "../lib/shopper-messages"
import { SIPAY_MODULE } from "../modules/sipay"
import type SipayModuleService from "../modules/sipay/service"
import { countedAddress } from "./client-address"

/** The shopper's language for an answer: the body's `locale` (the hosted page, 3d-form) or the Accept-Language header. */
export function requestLocale(req: MedusaRequest): ShopperLocale {
  const locale = (req.body as { locale?: unknown } | undefined)?.locale
  return locale === "tr" || locale === "en" ? locale : localeOfAcceptLanguage(req.headers["accept-language"])
}

/**
 * A refusal by the limiter: HTTP 429, `Retry-After` in seconds, and the documented body
 * `{ type: "rate_limited", code, message, retry_after }` (docs/storefront.md "Rate limits and the client address"), the message in the
 * request's language.
 */
export function sendRateLimited(req: MedusaRequest, res: MedusaResponse, refusal: RateLimitRefusal): void {
  res.setHeader("Retry-After", String(refusal.retryAfterSeconds))
  res.setHeader("Cache-Control", "no-store")
  res.status(429).json({ type: "rate_limited", code: refusal.code, message: shopperMessage(refusal.code, requestLocale(req)), retry_after: refusal.retryAfterSeconds })
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

/** The admitted attempt of a request (its ticket in the client's attempt log), and whether the route started it. */
const admitted = new WeakMap<object, { ticket: string; started: boolean }>()

/** The attempt this request was admitted for now exists: the limits follow its outcome from here on. */
export async function attemptStarted(req: MedusaRequest, invoiceId: string): Promise<void> {
  const entry = admitted.get(req)
  if (entry) entry.started = true
  await limiterOf(req).attemptStarted(entry?.ticket, invoiceId)
}

/** The attempt this request started ended unpaid, as the route saw it (a direct payment the gateway refused). */
export async function attemptEndedUnpaid(req: MedusaRequest): Promise<void> {
  await limiterOf(req).attemptEndedUnpaid(admitted.get(req)?.ticket)
}

/** The attempt this request was admitted for did not start (the route failed): the client gets it back. */
async function attemptAbandoned(req: MedusaRequest): Promise<void> {
  const entry = admitted.get(req)
  admitted.delete(req)
  await limiterOf(req).attemptAbandoned(entry?.ticket)
}

/**
 * Admits a new payment attempt of this request (see Limiter.admitAttempt); the refusal, or null. The
 * route reports the attempt it started (attemptStarted); an answer without one gives it back.
 */
export async function admitForRoute(req: MedusaRequest, res: MedusaResponse, keys: AttemptKeys): Promise<RateLimitRefusal | null> {
  const admission = await limiterOf(req).admitAttempt(keys)
  if (admission.refusal) {
    return admission.refusal
  }
  if (admission.ticket) {
    admitted.set(req, { ticket: admission.ticket, started: false })
    res.once("close", () => {
      if (admitted.get(req)?.started === false) attemptAbandoned(req).catch(() => undefined)
    })
  }
  return null
}

/**
 * Admits a new payment attempt (3D form, hosted-page sign) before the route starts it: counted against
 * the client address (its attempts ended unpaid, its attempts open at once) and, when the caller holds
 * the session, against the session and its cart; refused with 429 past any limit. A stranger who knows
 * only a session id spends their own address's budget, never the shopper's.
 */
export function limitPaymentAttempts(sessionParam: string, holds: SessionHolder) {
  return async (req: MedusaRequest, res: MedusaResponse, next: MedusaNextFunction) => {
    try {
      if (!limiterOf(req).limits.enabled) {
        return next()
      }
      const sessionId = String(req.params[sessionParam] ?? "")
      const cartId = await cartOfSession(req, sessionId)
      const holder = holds(req, sessionId, cartId)
      const refusal = await admitForRoute(req, res, {
        sessionId: holder ? sessionId : null,
        cartId: holder ? cartId : null,
        address: countedAddress(req, sessionId),
      })
      if (refusal) {
        return sendRateLimited(req, res, refusal)
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
      const address = countedAddress(req, sessionParam ? String(req.params[sessionParam] ?? "") : "")
      const refusal = limiter.limits.enabled && address ? await limiter.countInstallmentLookup(address) : null
      if (refusal) {
        return sendRateLimited(req, res, refusal)
      }
      next()
    } catch (error) {
      next(error)
    }
  }
}
