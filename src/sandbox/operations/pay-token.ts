import { CODES, GatewayError } from "../core/codes"
import type { Gateway } from "../core/gateway"
import { html, type Reply } from "../http/io"
import type { RequestContext } from "../http/router"
import { bankPage } from "../pages/bank-page"
import { pickLang } from "../pages/layout"
import { validatePayment } from "../payments/request"
import { openSale } from "../payments/sales"
import { storedCardOf } from "../saved-cards/records"
import { bankUrl } from "./pay-3d"
import { answerDirectPayment, posNotDefined } from "./pay-2d"

/**
 * Payments with a stored card. The merchant's server posts them (JSON, bearer), as both published
 * clients do. payByCardToken is 3D: its answer is the bank's page, HTML the merchant hands to the
 * shopper's browser (the PHP SDK's SavedCardPaymentMapper keeps the body as an HTML form); a refused
 * request answers the JSON envelope, as every other server-to-server call. payByCardTokenNonSecure
 * answers in the body like paySmart2D. Same rules and codes as paySmart3D / paySmart2D, the card
 * fields replaced by card_token + customer_number (a token of another customer or merchant, or a
 * deleted one, is invalid: 1).
 */
export function payByCardToken(ctx: RequestContext, gateway: Gateway): Reply {
  const lang = pickLang(ctx.url.searchParams.get("lang"), ctx.body.lang, ctx.req.headers["accept-language"])
  const order = validatePayment(ctx.body, gateway, "3D", ctx.merchant, (body, merchant) => storedCardOf(body, merchant, gateway))
  const sale = openSale(gateway, order, lang)
  return html(bankPage(sale, order.merchant.name, bankUrl(gateway, sale.bank_session!), lang, gateway.clock.now()))
}

export function payByCardTokenNonSecure(ctx: RequestContext, gateway: Gateway): Reply {
  let order
  try {
    order = validatePayment(ctx.body, gateway, "2D", ctx.merchant, (body, merchant) => storedCardOf(body, merchant, gateway))
  } catch (error) {
    if (error instanceof GatewayError && error.code === CODES.POS_NOT_DEFINED) return posNotDefined(ctx.body, error)
    throw error
  }
  return answerDirectPayment(ctx, gateway, order, "payByCardTokenNonSecure")
}

