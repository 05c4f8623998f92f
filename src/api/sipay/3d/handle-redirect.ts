import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { Modules } from "@medusajs/framework/utils"
import { randomUUID } from "node:crypto"
import { RETURN_PAGE_WORDS, returnLocale } from "../../../lib/checkout/return-messages"
import { paymentOutcomeCode, shopperMessage } from "../../../lib/shopper-messages"
import { failureUrlFor, namesCountry, successUrlFor } from "../../../lib/checkout/urls"
import { escapeHtml } from "../../../lib/hosted-page"
import { parseInvoiceId } from "../../../providers/sipay/utils/session-data"
import { reportConfigurationRefusal } from "../../../lib/config-alerts"
import { configurationCauseOf, isSipayError } from "../../../lib/sipay"
import { settlePaymentAttemptWorkflow } from "../../../workflows/settle-payment-attempt"
import type { SettleResult } from "../../../workflows/steps/settle-payment-attempt"
import { shopperCartOf } from "../../shopper-cart"
import { sipayModuleOf } from "../../sipay-responses"


/**
 * The gateway sends the shopper's browser here after the bank step (GET or POST). The redirect is
 * untrusted: its hash is verified, then the gateway is asked (checkstatus) before anything changes.
 * Only the configured storefront URLs are redirect targets. Safe to hit twice.
 */
export async function handleThreeDRedirect(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  const fields = { ...(req.query as Record<string, unknown>), ...((req.body as Record<string, unknown>) ?? {}) }
  // The shopper's messages in the shopper's language (their browser follows the gateway's redirect).
  const locale = returnLocale(req.headers["accept-language"])
  const sipay = sipayModuleOf(req)
  const verified = sipay.getClient().verifyResult(fields)
  const invoice = verified ? parseInvoiceId(verified.invoiceId) : null
  // Read while the payment settles: only the answer's addresses need it.
  const settingsRead = sipay.getCheckoutSettings()
  settingsRead.catch(() => undefined)

  if (!verified || !invoice) {
    const settings = await settingsRead
    // Unverified: nothing from it is shown or looked up (no cart id, no gateway text from the request).
    // A refusal before any order exists comes back without a hash (the interface's failure sample):
    // the shopper gets a fixed message; anything claiming success must verify.
    const refusal = !fields.hash_key && String(fields.payment_status ?? "") === "0"
    const claimed = refusal ? configurationCauseOf(text(fields.error_code) || text(fields.status_code), text(fields.error) || text(fields.status_description)) : null
    if (claimed) {
      // The store's configuration, as the redirect claims: the shopper reads the neutral text either way
      // (no oracle: it is the store's state, not the card's). The merchant is alerted, and the cart id
      // given back, only once the gateway confirmed the claim (the attempt is ours and was never charged).
      const confirmed = await confirmRefusedAttempt(req, text(fields.invoice_id))
      if (confirmed) {
        await reportConfigurationRefusal(req.scope, { cause: claimed, operation: "paySmart3D", detail: text(fields.error) || text(fields.status_description) })
      }
      const unavailable = shopperMessage("payments_unavailable", locale)
      return sendShopper(req, res, failureUrlFor(settings, { cart_id: confirmed?.cartId ?? "", error: unavailable }), unavailable)
    }
    const message = shopperMessage(refusal ? "card_declined" : "payment_unverified", locale)
    return sendShopper(req, res, failureUrlFor(settings, { cart_id: "", error: message }), message)
  }

  let result: SettleResult
  try {
    ;({ result } = await settlePaymentAttemptWorkflow(req.scope).run({
      input: {
        invoice_id: verified.invoiceId,
        reported: { masked_card: verified.maskedCardNumber, error_code: verified.errorCode, error: verified.error, status: verified.status },
      },
    }))
  } catch (error) {
    // The gateway could not be asked: nothing is marked paid; the reconciliation job settles it later.
    req.scope.resolve("logger").warn(`Sipay 3D return for ${verified.invoiceId} not settled yet: ${(error as Error).message}`)
    const [attempt] = await sipay.listPaymentAttempts({ invoice_id: verified.invoiceId })
    const settings = await settingsRead
    const cartId = attempt?.cart_id ?? ""
    const pending = shopperMessage("payment_pending", locale)
    const target = failureUrlFor(settings, { cart_id: cartId, error: pending, country_code: namesCountry(settings, "failure") ? await countryOfCart(req, cartId) : null })
    return sendShopper(req, res, target, pending)
  }
  const cartId = result.cart_id ?? ""
  const paid = (result.status === "paid" || result.status === "authorized") && Boolean(result.order_id)
  const settings = await settingsRead
  const countryCode = namesCountry(settings, paid ? "success" : "failure") ? await countryOfCart(req, cartId) : null
  if (paid && result.order_id) {
    const target = successUrlFor(settings, { cart_id: cartId, order_id: result.order_id, country_code: countryCode })
    return sendShopper(req, res, target, RETURN_PAGE_WORDS[locale].paid)
  }
  // One text per class of outcome: the gateway's own reason is never shown (an oracle for card testers).
  const message = shopperMessage(paymentOutcomeCode(result.status, verified.statusCode, verified.error), locale)
  return sendShopper(req, res, failureUrlFor(settings, { cart_id: cartId, error: message, country_code: countryCode }), message)
}

