import { GatewayError } from "../core/codes"
import type { Gateway } from "../core/gateway"
import { html, type Reply } from "../http/io"
import type { RequestContext } from "../http/router"
import { bankPage } from "../pages/bank-page"
import { pickLang } from "../pages/layout"
import { usableUrl } from "../core/urls"
import { errorPage, redirectBrowser } from "../pages/redirect"
import { validatePayment } from "../payments/request"
import { earlyFailureFields } from "../payments/result"
import { openSale } from "../payments/sales"

export function bankUrl(gateway: Gateway, session: string): string {
  return `${gateway.urls.base_url}/bank/${session}`
}

/** The interface: "a normal browser form submission, not an ajax request". */
function notABrowserForm(req: RequestContext["req"]): string | null {
  const type = String(req.headers["content-type"] ?? "").toLowerCase()
  if (!type.includes("application/x-www-form-urlencoded") && !type.includes("multipart/form-data")) {
    return "paySmart3D takes a browser form post (application/x-www-form-urlencoded)."
  }
  // Sec-Fetch-Mode is not used: Node's fetch sends "cors" too, and server-side test clients are fine.
  if (String(req.headers["x-requested-with"] ?? "").toLowerCase() === "xmlhttprequest") {
    return "paySmart3D must be a normal browser form submission, not an ajax request."
  }
  return null
}

/** POST /api/paySmart3D (browser form): validate, record a pending sale, show the bank page. */
export function payWith3d(ctx: RequestContext, gateway: Gateway): Reply {
  const notAForm = notABrowserForm(ctx.req)
  if (notAForm) return errorPage(1, notAForm)
  const lang = pickLang(ctx.url.searchParams.get("lang"), ctx.body.lang, ctx.req.headers["accept-language"])
  let order
  try {
    order = validatePayment(ctx.body, gateway, "3D", null)
  } catch (error) {
    if (!(error instanceof GatewayError)) throw error
    return refuse(ctx.body, error, gateway)
  }
  const sale = openSale(gateway, order, lang)
  return html(bankPage(sale, order.merchant.name, bankUrl(gateway, sale.bank_session!), lang, gateway.clock.now()))
}

/** A refused request goes back to a usable cancel_url (payment_status 0, the rule's code), else an error page. */
function refuse(body: Record<string, unknown>, error: GatewayError, gateway: Gateway): Reply {
  const cancelUrl = usableUrl(body.cancel_url)
  if (!cancelUrl) return errorPage(error.code, error.description)
  const method = String(body.response_method ?? "").toUpperCase() === "POST" ? "POST" : "GET"
  const transactionType = body.transaction_type === "PreAuth" ? "Pre-Authorization" : "Auth"
  return redirectBrowser(cancelUrl, earlyFailureFields(typeof body.invoice_id === "string" ? body.invoice_id : "", error.code, error.description, transactionType, gateway.conventions.redirectNames), method)
}
