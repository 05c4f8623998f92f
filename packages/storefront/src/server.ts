/**
 * For the storefront's server (Next.js server actions and route handlers, any Fetch API server): the
 * shopper's signed address, the success route that drops the completed cart's cookie, and the
 * landing page for a backend on another site. Web APIs only (Web Crypto, Request, Response).
 */

/** Header names and signature format of the plugin's "client address" (its option `storefrontSecret`). */
export const CLIENT_IP_HEADER = "x-sipay-client-ip"
export const CLIENT_IP_SIGNATURE_HEADER = "x-sipay-client-ip-signature"

/** The cookie in which Medusa's Next.js storefront keeps the cart's id. */
export const STARTER_CART_COOKIE = "_medusa_cart_id"

const IPV4 = /^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/

/** An address as the plugin reads it (IPv4-mapped IPv6 as IPv4, brackets and port dropped, IPv6 lower case), or null. */
export function normalizeIp(value: string | null | undefined): string | null {
  let text = String(value ?? "").trim()
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(text)
  if (bracketed) {
    text = bracketed[1]
  } else if (/^\d{1,3}(\.\d{1,3}){3}:\d+$/.test(text)) {
    text = text.slice(0, text.lastIndexOf(":"))
  }
  const mapped = /^::ffff:(\d{1,3}(\.\d{1,3}){3})$/i.exec(text)
  if (mapped) {
    text = mapped[1]
  }
  if (IPV4.test(text)) {
    return text
  }
  return text.length <= 45 && /^[0-9a-f:.]+$/i.test(text) && text.includes(":") ? text.toLowerCase() : null
}

type HeaderSource = { get(name: string): string | null } | Record<string, string | string[] | undefined>

function headerOf(headers: HeaderSource, name: string): string | null {
  if (typeof (headers as { get?: unknown }).get === "function") {
    return (headers as { get(name: string): string | null }).get(name)
  }
  const value = (headers as Record<string, string | string[] | undefined>)[name]
  return Array.isArray(value) ? value.join(", ") : value ?? null
}

/**
 * The shopper's address as the storefront server received it: the `proxies`-th X-Forwarded-For entry
 * from the right (each proxy in front of the storefront appends the address it saw, so the entries
 * further left are whatever the browser sent), else `x-real-ip`. Default 1: one proxy (the hosting
 * platform, or Next.js itself, which sets the header). Null when none is a valid address.
 */
export function shopperAddress(headers: HeaderSource, options: { proxies?: number } = {}): string | null {
  const proxies = Math.max(1, options.proxies ?? 1)
  const hops = String(headerOf(headers, "x-forwarded-for") ?? "")
    .split(",")
    .map((hop) => hop.trim())
    .filter(Boolean)
  if (hops.length >= proxies) {
    return normalizeIp(hops[hops.length - proxies])
  }
  return normalizeIp(headerOf(headers, "x-real-ip"))
}

function hex(buffer: ArrayBuffer): string {
  return Array.from(new Uint8Array(buffer), (byte) => byte.toString(16).padStart(2, "0")).join("")
}

/**
 * The two headers that pass the shopper's address to the plugin, signed with the secret shared with
 * the backend (the plugin's `storefrontSecret` option): for the request about `sessionId` (the payment
 * session; "" for installment look-ups), valid five minutes. Send them with the store API request.
 */
