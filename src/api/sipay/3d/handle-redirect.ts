import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { RETURN_PAGE_WORDS, returnLocale } from "../../../lib/checkout/return-messages"
import { paymentOutcomeCode, shopperMessage } from "../../../lib/shopper-messages"
import { failureUrlFor, namesCountry, successUrlFor } from "../../../lib/checkout/urls"
import { escapeHtml } from "../../../lib/hosted-page"
import { parseInvoiceId } from "../../../providers/sipay/utils/session-data"
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
  const message = shopperMessage(paymentOutcomeCode(result.status, verified.statusCode), locale)
  return sendShopper(req, res, failureUrlFor(settings, { cart_id: cartId, error: message, country_code: countryCode }), message)
}

/** The cart's shipping country (the storefront's /{country_code}/ routes), or null. */
async function countryOfCart(req: MedusaRequest, cartId: string): Promise<string | null> {
  return (await shopperCartOf(req, cartId)).country_code
}

/**
 * A browser sent here by another site (the gateway's bank page posts cross-site). A redirect would
 * keep the navigation cross-site, and the storefront's SameSite=Strict cookies (its cart) would not
 * be sent on arrival; a page of this backend that navigates on makes the landing a same-site one
 * whenever the backend and the storefront share a site (README "Wiring a storefront").
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