const REFUSAL_CHECK_EVERY_SECONDS = 10

function text(value: unknown): string {
  return typeof value === "string" ? value.trim().slice(0, 300) : ""
}

/**
 * A refusal without a hash names an invoice: it is confirmed when the invoice is an attempt of this
 * store still pending, and the gateway has no sale for it (or refuses the merchant key itself). The
 * attempt's cart, or null.
 */
async function confirmRefusedAttempt(req: MedusaRequest, invoiceId: string): Promise<{ cartId: string } | null> {
  if (!invoiceId || !parseInvoiceId(invoiceId)) return null
  const sipay = sipayModuleOf(req)
  const [attempt] = await sipay.listPaymentAttempts({ invoice_id: invoiceId })
  if (!attempt || attempt.status !== "pending" || !attempt.cart_id) return null
  try {
    // Anyone may replay an unsigned refusal: at most one gateway check per attempt per 10 s, cluster-wide.
    await req.scope.resolve(Modules.LOCKING).acquire(`sipay:refusal-check:${invoiceId}`, { ownerId: randomUUID(), expire: REFUSAL_CHECK_EVERY_SECONDS })
  } catch {
    return null
  }
  try {
    const status = await sipay.getClient().checkStatus(invoiceId, { includePending: true })
    return status.found ? null : { cartId: attempt.cart_id }
  } catch (error) {
    return isSipayError(error) && configurationCauseOf(error.statusCode, error.description) === "merchant_not_found" ? { cartId: attempt.cart_id } : null
  }
}

/** The cart's shipping country (the storefront's /{country_code}/ routes), or null. */
async function countryOfCart(req: MedusaRequest, cartId: string): Promise<string | null> {
  return (await shopperCartOf(req, cartId)).country_code
}

/**
 * A browser sent here by another site (the gateway's bank page posts cross-site). A redirect would
 * keep the navigation cross-site, and the storefront's SameSite=Strict cookies (its cart) would not
 * be sent on arrival; a page of this backend that navigates on makes the landing a same-site one
 * whenever the backend and the storefront share a site (docs/storefront.md).
 */
function arrivedFromAnotherSite(req: MedusaRequest): boolean {
  const site = req.headers["sec-fetch-site"]
  if (site) {
    return site === "cross-site"
  }
  // Browsers without Fetch Metadata: a page navigation asks for HTML; an API client does not.
  return /text\/html/.test(String(req.headers.accept ?? ""))
}

function sendShopper(req: MedusaRequest, res: MedusaResponse, target: string | null, message: string): void {
  res.setHeader("Cache-Control", "no-store")
  const lang = returnLocale(req.headers["accept-language"])
  const words = RETURN_PAGE_WORDS[lang]
  if (target && arrivedFromAnotherSite(req)) {
    const href = escapeHtml(target)
    res.setHeader("Referrer-Policy", "no-referrer")
    res.setHeader("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'")
    res
      .status(200)
      .type("html")
      .send(
        `<!doctype html><html lang="${lang}"><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=${href}"><title>${words.title}</title>` +
          `<main><p role="status">${escapeHtml(message)}</p><p><a href="${href}">${words.continue}</a></p></main></html>`
      )
    return
  }
  if (target) {
    res.redirect(303, target)
    return
  }
  // No storefront configured: say what happened on a plain page.
  res
    .status(200)
    .type("html")
    .send(`<!doctype html><html lang="${lang}"><meta charset="utf-8"><title>${words.title}</title><main><p role="status">${escapeHtml(message)}</p></main></html>`)
}
