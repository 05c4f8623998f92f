import { createServer, IncomingMessage, Server, ServerResponse } from "node:http"
import { join, resolve } from "node:path"
import Medusa from "@medusajs/js-sdk"
import { build } from "esbuild"
import {
  getInstallmentOptions,
  getInstallmentTable,
  getPaymentStatus,
  getRecurringPlan,
  payDirect,
  retrieveCartState,
  startHostedPayment,
  startThreeDForm,
  type CartLike,
  type SdkLike,
} from "../../packages/storefront/src"
import { hasCompletedCart, shopperHeaders, sipaySuccessResponse, STARTER_CART_COOKIE } from "../../packages/storefront/src/server"

/**
 * A storefront the way Medusa's Next.js starter is built, small: the cart id in a SameSite=Strict
 * cookie, a logged-in customer's token in another (`_medusa_jwt`, sent as the authorization of every
 * Medusa call), every Medusa call made by the storefront's server ("server actions" here are POST
 * /actions/* and the cart page's form post, written with the kit's helpers over the JS SDK), and a
 * checkout page rendered in the browser from the kit's React components under React 19. Like the
 * starter, the cart page reads carts through a data cache that only the storefront's own cart
 * changes revalidate, and a middleware (docs/storefront-nextjs.md) drops the cookie of a cart the
 * store completed meanwhile (the kit's `hasCompletedCart`). The checkout page answers 404 without the
 * cart cookie, as the starter does. Every request is recorded with the cookies it carried.
 */

const PACKAGE_ROOT = resolve(__dirname, "..", "..", "packages", "storefront")

export type TestStorefront = {
  url: string
  /** Requests received, in order: path (with query) and the Cookie header. */
  requests: { path: string; cookie: string }[]
  configure(config: {
    backendUrl: string
    publishableKey: string
    storefrontSecret: string
    regionId: string
    products: { variantId: string; title: string; price: number }[]
    lang?: "tr" | "en"
  }): void
  /** Off: the storefront as the starter is without the guide's middleware (a control). */
  useMiddleware(on: boolean): void
  close(): Promise<void>
  /** The React version the page was bundled with. */
  reactVersion: string
}

/** A page bundle (page/<entry>): the kit's components with the storefront package's own React (19), not the plugin's (18). */
export async function bundlePage(entry = "checkout-page.tsx"): Promise<{ code: string; reactVersion: string }> {
  const reactDir = join(PACKAGE_ROOT, "node_modules", "react")
  const result = await build({
    entryPoints: [join(__dirname, "page", entry)],
    bundle: true,
    write: false,
    format: "esm",
    platform: "browser",
    target: "es2021",
    jsx: "automatic",
    minify: true,
    define: { "process.env.NODE_ENV": '"production"' },
    alias: { react: reactDir, "react-dom": join(PACKAGE_ROOT, "node_modules", "react-dom") },
    logLevel: "silent",
  })
  return { code: result.outputFiles[0].text, reactVersion: require(join(reactDir, "package.json")).version }
}

export function cookieOf(req: IncomingMessage, name: string): string | null {
  for (const part of String(req.headers.cookie ?? "").split(";")) {
    const [key, ...value] = part.trim().split("=")
    if (key === name) return decodeURIComponent(value.join("="))
  }
  return null
}

async function readText(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString("utf8")
}

export async function readJson(req: IncomingMessage): Promise<any> {
  const text = await readText(req)
  return text ? JSON.parse(text) : {}
}

