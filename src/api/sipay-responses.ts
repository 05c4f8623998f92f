import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError, Modules } from "@medusajs/framework/utils"
import { SIPAY_MODULE } from "../modules/sipay"
import type SipayModuleService from "../modules/sipay/service"
import { DEFAULT_CHECKOUT_TOKEN_TTL_SECONDS, issueCheckoutToken, verifyCheckoutToken } from "../lib/hosted-page"
import { startPaymentAttemptWorkflow } from "../workflows/start-payment-attempt"
import type { StartedAttempt } from "../workflows/steps/start-payment-attempt"
import { clientAddress } from "./client-address"
import { attemptStarted } from "./rate-limits"
import { answerConfigurationRefusal, answerShopperRefusal } from "./configuration-refusals"
import type { AttemptChoiceBody } from "./validators"

export function sipayModuleOf(req: MedusaRequest): SipayModuleService {
  return req.scope.resolve<SipayModuleService>(SIPAY_MODULE)
}

/**
 * Shopper data the hosted page's sign answer leaves out (it may be asked by anyone holding the
 * page's address): the page fills `name`/`surname` from the card holder's name the shopper types,
 * and the gateway needs none of the billing fields.
 */
const SHOPPER_FIELDS = ["name", "surname", "bill_address1", "bill_address2", "bill_city", "bill_postcode", "bill_state", "bill_country", "bill_email", "bill_phone"]

/**
 * A new 3D attempt and its signed paySmart3D form fields (no card fields). `hostedPage`: the sign
 * route of the hosted page, whose answer carries no shopper data; otherwise the store route, whose
 * caller proved it holds the session's cart (`cart_id`).
 */
export async function issueThreeDForm(
  req: MedusaRequest<AttemptChoiceBody>,
  res: MedusaResponse,
  sessionId: string,
  binding: { cartId: string } | { hostedPage: true }
) {
  const body = req.validatedBody
  let result: StartedAttempt
  try {
    // The installment fee's cart line is made the choice's first: when that changes the cart's total, the attempt goes on a new session.
    ;({ result } = await startPaymentAttemptWorkflow(req.scope).run({
      input: {
        session_id: sessionId,
        flow: "3d",
        installments_number: body.installments_number,
        maturity_period: body.maturity_period,
        payment_frequency: body.payment_frequency,
        ip: clientAddress(req, sessionId),
        bin: body.bin,
        ...("cartId" in binding ? { cart_id: binding.cartId } : {}),
      },
    }))
  } catch (error) {
    // The store is not set up for this payment (a recurring product without its webhook key): nothing goes to the gateway.
    if (await answerConfigurationRefusal(req, res, error, { operation: "checkout", cartId: "cartId" in binding ? binding.cartId : null })) return
    if (answerShopperRefusal(req, res, error)) return
    throw error
  }
  const payingSessionId = result.session_id
  await attemptStarted(req, result.invoice_id)
  const form = sipayModuleOf(req).getClient().build3DForm(result.request)
  const fields = { ...form.fields } as Record<string, unknown>
  if ("hostedPage" in binding) {
    for (const name of SHOPPER_FIELDS) {
      delete fields[name]
    }
  }
  // The hosted page moves to the new session's page (its token) when the fee made a new session.
  const moved = "hostedPage" in binding && payingSessionId !== sessionId ? { page: hostedPageAddress(sipayModuleOf(req), payingSessionId, body.locale) } : {}
  res.setHeader("Cache-Control", "no-store")
  res.json({ action: form.action, fields, invoice_id: result.invoice_id, session_id: payingSessionId, installment_fee: result.installment_fee, ...moved })
}

/** The hosted card page of a session: its address (token in the fragment), the token, and when it expires. */
export function hostedPageAddress(sipay: SipayModuleService, sessionId: string, lang?: string): { url: string; token: string; expires_at: string } {
  const { token, expiresAt } = checkoutTokenFor(sipay, sessionId)
  const backend = (sipay.getOptions().backendUrl ?? "").replace(/\/+$/, "")
  const search = lang ? `?${new URLSearchParams({ lang })}` : ""
  const fragment = new URLSearchParams({ token })
  return { url: `${backend}/sipay/checkout/${encodeURIComponent(sessionId)}${search}#${fragment}`, token, expires_at: new Date(expiresAt * 1000).toISOString() }
}

/** The hosted page's token lifetime (option checkoutTokenTtlSeconds). */
export function checkoutTokenTtl(sipay: SipayModuleService): number {
  const ttl = Number(sipay.getOptions().checkoutTokenTtlSeconds ?? DEFAULT_CHECKOUT_TOKEN_TTL_SECONDS)
  return Number.isFinite(ttl) && ttl > 0 ? ttl : DEFAULT_CHECKOUT_TOKEN_TTL_SECONDS
}

/** A token for the hosted page of `sessionId` and when it expires. */
export function checkoutTokenFor(sipay: SipayModuleService, sessionId: string): { token: string; expiresAt: number } {
  const expiresAt = Math.floor(Date.now() / 1000 + checkoutTokenTtl(sipay))
  return { token: issueCheckoutToken(sipay.getOptions().appSecret, sessionId, expiresAt), expiresAt }
}

/** The token a hosted-page request carries: in its JSON body only, never in its address (request logs keep addresses). */
function checkoutTokenOf(req: MedusaRequest): unknown {
  return (req.body as { token?: unknown } | undefined)?.token
}

/** Whether the request carries a valid token of the session's hosted page. */
export function holdsCheckoutToken(req: MedusaRequest, sessionId: string): boolean {
  return verifyCheckoutToken(sipayModuleOf(req).getOptions().appSecret, sessionId, checkoutTokenOf(req))
}

/**
 * The hosted page's routes (content, installments, sign) open only with the token the store API gave
 * the session's storefront; anything else gets the answer of an unknown session.
 */
export function assertCheckoutToken(req: MedusaRequest, sessionId: string): void {
  if (!holdsCheckoutToken(req, sessionId)) {
    throw new MedusaError(MedusaError.Types.NOT_FOUND, "Payment session not found")
  }
}

/** The 3D payment session of `sessionId`, or the answer of an unknown one. */
export async function threeDSessionOf(req: MedusaRequest, sessionId: string) {
  const [session] = await req.scope.resolve(Modules.PAYMENT).listPaymentSessions({ id: sessionId })
  if (!session || session.provider_id !== "pp_sipay_sipay") {
    throw new MedusaError(MedusaError.Types.NOT_FOUND, "Payment session not found")
  }
  return session
}
