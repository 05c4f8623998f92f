import { generateHashKey } from "../../lib/sipay/hash"
import { formatAmount, parseAmount } from "../core/amounts"
import { GatewayError, optionalField } from "../core/codes"
import type { Gateway } from "../core/gateway"
import { html, type Reply } from "../http/io"
import type { RequestContext } from "../http/router"
import { linkUrl } from "../links/view"
import { bankPage } from "../pages/bank-page"
import { pickLang } from "../pages/layout"
import { linkMessagePage, linkPaymentPage } from "../pages/link-page"
import { validatePayment } from "../payments/request"
import { succeeded } from "../payments/result"
import { currencyOfId } from "../payments/status"
import { openSale } from "../payments/sales"
import type { PaymentLink } from "../types"
import { bankUrl } from "./pay-3d"

const CARD_FIELDS = ["cc_holder_name", "cc_no", "expiry_month", "expiry_year", "cvv"]

function findLink(ctx: RequestContext, gateway: Gateway): PaymentLink | undefined {
  return gateway.store.state.links.find((link) => link.token === ctx.params[0])
}

/** The page of a link that takes no payment (its status is refreshed by the links sweeper before every request). */
function refusal(link: PaymentLink | undefined): Reply {
  if (!link) return html(linkMessagePage("Ödeme linki bulunamadı / Payment link not found", "This payment link does not exist.", "link-error"), 404)
  if (link.status === "EXPIRED") return html(linkMessagePage("Ödeme linkinin süresi doldu / Payment link expired", "This payment link has expired and takes no more payments.", "link-error"), 410)
  return html(linkMessagePage("Ödeme linki kullanıldı / Payment link used up", "This payment link has reached its maximum number of uses.", "link-error"), 410)
}

/** GET {link_base}/dplLink/<token>: the payer's page. */
export function showLinkPage(ctx: RequestContext, gateway: Gateway): Reply {
  const link = findLink(ctx, gateway)
  if (!link || link.status !== "ACTIVE") return refusal(link)
  const merchant = gateway.merchants.byKey(link.merchant_key)!
  return html(linkPaymentPage(link, merchant.name, linkUrl(gateway, link)))
}

/**
 * POST {link_base}/dplLink/<token>: the payer's card, as a 3D payment the gateway signs for its
 * merchant (one item, the link's product), then the same bank page as paySmart3D. The sale
 * carries dpl_id and notifies the merchant's first configured sale webhook key.
 */
export function payLink(ctx: RequestContext, gateway: Gateway): Reply {
  const link = findLink(ctx, gateway)
  if (!link || link.status !== "ACTIVE") return refusal(link)
  const merchant = gateway.merchants.byKey(link.merchant_key)!
  const values = Object.fromEntries(Object.entries(ctx.body).map(([key, value]) => [key, String(value)]))
  const again = (error: string) => html(linkPaymentPage(link, merchant.name, linkUrl(gateway, link), error, values), 400)
  const totalMinor = link.is_amount_set_by_user ? parseAmount(optionalField(ctx.body, "amount")) : link.amount_minor
  if (totalMinor === null || totalMinor === 0) return again("status_code 1: The amount must be a positive amount (at most 2 decimals).")
  const total = formatAmount(totalMinor)
  const currency = currencyOfId(link.currency_id)
  const invoiceId = `dpl${link.id}_${gateway.store.nextId(`dpl_payment_${link.id}`)}`
  const holder = optionalField(ctx.body, "cc_holder_name").split(/\s+/)
  const resultUrl = `${linkUrl(gateway, link)}/result`
  const body: Record<string, unknown> = {
    ...Object.fromEntries(CARD_FIELDS.map((name) => [name, optionalField(ctx.body, name)])),
    currency_code: currency, installments_number: "1", invoice_id: invoiceId, invoice_description: link.name_of_product,
    name: holder.length > 1 ? holder.slice(0, -1).join(" ") : holder[0], surname: holder[holder.length - 1], total,
    merchant_key: merchant.merchant_key,
    items: JSON.stringify([{ name: link.name_of_product, price: total, quantity: 1, description: link.description }]),
    cancel_url: resultUrl, return_url: resultUrl,
    hash_key: generateHashKey([total, "1", currency, merchant.merchant_key, invoiceId], merchant.app_secret),
    sale_webhook_key: Object.keys(merchant.sale_webhooks)[0] ?? "",
    bill_email: optionalField(ctx.body, "bill_email"), bill_phone: optionalField(ctx.body, "bill_phone"),
    ip: ctx.req.socket.remoteAddress ?? "",
  }
  let order
  try {
    order = validatePayment(body, gateway, "3D", null)
  } catch (error) {
    if (!(error instanceof GatewayError)) throw error
    return again(`status_code ${error.code}: ${error.description}`)
  }
  const lang = pickLang(ctx.url.searchParams.get("lang"), null, ctx.req.headers["accept-language"])
  const sale = openSale(gateway, order, lang)
  sale.dpl_id = link.id
  gateway.store.save()
  return html(bankPage(sale, merchant.name, bankUrl(gateway, sale.bank_session!), lang, gateway.clock.now()))
}

/** GET {link_base}/dplLink/<token>/result: where the bank page sends the payer back (both outcomes). */
export function showLinkResult(ctx: RequestContext, gateway: Gateway): Reply {
  const link = findLink(ctx, gateway)
  const orderId = ctx.url.searchParams.get("order_no") ?? ""
  const sale = link && gateway.store.state.sales.find((s) => s.dpl_id === link.id && s.order_id === orderId)
  if (!sale) return html(linkMessagePage("İşlem bulunamadı / Transaction not found", "No payment of this link has this order number.", "result"), 404)
  if (succeeded(sale)) return html(linkMessagePage("Ödeme başarılı / Payment successful", `Order ${sale.order_id}: ${formatAmount(sale.total_minor)} ${sale.currency_code} paid.`, "result"))
  return html(linkMessagePage("Ödeme başarısız / Payment failed", `status_code ${sale.status_code}: ${sale.error || sale.status_description}`, "result"))
}
