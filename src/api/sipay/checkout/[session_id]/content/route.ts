import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import { brandName } from "../../../../../lib/sipay/brands"
import { pickLocale, renderHostedPageContent, renderPaidPageContent, type HostedPageContent } from "../../../../../lib/hosted-page"
import { failureUrlFor, successUrlFor } from "../../../../../lib/checkout/urls"
import type { CheckoutSettings } from "../../../../../lib/settings"
import { shopperMessage } from "../../../../../lib/shopper-messages"
import { formatAmount } from "../../../../../lib/sipay"
import { isSupportedCurrency } from "../../../../../providers/sipay/utils/session-data"
import { shopperCartOf } from "../../../../shopper-cart"
import { paymentStatusOf } from "../../../../payment-status"
import { planOfItems } from "../../../../recurring-plan-view"
import { amountBeforeFee } from "../../../../../workflows/installment-fee/apply-installment-fee"
import { assertCheckoutToken, sipayModuleOf, threeDSessionOf } from "../../../../sipay-responses"

export const AUTHENTICATE = false

const PAID_SESSION_STATUSES = ["authorized", "captured"]

/**
 * The session's part of the hosted page, for its script: `{ token, lang? }` in the body (the token
 * never in an address). Without a valid token, the answer of an unknown session. A session already
 * paid gets the page that says so, with no card form and a link to the store's page of the order
 * (the success URL; the store itself while the order is not made yet).
 */
export const POST = async (req: MedusaRequest, res: MedusaResponse<HostedPageContent>) => {
  const sessionId = req.params.session_id
  assertCheckoutToken(req, sessionId)
  const session = await threeDSessionOf(req, sessionId)
  const currencyCode = String(session.currency_code ?? "").toUpperCase()
  if (!isSupportedCurrency(currencyCode)) {
    throw new MedusaError(MedusaError.Types.NOT_FOUND, "Payment session not found")
  }
  const sipay = sipayModuleOf(req)
  const query = req.scope.resolve(ContainerRegistrationKeys.QUERY)
  // Independent reads, at once.
  const [settings, { data: collections }, { data: stores }, paidAttempts] = await Promise.all([
    sipay.getCheckoutSettings(),
    query.graph({ entity: "payment_collection", fields: ["cart.id", "cart.completed_at", "cart.items.product.metadata"], filters: { id: session.payment_collection_id } }),
    query.graph({ entity: "store", fields: ["name"] }),
    sipay.listPaymentAttempts({ session_id: sessionId, status: ["paid", "authorized"] }, { select: ["id"], take: 1 }),
  ])
  const cart = (collections[0] as { cart?: { id: string; completed_at?: unknown; items?: any[] } } | undefined)?.cart
  const plan = planOfItems(cart?.items)
  const lang = (req.body as { lang?: unknown } | undefined)?.lang
  const locale = pickLocale(typeof lang === "string" ? lang : "", req.headers["accept-language"])
  const storeName = (stores[0] as { name?: string } | undefined)?.name || "Store"
  const paidBefore = PAID_SESSION_STATUSES.includes(String(session.status)) || Boolean(cart?.completed_at) || paidAttempts.length > 0
  // A shopper who comes back to the page (a lost return, a dropped webhook): an open attempt is settled on the spot from the gateway.
  const paid = paidBefore || (cart?.id ? (await paymentStatusOf(req, sessionId, cart.id, locale)).status === "paid" : false)
  // The card page offers single payment at the cart's price without any installment fee line (paid: what was charged).
  const amount = paid ? formatAmount(session.amount as never) : await amountBeforeFee(req.scope.resolve(ContainerRegistrationKeys.QUERY), session)
  const base = `/sipay/checkout/${encodeURIComponent(sessionId)}`
  const content = paid
    ? renderPaidPageContent({ amount, currencyCode, locale, storeName, next: await wayBack(req, settings, cart?.id ?? "") })
    : renderHostedPageContent({
        sessionId,
        amount,
        currencyCode,
        locale,
        storeName,
        gatewayName: brandName(sipay.getOptions().brand),
        signUrl: `${base}/sign`,
        installmentsUrl: `${base}/installments`,
        cancelUrl: failureUrlFor(settings, { cart_id: cart?.id ?? "", error: shopperMessage("payment_cancelled", locale) }),
        maxInstallments: settings.maxInstallments,
        recurringPlan: plan ? { payment_number: plan.paymentNumber, cycle: plan.cycle, interval: plan.interval } : null,
      })
  res.setHeader("Cache-Control", "no-store")
  res.status(200).json(content)
}

/** Where the paid page sends the shopper: the order's page on the storefront (success URL), else the storefront. */
async function wayBack(req: MedusaRequest, settings: CheckoutSettings, cartId: string): Promise<{ kind: "order" | "store"; url: string } | null> {
  const cart = await shopperCartOf(req, cartId, { withOrder: true })
  const orderUrl = cart.order_id ? successUrlFor(settings, { cart_id: cartId, order_id: cart.order_id, country_code: cart.country_code }) : null
  if (orderUrl) {
    return { kind: "order", url: orderUrl }
  }
  return settings.storefrontUrl ? { kind: "store", url: settings.storefrontUrl } : null
}