export async function signClientAddress(input: { secret: string; ip: string; sessionId?: string; nowMs?: number }): Promise<Record<string, string>> {
  const ip = normalizeIp(input.ip)
  if (!ip) {
    throw new Error("signClientAddress: ip must be an IPv4 or IPv6 address")
  }
  if (!input.secret) {
    throw new Error("signClientAddress: secret (the plugin's storefrontSecret) is required")
  }
  const timestamp = Math.floor((input.nowMs ?? Date.now()) / 1000)
  const encoder = new TextEncoder()
  const key = await globalThis.crypto.subtle.importKey("raw", encoder.encode(input.secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"])
  const mac = await globalThis.crypto.subtle.sign("HMAC", key, encoder.encode(`${ip}\n${input.sessionId ?? ""}\n${timestamp}`))
  return { [CLIENT_IP_HEADER]: ip, [CLIENT_IP_SIGNATURE_HEADER]: `t=${timestamp},v1=${hex(mac)}` }
}

/**
 * The signed headers for this request's shopper, or `{}` when there is no secret or no address (the
 * plugin then counts the storefront server's own address). For `payDirect`'s `headers` option.
 */
export function shopperHeaders(input: { secret: string | undefined; headers: HeaderSource; proxies?: number }) {
  return async (sessionId = ""): Promise<Record<string, string>> => {
    const ip = shopperAddress(input.headers, { proxies: input.proxies })
    return input.secret && ip ? signClientAddress({ secret: input.secret, ip, sessionId }) : {}
  }
}

function cookieOf(request: Request, name: string): string | null {
  for (const part of (request.headers.get("cookie") ?? "").split(";")) {
    const index = part.indexOf("=")
    if (index > 0 && part.slice(0, index).trim() === name) {
      return decodeURIComponent(part.slice(index + 1).trim())
    }
  }
  return null
}

const ORDER_ID = /^order_[A-Za-z0-9]{1,60}$/
const COUNTRY = /^[a-z]{2}$/

/**
 * A route handler for the plugin's success URL (`…/api/sipay/success?order_id={order_id}&country_code={country_code}`):
 * drops the storefront's cart cookie (the plugin completed that cart on the server, so the storefront's
 * own `placeOrder` never ran) and sends the shopper on, 303, to the order's confirmation page. With
 * `isCartCompleted`, the cookie is dropped only when its cart really is completed (a link from
 * elsewhere cannot empty a shopper's cart).
 */
export async function sipaySuccessResponse(
  request: Request,
  options: {
    cookieName?: string
    isCartCompleted?: (cartId: string) => Promise<boolean>
    confirmationPath?: (input: { orderId: string; countryCode: string | null }) => string
    defaultCountryCode?: string
  } = {}
): Promise<Response> {
  const url = new URL(request.url)
  const orderId = url.searchParams.get("order_id") ?? ""
  const given = (url.searchParams.get("country_code") ?? "").toLowerCase()
  const countryCode = COUNTRY.test(given) ? given : options.defaultCountryCode ?? null
  const headers = new Headers({ "cache-control": "no-store" })
  if (!ORDER_ID.test(orderId)) {
    headers.set("location", countryCode ? `/${countryCode}` : "/")
    return new Response(null, { status: 303, headers })
  }
  const cookieName = options.cookieName ?? STARTER_CART_COOKIE
  const cartId = cookieOf(request, cookieName)
  if (cartId && (!options.isCartCompleted || (await options.isCartCompleted(cartId).catch(() => false)))) {
    headers.append("set-cookie", `${cookieName}=; Path=/; Max-Age=0; SameSite=Lax`)
  }
  const path = options.confirmationPath
    ? options.confirmationPath({ orderId, countryCode })
    : `${countryCode ? `/${countryCode}` : ""}/order/${encodeURIComponent(orderId)}/confirmed`
  headers.set("location", path)
  return new Response(null, { status: 303, headers })
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`)
}

/**
 * For a backend on another site than the storefront: a route handler the success and failure URLs go
 * through (`…/api/sipay/land?to=/{country_code}/checkout&step=payment&error={error}`). It answers with
 * a page of the storefront that navigates to `to` (a path of this storefront) with the other query
 * parameters, so the shopper arrives by a same-site navigation and the SameSite=Strict cookies are sent.
 */
export function sipayLandingResponse(request: Request): Response {
  const url = new URL(request.url)
  const to = url.searchParams.get("to") ?? "/"
  // Only a path of this storefront: never "//host", "/\host" or a scheme.
  const path = /^\/(?![/\\])[^\s]*$/.test(to) ? to : "/"
  const rest = new URLSearchParams(url.searchParams)
  rest.delete("to")
  const query = rest.toString()
  const target = query ? `${path}${path.includes("?") ? "&" : "?"}${query}` : path
  const href = escapeHtml(target)
  return new Response(
    `<!doctype html><html lang="en"><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=${href}"><title>…</title><main><p><a href="${href}">Continue / Devam</a></p></main></html>`,
    {
      status: 200,
      headers: {
        "content-type": "text/html; charset=utf-8",
        "cache-control": "no-store",
        "referrer-policy": "no-referrer",
        "content-security-policy": "default-src 'none'; base-uri 'none'; form-action 'none'",
      },
    }
  )
}
