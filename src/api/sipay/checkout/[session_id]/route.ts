import { randomBytes } from "node:crypto"
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import { brandName } from "../../../../lib/sipay/brands"
import { hostedPageHeaders, pickLocale, renderHostedPage, renderPaidPage } from "../../../../lib/hosted-page"
import { failureUrlFor } from "../../../../lib/checkout/urls"
import { formatAmount } from "../../../../lib/sipay"
import { shopperMessage } from "../../../../lib/shopper-messages"
import { isSupportedCurrency } from "../../../../providers/sipay/utils/session-data"
import { assertCheckoutToken, sipayModuleOf, threeDSessionOf } from "../../../sipay-responses"

export const AUTHENTICATE = false

const PAID_SESSION_STATUSES = ["authorized", "captured"]

function originOf(url: string | null | undefined): string | null {
  try {
    return url ? new URL(url).origin : null
  } catch {
    return null
  }
}

/**
 * The hosted card page (TR/EN) of a 3D payment session, opened with the signed address the store
 * API gave the session's storefront (`?token=`): the shopper's browser posts the card straight to
 * the gateway; this server only signs the non-card fields (the sign route). A session already paid
 * shows that it is paid, with no card form.
 */
export const GET = async (req: MedusaRequest, res: MedusaResponse) => {
  const sessionId = req.params.session_id
  const token = assertCheckoutToken(req, sessionId)
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
    query.graph({ entity: "payment_collection", fields: ["cart.id", "cart.completed_at"], filters: { id: session.payment_collection_id } }),
    query.graph({ entity: "store", fields: ["name"] }),
    sipay.listPaymentAttempts({ session_id: sessionId, status: ["paid", "authorized"] }, { select: ["id"], take: 1 }),
  ])
  const cart = (collections[0] as { cart?: { id: string; completed_at?: unknown } } | undefined)?.cart
  const locale = pickLocale(String(req.query.lang ?? ""), req.headers["accept-language"])
  const nonce = randomBytes(16).toString("base64")
  const storeName = (stores[0] as { name?: string } | undefined)?.name || "Store"
  const amount = formatAmount(session.amount as never)
  const paid = PAID_SESSION_STATUSES.includes(String(session.status)) || Boolean(cart?.completed_at) || paidAttempts.length > 0
  const base = `/sipay/checkout/${encodeURIComponent(sessionId)}`
  const withToken = `?token=${encodeURIComponent(token)}`
  const html = paid
    ? renderPaidPage({ sessionId, amount, currencyCode, locale, storeName, nonce })
    : renderHostedPage({
        sessionId,
        amount,
        currencyCode,
        locale,
        storeName,
        gatewayName: brandName(sipay.getOptions().brand),
        signUrl: `${base}/sign${withToken}`,
        installmentsUrl: `${base}/installments${withToken}`,
        cancelUrl: failureUrlFor(settings, { cart_id: cart?.id ?? "", error: shopperMessage("payment_cancelled", locale) }),
        nonce,
        maxInstallments: settings.maxInstallments,
        token,
      })
  const frameAncestors = [originOf(settings.storefrontUrl), originOf(sipay.getOptions().backendUrl)].filter((o): o is string => Boolean(o))
  const headers = hostedPageHeaders({ nonce, gatewayOrigin: new URL(sipay.getClient().baseUrl).origin, frameAncestors })
  for (const [name, value] of Object.entries(headers)) {
    res.setHeader(name, value)
  }
  res.status(200).send(html)
}
