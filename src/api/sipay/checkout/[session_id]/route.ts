import { randomBytes } from "node:crypto"
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { ContainerRegistrationKeys, MedusaError, Modules } from "@medusajs/framework/utils"
import { hostedPageHeaders, pickLocale, renderHostedPage } from "../../../../lib/hosted-page"
import { failureUrlFor } from "../../../../lib/checkout/urls"
import { formatAmount } from "../../../../lib/sipay"
import { isSupportedCurrency } from "../../../../providers/sipay/utils/session-data"
import { sipayModuleOf } from "../../../sipay-responses"

export const AUTHENTICATE = false

function originOf(url: string | null | undefined): string | null {
  try {
    return url ? new URL(url).origin : null
  } catch {
    return null
  }
}

/**
 * The hosted card page (TR/EN) of a 3D payment session: the shopper's browser posts the card
 * straight to the gateway; this server only signs the non-card fields (the sign route).
 */
export const GET = async (req: MedusaRequest, res: MedusaResponse) => {
  const sessionId = req.params.session_id
  const [session] = await req.scope.resolve(Modules.PAYMENT).listPaymentSessions({ id: sessionId })
  const currencyCode = String(session?.currency_code ?? "").toUpperCase()
  if (!session || session.provider_id !== "pp_sipay_sipay" || !isSupportedCurrency(currencyCode)) {
    throw new MedusaError(MedusaError.Types.NOT_FOUND, "Payment session not found")
  }
  const sipay = sipayModuleOf(req)
  const settings = await sipay.getCheckoutSettings()
  const query = req.scope.resolve(ContainerRegistrationKeys.QUERY)
  const { data: collections } = await query.graph({ entity: "payment_collection", fields: ["cart.id"], filters: { id: session.payment_collection_id } })
  const cartId = (collections[0] as { cart?: { id: string } } | undefined)?.cart?.id ?? ""
  const { data: stores } = await query.graph({ entity: "store", fields: ["name"] })
  const locale = pickLocale(String(req.query.lang ?? ""), req.headers["accept-language"])
  const nonce = randomBytes(16).toString("base64")
  const base = `/sipay/checkout/${encodeURIComponent(sessionId)}`
  const html = renderHostedPage({
    sessionId,
    amount: formatAmount(session.amount as never),
    currencyCode,
    locale,
    storeName: (stores[0] as { name?: string } | undefined)?.name || "Store",
    signUrl: `${base}/sign`,
    installmentsUrl: `${base}/installments`,
    cancelUrl: failureUrlFor(settings, { cart_id: cartId, error: locale === "tr" ? "Ödeme iptal edildi" : "Payment cancelled" }),
    nonce,
    maxInstallments: settings.maxInstallments,
  })
  const frameAncestors = [originOf(settings.storefrontUrl), originOf(sipay.getOptions().backendUrl)].filter((o): o is string => Boolean(o))
  const headers = hostedPageHeaders({ nonce, gatewayOrigin: new URL(sipay.getClient().baseUrl).origin, frameAncestors })
  for (const [name, value] of Object.entries(headers)) {
    res.setHeader(name, value)
  }
  res.status(200).send(html)
}
