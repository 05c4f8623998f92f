import { randomBytes } from "node:crypto"
import { formatIstanbul } from "../core/clock"
import { CODES, fail, requireField } from "../core/codes"
import type { Gateway } from "../core/gateway"
import { envelope, type Reply } from "../http/io"
import type { RequestContext } from "../http/router"

export const TOKEN_LIFETIME_MS = 2 * 3600 * 1000

/** POST /api/token: app_id + app_secret -> a 2-hour bearer token for that merchant. */
export function issueToken(ctx: RequestContext, gateway: Gateway): Reply {
  const appId = requireField(ctx.body, "app_id")
  const appSecret = requireField(ctx.body, "app_secret")
  const merchant = gateway.merchants.byCredentials(appId, appSecret)
  if (!merchant) fail(CODES.INVALID_CREDENTIALS, "Invalid credentials")
  const now = gateway.clock.now()
  const token = randomBytes(40).toString("base64url")
  const expiresAt = now + TOKEN_LIFETIME_MS
  const tokens = gateway.store.state.tokens
  for (const [key, record] of Object.entries(tokens)) if (record.expires_at_ms <= now) delete tokens[key]
  tokens[token] = { token, merchant_key: merchant.merchant_key, expires_at_ms: expiresAt }
  gateway.store.save()
  return envelope(CODES.SUCCESS, "Successfully Generated Token", {
    data: { token, is_3d: merchant.is_3d, expires_at: formatIstanbul(expiresAt) },
  })
}
