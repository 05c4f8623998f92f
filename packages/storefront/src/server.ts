/**
 * For the storefront's server (Next.js server actions, route handlers and middleware, any Fetch API
 * server): the shopper's signed address, the completed cart's cookie dropped (the middleware's check,
 * the success route), and the landing page for a backend on another site. Web APIs only (Web Crypto,
 * fetch, Request, Response).
 */
import { canonicalIp } from "../../../src/lib/limiter/ip"

/** Header names and signature format of the plugin's "client address" (its option `storefrontSecret`). */
export const CLIENT_IP_HEADER = "x-sipay-client-ip"
export const CLIENT_IP_SIGNATURE_HEADER = "x-sipay-client-ip-signature"

/** The cookie in which Medusa's Next.js storefront keeps the cart's id. */
export const STARTER_CART_COOKIE = "_medusa_cart_id"

/**
 * An address in the one spelling the plugin uses (IPv4-mapped IPv6 as IPv4, brackets, port and zone
 * dropped, IPv6 as RFC 5952), or null. The plugin's own function, so what is signed is what it reads.
 */
export const normalizeIp = canonicalIp

type HeaderSource = { get(name: string): string | null } | Record<string, string | string[] | undefined>

function headerOf(headers: HeaderSource, name: string): string | null {
  if (typeof (headers as { get?: unknown }).get === "function") {
    return (headers as { get(name: string): string | null }).get(name)
  }
  const value = (headers as Record<string, string | string[] | undefined>)[name]
  return Array.isArray(value) ? value.join(", ") : value ?? null
}

/**
 * How the shopper's address reaches this server, which only the hosting can tell (docs/storefront-nextjs.md):
 * - `{ proxies: 0 }`: nothing in the request can be believed (a bare `next start` facing the internet:
 *   Next.js keeps an `X-Forwarded-For` the browser sent): no address is sent, and the plugin counts the
 *   request per session, cart and card only (its option `storefrontAddresses`);
 * - `{ proxies: n }`: n proxies in front of this server, the last of which overwrites or appends
 *   `X-Forwarded-For`: the n-th entry from the right (the entries further left are the browser's);
 * - `{ header: "x-real-ip" }`: a header the platform sets itself (overwriting whatever the browser sent).
 */
export type ShopperAddressSource = { proxies: number; header?: undefined } | { header: string; proxies?: undefined }

/** The shopper's address as `source` says it reaches this server, canonical; null when none (or `proxies: 0`). */
export function shopperAddress(headers: HeaderSource, source: ShopperAddressSource): string | null {
  if (source?.header !== undefined) {
    const value = headerOf(headers, source.header.toLowerCase())
    // A platform header holds one address; a list means someone else wrote it too.
    return value && !value.includes(",") ? canonicalIp(value) : null
  }
  const proxies = Number(source?.proxies)
  if (!Number.isInteger(proxies) || proxies < 0) {
    throw new Error("shopperAddress: say how the shopper's address reaches this server: { proxies: 0 | 1 | … } or { header: \"x-real-ip\" } (docs/storefront-nextjs.md)")
  }
  if (proxies === 0) {
    return null
  }
  const hops = String(headerOf(headers, "x-forwarded-for") ?? "")
    .split(",")
    .map((hop) => hop.trim())
    .filter(Boolean)
  // Fewer entries than proxies: the request did not come the way the hosting says; nothing is believed.
  return hops.length >= proxies ? canonicalIp(hops[hops.length - proxies]) : null
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
  const ip = canonicalIp(input.ip)
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
 * The signed headers for this request's shopper, as a function of the payment session the request is
 * about ("" for installment look-ups), for the kit's `headers` options (`payDirect`, `startThreeDForm`,
 * `getInstallmentOptions`); `{}` when there is no secret or no address (`proxies: 0`). `also`: headers
 * every request carries as well (a logged-in customer's authorization).
 */
export function shopperHeaders(input: { secret: string | undefined; headers: HeaderSource; also?: Record<string, string> } & ShopperAddressSource) {
  const ip = shopperAddress(input.headers, input)
  return async (sessionId = ""): Promise<Record<string, string>> => ({
    ...(input.also ?? {}),
    ...(input.secret && ip ? await signClientAddress({ secret: input.secret, ip, sessionId }) : {}),
  })
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

/**
 * For the storefront's middleware (Next.js runs it on the Edge runtime: plain `fetch`, no JS SDK):
 * whether the request's cart cookie names a cart the store has completed. The plugin completes carts
 * on its own (the sale webhook when the shopper never came back from the bank's page, the
 * reconciliation job), so the storefront must then treat the cart as none and drop its cookie. The
 * cart is asked with no cache: a cached cart still looks open. No cookie (no request made), an unknown
 * cart or an unreachable store: false, and the cookie stays.
 */
export async function hasCompletedCart(
  request: Request,
  options: { backendUrl: string; publishableKey: string; cookieName?: string; fetch?: typeof fetch }
): Promise<boolean> {
  const cartId = cookieOf(request, options.cookieName ?? STARTER_CART_COOKIE)
  if (!cartId || !/^[A-Za-z0-9_-]{1,100}$/.test(cartId)) {
    return false
  }
  try {
    const response = await (options.fetch ?? fetch)(`${options.backendUrl.replace(/\/+$/, "")}/store/carts/${cartId}?fields=id,completed_at`, {
      headers: { "x-publishable-api-key": options.publishableKey, accept: "application/json" },
      cache: "no-store",
    })
    if (!response.ok) {
      return false
    }
    const { cart } = (await response.json()) as { cart?: { completed_at?: string | null } }
    return Boolean(cart?.completed_at)
  } catch {
    return false
  }
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
