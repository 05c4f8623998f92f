import type { Gateway } from "../core/gateway"
import { html, type Reply } from "../http/io"
import type { RequestContext } from "../http/router"
import { SMS_TEST_CODE } from "../cards"
import { bankPage } from "../pages/bank-page"
import { pickLang } from "../pages/layout"
import { errorPage, redirectBrowser } from "../pages/redirect"
import { redirectFields, resultSecret, succeeded } from "../payments/result"
import { authorizeSale } from "../payments/sales"
import type { SaleRecord } from "../types"
import { bankUrl } from "./pay-3d"

function findPending(ctx: RequestContext, gateway: Gateway): SaleRecord | undefined {
  return gateway.store.findSaleByBankSession(ctx.params[0])
}

/** The result redirect of a 3D sale: return_url on success, cancel_url on failure. */
function resultRedirect(gateway: Gateway, sale: SaleRecord): Reply {
  const merchant = gateway.merchants.byKey(sale.merchant_key)!
  const fields = redirectFields(sale, resultSecret(gateway, merchant, "paySmart3D"), gateway.conventions.redirectNames)
  return redirectBrowser(succeeded(sale) ? sale.return_url : sale.cancel_url, fields, sale.response_method)
}

/** A link's payer who reached the bank page while another took the last use (or the link expired): checked at payment, not only on the payer page. */
function linkClosed(gateway: Gateway, sale: SaleRecord): boolean {
  return sale.dpl_id > 0 && gateway.store.state.links.find((link) => link.id === sale.dpl_id)?.status !== "ACTIVE"
}

const finished = (sale: SaleRecord) => sale.state !== "pending" || sale.awaiting_merchant

/** GET {base}/bank/:session: the bank page again (e.g. in the other language). */
export function showBankPage(ctx: RequestContext, gateway: Gateway): Reply {
  const sale = findPending(ctx, gateway)
  if (!sale) return errorPage(31, "Transaction not found", 404)
  if (finished(sale)) return resultRedirect(gateway, sale)
  const lang = pickLang(ctx.url.searchParams.get("lang"), null, ctx.req.headers["accept-language"])
  const merchant = gateway.merchants.byKey(sale.merchant_key)!
  return html(bankPage(sale, merchant.name, bankUrl(gateway, sale.bank_session!), lang, gateway.clock.now()))
}

/** POST {base}/bank/:session: the cardholder confirms with the SMS code or cancels; the browser goes back to the merchant. */
export function submitBankPage(ctx: RequestContext, gateway: Gateway): Reply {
  const sale = findPending(ctx, gateway)
  if (!sale) return errorPage(31, "Transaction not found", 404)
  if (finished(sale)) return resultRedirect(gateway, sale)
  const action = String(ctx.body.action ?? "confirm")
  if (action === "cancel") authorizeSale(gateway, sale, "cancelled", ctx.after)
  else if (linkClosed(gateway, sale)) authorizeSale(gateway, sale, "link_closed", ctx.after)
  else authorizeSale(gateway, sale, String(ctx.body.sms_code ?? "").trim() === SMS_TEST_CODE ? "card" : "wrong_code", ctx.after)
  return resultRedirect(gateway, sale)
}
