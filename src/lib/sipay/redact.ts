/**
 * Masks secrets and card data in anything the client logs or puts into an error.
 * Card numbers keep their first 6 and last 4 digits; every other secret is replaced entirely.
 */

const MASK = "***"

/** Keys compared lower-case with '_' and '-' removed. */
const CARD_KEYS = new Set(["ccno", "cardnumber", "creditcardnumber", "pan"])
const SECRET_KEYS = new Set([
  "cvv",
  "cvc",
  "cvv2",
  "appsecret",
  "secret",
  "token",
  "accesstoken",
  "cardtoken",
  "carduserkey",
  "authorization",
  "hashkey",
  "merchantkey",
  "password",
])

// Digit runs of 12 to 19 digits, optionally grouped by single spaces or dashes.
const CARD_LIKE_RUN = /(?<!\d)\d(?:[ -]?\d){11,18}(?!\d)/g
const SECRET_ASSIGNMENT =
  /(["']?(?:cc_no|cvv|cvc|app_secret|card_token|card_user_key|token|hash_key|merchant_key|password)["']?\s*[:=]\s*["']?)([^"'&\s,;}]+)/gi
const BEARER = /(Bearer\s+)[^\s"',;}]+/gi

export type RedactOptions = {
  /** Exact values (the app secret, the current token...) to mask wherever they appear. */
  secrets?: (string | null | undefined)[]
}

function normaliseKey(key: string): string {
  return key.toLowerCase().replace(/[_-]/g, "")
}

/** First 6 and last 4 characters kept, the rest starred; short values are masked entirely. */
export function maskCardNumber(value: unknown): string {
  const text = String(value ?? "").replace(/[\s-]/g, "")
  if (text.length < 12) {
    return MASK
  }
  return `${text.slice(0, 6)}${"*".repeat(text.length - 10)}${text.slice(-4)}`
}

function redactText(text: string, secrets: string[]): string {
  let result = text
  for (const secret of secrets) {
    result = result.split(secret).join(MASK)
  }
  return result
    .replace(BEARER, `$1${MASK}`)
    .replace(SECRET_ASSIGNMENT, (_, prefix: string, value: string) =>
      /cc_no/i.test(prefix) ? `${prefix}${maskCardNumber(value)}` : `${prefix}${MASK}`
    )
    .replace(CARD_LIKE_RUN, (run) => maskCardNumber(run))
}

function redactValue(value: unknown, secrets: string[], seen: WeakSet<object>): unknown {
  if (typeof value === "string") {
    return redactText(value, secrets)
  }
  if (typeof value === "number" || typeof value === "bigint") {
    const text = redactText(String(value), secrets)
    return text === String(value) ? value : text
  }
  if (value === null || typeof value !== "object") {
    return value
  }
  if (Buffer.isBuffer(value) || value instanceof Uint8Array) {
    return `[binary ${value.byteLength} bytes]`
  }
  if (value instanceof Date) {
    return new Date(value.getTime())
  }
  if (seen.has(value)) {
    return "[Circular]"
  }
  seen.add(value)
  if (Array.isArray(value)) {
    return value.map((item) => redactValue(item, secrets, seen))
  }
  const copy: Record<string, unknown> = {}
  for (const [key, item] of Object.entries(value)) {
    const normalised = normaliseKey(key)
    if (CARD_KEYS.has(normalised)) {
      copy[key] = maskCardNumber(item)
    } else if (SECRET_KEYS.has(normalised) && item !== null && item !== undefined && item !== "") {
      copy[key] = MASK
    } else {
      copy[key] = redactValue(item, secrets, seen)
    }
  }
  return copy
}

/** A deep copy of `value` with card numbers, CVVs, secrets, tokens and hash keys masked. */
export function redact<T>(value: T, options: RedactOptions = {}): T {
  const secrets = (options.secrets ?? [])
    .filter((secret): secret is string => typeof secret === "string" && secret.length >= 4)
    .sort((a, b) => b.length - a.length)
  return redactValue(value, secrets, new WeakSet()) as T
}
