import { randomBytes } from "node:crypto"
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { hostedPageHeaders, pickLocale, renderHostedPageShell } from "../../../../lib/hosted-page"
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
 * The hosted card page (TR/EN) a shopper's browser opens at the address the store API gave the
 * session's storefront: `/sipay/checkout/{session}?lang=…#token=…`. The token is in the fragment,
 * which no request carries: this answer is the same for every session (it reads none), and the
 * page's script asks for the session's content with the token in a POST body (the content route).
 * The shopper's browser then posts the card straight to the gateway; this server only signs the
 * non-card fields (the sign route).
 */
export const GET = async (req: MedusaRequest, res: MedusaResponse) => {
  const sipay = sipayModuleOf(req)
  const settings = await sipay.getCheckoutSettings()
  const locale = pickLocale(String(req.query.lang ?? ""), req.headers["accept-language"])
  const nonce = randomBytes(16).toString("base64")
  const html = renderHostedPageShell({ locale, nonce, contentUrl: `/sipay/checkout/${encodeURIComponent(req.params.session_id)}/content` })
  const frameAncestors = [originOf(settings.storefrontUrl), originOf(sipay.getOptions().backendUrl)].filter((o): o is string => Boolean(o))
  const headers = hostedPageHeaders({ nonce, gatewayOrigin: new URL(sipay.getClient().baseUrl).origin, frameAncestors })
  for (const [name, value] of Object.entries(headers)) {
    res.setHeader(name, value)
  }
  res.status(200).send(html)
}