export function send(res: ServerResponse, status: number, body: string, headers: Record<string, string | string[]> = {}) {
  res.writeHead(status, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store", ...headers })
  res.end(body)
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string | string[]> = {}) {
  send(res, status, JSON.stringify(body), { "content-type": "application/json", ...headers })
}

const CART_FIELDS = "id,total,currency_code,*payment_collection,*payment_collection.payment_sessions,shipping_address.country_code"

const CLEAR_CART = `${STARTER_CART_COOKIE}=; Path=/; Max-Age=0; SameSite=Strict`

const AUTH_COOKIE = "_medusa_jwt"

/** What one request carries once the middleware ran: the cart cookie (unless dropped), the customer's authorization, cookies to set. */
type RequestContext = { req: IncomingMessage; cartId: string | null; auth: Record<string, string>; setCookies: string[] }

type CachedCart = { id: string; items: { variant_id: string; title: string; quantity: number }[] }

export async function startTestStorefront(): Promise<TestStorefront> {
  const page = await bundlePage()
  const requests: TestStorefront["requests"] = []
  let config:
    | { sdk: SdkLike; medusa: Medusa; secret: string; lang: "tr" | "en"; backendUrl: string; publishableKey: string; regionId: string; products: { variantId: string; title: string; price: number }[] }
    | undefined
  let middlewareOn = true
  // The starter's carts are fetched with `cache: "force-cache"` and a tag its own cart actions revalidate.
  const cartCache = new Map<string, CachedCart>()

  async function cartOf(ctx: RequestContext): Promise<CartLike & { total: number; currency_code: string }> {
    if (!ctx.cartId || !config) throw Object.assign(new Error("no cart"), { status: 404 })
    const { cart } = await config.sdk.client.fetch<{ cart: CartLike & { total: number; currency_code: string } }>(`/store/carts/${ctx.cartId}`, { query: { fields: CART_FIELDS }, headers: ctx.auth })
    return cart
  }

  /** The starter's retrieveCart: through the data cache, a missing cart as none. */
  async function cachedCart(ctx: RequestContext): Promise<CachedCart | null> {
    if (!ctx.cartId) return null
    const known = cartCache.get(ctx.cartId)
    if (known) return known
    const cart = await config!.sdk.client
      .fetch<{ cart: CachedCart }>(`/store/carts/${ctx.cartId}`, { query: { fields: "id,*items" }, headers: ctx.auth })
      .then((answer) => answer.cart)
      .catch(() => null)
    if (cart) cartCache.set(cart.id, cart)
    return cart
  }

  /** The shopper's address signed for the plugin, as docs/storefront-nextjs.md does behind one proxy that appends X-Forwarded-For. */
  const signedShopper = (ctx: RequestContext) => shopperHeaders({ secret: config!.secret, headers: ctx.req.headers as Record<string, string>, proxies: 1, also: ctx.auth })

  // The storefront's server actions, each a few lines over the kit's helpers (as in docs/storefront-nextjs.md).
  const actions: Record<string, (ctx: RequestContext, body: any) => Promise<unknown>> = {
    hosted: async (ctx) => startHostedPayment(config!.sdk, { cart: await cartOf(ctx), lang: config!.lang, headers: ctx.auth }),
    installments: async (ctx, body) => {
      const cart = await cartOf(ctx)
      return getInstallmentOptions(config!.sdk, { bin: body.bin, amount: cart.total, currencyCode: cart.currency_code, cartId: cart.id, headers: signedShopper(ctx) })
    },
    "3d-form": async (ctx, body) => {
      try {
        return await startThreeDForm(config!.sdk, { cart: await cartOf(ctx), choice: body.choice, locale: config!.lang, headers: signedShopper(ctx) })
      } catch (error) {
        // As the guide's action: the plugin's refusal, in the shopper's language, for the form to show.
        return { error: (error as Error).message, status: (error as { status?: number }).status ?? null }
      }
    },
    "pay-direct": async (ctx, body) => {
      const result = await payDirect(config!.sdk, {
        cart: await cartOf(ctx),
        card: body.card,
        choice: body.choice,
        locale: config!.lang,
        headers: signedShopper(ctx),
        // A late answer ("confirming") comes back at once: the form asks for the outcome itself (checkStatus).
        confirmWithinMs: 0,
      })
      // Paid: the plugin completed the cart, so the storefront drops its cookie (the starter's removeCartId).
      if (result.status === "paid" || result.status === "authorized") ctx.setCookies.push(CLEAR_CART)
      return result
    },
    // The guide's checkSipayPayment: the cart's id from the page (the failure URL's, or the cart's), as the status route takes it.
    "payment-status": async (ctx, body) => {
      const status = await getPaymentStatus(config!.sdk, { cartId: String(body.cart_id), locale: config!.lang, headers: signedShopper(ctx) })
      if (status.status === "paid" && ctx.cartId === body.cart_id) ctx.setCookies.push(CLEAR_CART)
      return status
    },
  }

  /** The starter's addToCart: getOrSetCart (the cached cart, else a new one in the region), then the line item. */
  async function addToCart(ctx: RequestContext, variantId: string): Promise<void> {
    let cart = await cachedCart(ctx)
    if (!cart) {
      const created = await config!.medusa.store.cart.create({ region_id: config!.regionId }, {}, ctx.auth)
      cart = { id: created.cart.id, items: [] }
      ctx.setCookies.push(`${STARTER_CART_COOKIE}=${cart.id}; Path=/; HttpOnly; SameSite=Strict`)
    }
    await config!.medusa.store.cart.createLineItem(cart.id, { variant_id: variantId, quantity: 1 }, {}, ctx.auth)
    cartCache.delete(cart.id)
  }

  function cartPage(cart: CachedCart | null): string {
    const items = cart?.items ?? []
    const count = items.reduce((sum, item) => sum + item.quantity, 0)
    const rows = items.map((item) => `<li data-variant="${item.variant_id}">${item.title} × ${item.quantity}</li>`).join("")
    const shelf = config!.products
      .map((product) => `<form method="post" action="/tr/cart/add"><input type="hidden" name="variant_id" value="${product.variantId}"><button type="submit">Add ${product.title}</button></form>`)
      .join("")
    return `<!doctype html><html lang="en"><meta charset="utf-8"><title>Cart</title><header><a id="cart-count" href="/tr/cart">Cart (${count})</a></header><main><h1>Cart</h1><ul id="cart-items">${rows}</ul>${shelf}</main></html>`
  }

  /** The guide's middleware: a cart the store completed meanwhile (the sale webhook after a lost redirect) is no cart. */
  async function middleware(req: IncomingMessage): Promise<RequestContext> {
    const token = cookieOf(req, AUTH_COOKIE)
    const ctx: RequestContext = { req, cartId: cookieOf(req, STARTER_CART_COOKIE) || null, auth: token ? { authorization: `Bearer ${token}` } : {}, setCookies: [] }
    const request = new Request(`http://storefront${req.url}`, { headers: { cookie: String(req.headers.cookie ?? "") } })
    if (middlewareOn && (await hasCompletedCart(request, { backendUrl: config!.backendUrl, publishableKey: config!.publishableKey }))) {
      ctx.cartId = null
      ctx.setCookies.push(CLEAR_CART)
    }
    return ctx
  }

  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://storefront")
    requests.push({ path: `${url.pathname}${url.search}`, cookie: String(req.headers.cookie ?? "") })
    try {
      if (url.pathname === "/app.js") {
        return send(res, 200, page.code, { "content-type": "text/javascript" })
      }
      if (url.pathname === "/test/cart") {
        // The test's stand-in for "Add to cart": the cart id in the starter's cookie, SameSite=Strict.
        const cartId = url.searchParams.get("cart_id") ?? ""
        return send(res, 303, "", { location: `/tr/checkout?step=payment&method=${url.searchParams.get("method") ?? "hosted"}`, "set-cookie": `${STARTER_CART_COOKIE}=${cartId}; Path=/; HttpOnly; SameSite=Strict` })
      }
      if (url.pathname === "/api/sipay/success") {
        const request = new Request(`http://storefront${req.url}`, { headers: req.headers as Record<string, string> })
        const response = await sipaySuccessResponse(request, { isCartCompleted: async (cartId) => (await retrieveCartState(config!.sdk, cartId)).completed })
        const headers: Record<string, string | string[]> = { location: response.headers.get("location") ?? "/" }
        if (response.headers.getSetCookie().length) headers["set-cookie"] = response.headers.getSetCookie()
        return send(res, response.status, "", headers)
      }
      const ctx = await middleware(req)
      const cookies = (): Record<string, string[]> => (ctx.setCookies.length ? { "set-cookie": ctx.setCookies } : {})
      if (req.method === "POST" && url.pathname.startsWith("/actions/")) {
        const action = actions[url.pathname.slice("/actions/".length)]
        if (!action) return json(res, 404, { message: "no such action" })
        const answer = await action(ctx, await readJson(req))
        return json(res, 200, answer, cookies())
      }
      if (req.method === "POST" && url.pathname === "/tr/cart/add") {
        const variantId = new URLSearchParams(await readText(req)).get("variant_id") ?? ""
        // A server action that throws is a 500 in Next.js, whatever the store answered.
        await addToCart(ctx, variantId).catch((error) => Promise.reject(Object.assign(new Error((error as Error).message), { status: 500 })))
        return send(res, 303, "", { location: "/tr/cart", ...cookies() })
      }
      if (url.pathname === "/tr/cart") {
        return send(res, 200, cartPage(await cachedCart(ctx)), cookies())
      }
      const confirmed = /^\/([a-z]{2})\/order\/(order_[A-Za-z0-9]+)\/confirmed$/.exec(url.pathname)
      if (confirmed) {
        return send(res, 200, `<!doctype html><html lang="en"><title>Order confirmed</title><main><h1>Thank you!</h1><p id="order-id">${confirmed[2]}</p></main></html>`, cookies())
      }
      const productPage = /^\/[a-z]{2}\/products\/(\d+)$/.exec(url.pathname)
      if (productPage && config!.products[Number(productPage[1])]) {
        // The starter's product page, a server component: the installment table asked on the server (getInstallmentTable), rendered by the kit's component.
        const product = config!.products[Number(productPage[1])]
        const table = await getInstallmentTable(config!.sdk, { amount: product.price, currencyCode: "try" })
        const data = JSON.stringify({ method: "product", title: product.title, amount: product.price, currency_code: "try", lang: config!.lang, table })
        return send(
          res,
          200,
          `<!doctype html><html lang="${config!.lang}"><meta charset="utf-8"><title>${product.title}</title><body><div id="root"></div>` +
            `<script type="application/json" id="checkout-data">${data.replace(/</g, "\\u003c")}</script><script type="module" src="/app.js"></script></body></html>`,
          cookies()
        )
      }
      if (/^\/[a-z]{2}\/checkout$/.test(url.pathname)) {
        const cart = await cartOf(ctx).catch(() => null)
        if (!cart) {
          // The guide's checkout page: a cart the plugin completed meanwhile (its cookie dropped) is the order it became.
          const cartId = url.searchParams.get("cart_id")
          const status = cartId ? await getPaymentStatus(config!.sdk, { cartId, locale: config!.lang, headers: signedShopper(ctx) }).catch(() => null) : null
          if (status?.status === "paid" && status.order_id) {
            return send(res, 303, "", { location: `/${config!.lang}/order/${status.order_id}/confirmed`, ...cookies() })
          }
          return send(res, 404, `<!doctype html><html lang="en"><title>Page not found</title><main><h1>Page not found</h1></main></html>`, cookies())
        }
        // The guide's checkout: a recurring product's plan asked up front (no installment choice is offered then).
        const plan = await getRecurringPlan(config!.sdk, cart.id, ctx.auth)
        const data = JSON.stringify({ method: url.searchParams.get("method") ?? "hosted", cart_id: cart.id, amount: cart.total, currency_code: cart.currency_code, lang: config!.lang, plan })
        return send(
          res,
          200,
          `<!doctype html><html lang="${config!.lang}"><meta charset="utf-8"><title>Checkout</title><body><div id="root"></div>` +
            `<script type="application/json" id="checkout-data">${data.replace(/</g, "\\u003c")}</script><script type="module" src="/app.js"></script></body></html>`,
          cookies()
        )
      }
      return send(res, 404, "<!doctype html><title>Page not found</title><h1>Page not found</h1>")
    } catch (error) {
      // As Next.js answers a failing server action or render: 500, the error in the server's log only.
      const status = (error as { status?: number }).status ?? 500
      return json(res, status >= 400 && status < 600 ? status : 500, { message: (error as Error).message })
    }
  })
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", () => done()))
  const port = (server.address() as { port: number }).port
  return {
    // "localhost": the same site as the Medusa app of the harness (http://localhost:<port>); the gateway is 127.0.0.1.
    url: `http://localhost:${port}`,
    requests,
    reactVersion: page.reactVersion,
    configure: ({ backendUrl, publishableKey, storefrontSecret, regionId, products, lang }) => {
      const medusa = new Medusa({ baseUrl: backendUrl, publishableKey })
      config = { sdk: medusa, medusa, secret: storefrontSecret, lang: lang ?? "tr", backendUrl, publishableKey, regionId, products }
    },
    useMiddleware: (on) => {
      middlewareOn = on
    },
    close: () => new Promise<void>((done) => server.close(() => done())),
  }
}
