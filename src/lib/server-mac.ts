import { createHmac, timingSafeEqual } from "node:crypto"

/**
 * What only the server can write: HMAC-SHA256 (base64url) of `payload` under a key derived from the
 * app secret for one purpose, so a MAC made for one purpose never verifies for another, and every
 * instance with the same configuration accepts the others'.
 */
export function serverMac(appSecret: string, purpose: string, payload: string): string {
  const key = createHmac("sha256", appSecret).update(purpose).digest()
  return createHmac("sha256", key).update(payload).digest("base64url")
}

/** Constant-time comparison of a MAC (or secret) the server holds with one it was given. */
export function macsEqual(expected: string, given: unknown): boolean {
  if (typeof given !== "string") {
    return false
  }
  const a = Buffer.from(expected)
  const b = Buffer.from(given)
  return a.length === b.length && timingSafeEqual(a, b)
}
