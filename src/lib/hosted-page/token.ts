import { macsEqual, serverMac } from "../server-mac"

/**
 * The hosted page's key: a session id alone opens nothing. The store API hands the storefront
 * (the cart's holder) `/sipay/checkout/{session}#token=…` (in the fragment, so in no request log);
 * the page's script sends it in POST bodies, and the content, installments and sign routes check it. HMAC-SHA256 over the session id and an expiry, with a key derived from the
 * app secret: every server instance with the same configuration accepts the others' tokens, and a
 * restart invalidates nothing. No token is stored.
 */
const PURPOSE = "medusa-plugin-sipay/hosted-page-token/v1"

export const DEFAULT_CHECKOUT_TOKEN_TTL_SECONDS = 3600

function mac(appSecret: string, sessionId: string, expiresAt: number): string {
  return serverMac(appSecret, PURPOSE, `${sessionId}.${expiresAt}`)
}

/** A token for `sessionId` valid until `expiresAt` (seconds since the epoch): `<expiry>.<mac>`. */
export function issueCheckoutToken(appSecret: string, sessionId: string, expiresAt: number): string {
  const expiry = Math.floor(expiresAt)
  return `${expiry.toString(36)}.${mac(appSecret, sessionId, expiry)}`
}

/** True only for a token issued for this session that has not expired. */
export function verifyCheckoutToken(appSecret: string, sessionId: string, token: unknown, nowSeconds = Date.now() / 1000): boolean {
  if (typeof token !== "string" || token.length > 200) {
    return false
  }
  const match = /^([0-9a-z]{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token)
  if (!match) {
    return false
  }
  const expiry = parseInt(match[1], 36)
  if (!Number.isSafeInteger(expiry) || expiry < nowSeconds) {
    return false
  }
  return macsEqual(mac(appSecret, sessionId, expiry), match[2])
}
