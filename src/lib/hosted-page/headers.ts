export type HostedPageHeadersInput = {
  nonce: string
  /** Where the card form posts (the gateway's paySmart3D origin). */
  gatewayOrigin: string
  /** The store's own origins allowed to frame the page, beside the page's own origin. */
  frameAncestors: string[]
}

const NONCE_PATTERN = /^[A-Za-z0-9+/_-]{16,}={0,2}$/

/** Refuses a nonce too short to guess-proof or one that could break out of a header or attribute. */
export function assertNonce(nonce: string): void {
  if (typeof nonce !== "string" || !NONCE_PATTERN.test(nonce)) {
    throw new Error("hosted page: the nonce must be at least 16 base64 characters (e.g. 16 random bytes)")
  }
}

function originOf(value: string, what: string): string {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new Error(`hosted page: ${what} is not an absolute URL: ${JSON.stringify(value)}`)
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new Error(`hosted page: ${what} must be http(s): ${JSON.stringify(value)}`)
  }
  return url.origin
}

/** Response headers of the hosted card page: never cached, scripts and styles only by nonce. */
export function hostedPageHeaders(input: HostedPageHeadersInput): Record<string, string> {
  assertNonce(input.nonce)
  const gateway = originOf(input.gatewayOrigin, "gatewayOrigin")
  const ancestors = [...new Set(input.frameAncestors.map((origin) => originOf(origin, "a frame ancestor")))]
  const policy = [
    "default-src 'none'",
    `script-src 'nonce-${input.nonce}'`,
    `style-src 'nonce-${input.nonce}'`,
    "connect-src 'self'",
    `form-action 'self' ${gateway}`,
    ["frame-ancestors 'self'", ...ancestors].join(" "),
    "base-uri 'none'",
    "img-src 'self' data:",
  ].join("; ")
  return {
    "Content-Type": "text/html; charset=utf-8",
    "Cache-Control": "no-store",
    Pragma: "no-cache",
    "Content-Security-Policy": policy,
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
  }
}
