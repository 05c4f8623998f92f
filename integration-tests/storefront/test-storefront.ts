import { createServer, IncomingMessage, Server, ServerResponse } from "node:http"
import { join, resolve } from "node:path"
import Medusa from "@medusajs/js-sdk"
import { build } from "esbuild"
import {
  getInstallmentOptions,
  payDirect,
  retrieveCartState,
  startHostedPayment,
  startThreeDForm,
  type CartLike,
  type SdkLike,
} from "../../packages/storefront/src"
import { shopperHeaders, sipaySuccessResponse, STARTER_CART_COOKIE } from "../../packages/storefront/src/server"

/**
 * A storefront the way Medusa's Next.js starter is built, small: the cart id in a SameSite=Strict
 * cookie, every Medusa call made by the storefront's server ("server actions" here are POST
 * /actions/*, written with the kit's helpers over the JS SDK), and a checkout page rendered in the
 * browser from the kit's React components under React 19. The checkout page answers 404 without the
 * cart cookie, as the starter does. Every request is recorded with the cookies it carried.
 */

const PACKAGE_ROOT = resolve(__dirname, "..", "..", "packages", "storefront")

export type TestStorefront = {
  url: string
  /** Requests received, in order: path (with query) and the Cookie header. */
  requests: { path: string; cookie: string }[]
  configure(config: { backendUrl: string; publishableKey: string; storefrontSecret: string; lang?: "tr" | "en" }): void
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

export async function readJson(req: IncomingMessage): Promise<any> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  return chunks.length ? JSON.parse(Buffer.concat(chunks).toString("utf8")) : {}
}

export function send(res: ServerResponse, status: number, body: string, headers: Record<string, string | string[]> = {}) {
  res.writeHead(status, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store", ...headers })
  res.end(body)
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  send(res, status, JSON.stringify(body), { "content-type": "application/json", ...headers })
}

const CART_FIELDS = "id,total,currency_code,*payment_collection,*payment_collection.payment_sessions,shipping_address.country_code"

const CLEAR_CART = `${STARTER_CART_COOKIE}=; Path=/; Max-Age=0; SameSite=Strict`

export async function startTestStorefront(): Promise<TestStorefront> {
  const page = await bundlePage()
  const requests: TestStorefront["requests"] = []
  let config: { sdk: SdkLike; secret: string; lang: "tr" | "en" } | undefined

  async function cartOf(req: IncomingMessage): Promise<CartLike & { total: number; currency_code: string }> {
    const cartId = cookieOf(req, STARTER_CART_COOKIE)
    if (!cartId || !config) throw Object.assign(new Error("no cart"), { status: 404 })
    const { cart } = await config.sdk.client.fetch<{ cart: CartLike & { total: number; currency_code: string } }>(`/store/carts/${cartId}`, { query: { fields: CART_FIELDS } })
    return cart
  }

  /** The shopper's address signed for the plugin, as docs/storefront-nextjs.md does behind one proxy that appends X-Forwarded-For. */
  const signedShopper = (req: IncomingMessage) => shopperHeaders({ secret: config!.secret, headers: req.headers as Record<string, string>, proxies: 1 })

  // The storefront's server actions, each a few lines over the kit's helpers (as in docs/storefront-nextjs.md).
  const actions: Record<string, (req: IncomingMessage, body: any) => Promise<{ body: unknown; headers?: Record<string, string> }>> = {
    hosted: async (req) => ({ body: await startHostedPayment(config!.sdk, { cart: await cartOf(req), lang: config!.lang }) }),
    installments: async (req, body) => {
      const cart = await cartOf(req)
      return { body: await getInstallmentOptions(config!.sdk, { bin: body.bin, amount: cart.total, currencyCode: cart.currency_code, headers: signedShopper(req) }) }
    },
    "3d-form": async (req, body) => {
      try {
        return { body: await startThreeDForm(config!.sdk, { cart: await cartOf(req), choice: body.choice, locale: config!.lang, headers: signedShopper(req) }) }
      } catch (error) {
        // As the guide's action: the plugin's refusal, in the shopper's language, for the form to show.
        return { body: { error: (error as Error).message, status: (error as { status?: number }).status ?? null } }
      }
    },
    "pay-direct": async (req, body) => {
      const result = await payDirect(config!.sdk, {
        cart: await cartOf(req),
        card: body.card,
        choice: body.choice,
        locale: config!.lang,
        headers: signedShopper(req),
      })
      // Paid: the plugin completed the cart, so the storefront drops its cookie (the starter's removeCartId).
      return { body: result, headers: result.status === "paid" || result.status === "authorized" ? { "set-cookie": CLEAR_CART } : {} }
    },
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
      if (req.method === "POST" && url.pathname.startsWith("/actions/")) {
        const action = actions[url.pathname.slice("/actions/".length)]
        if (!action) return json(res, 404, { message: "no such action" })
        const answer = await action(req, await readJson(req))
        return json(res, 200, answer.body, answer.headers)
      }
      if (url.pathname === "/api/sipay/success") {
        const request = new Request(`http://storefront${req.url}`, { headers: req.headers as Record<string, string> })
        const response = await sipaySuccessResponse(request, { isCartCompleted: async (cartId) => (await retrieveCartState(config!.sdk, cartId)).completed })
        const headers: Record<string, string | string[]> = { location: response.headers.get("location") ?? "/" }
        if (response.headers.getSetCookie().length) headers["set-cookie"] = response.headers.getSetCookie()
        return send(res, response.status, "", headers)
      }
      const confirmed = /^\/([a-z]{2})\/order\/(order_[A-Za-z0-9]+)\/confirmed$/.exec(url.pathname)
      if (confirmed) {
        return send(res, 200, `<!doctype html><html lang="en"><title>Order confirmed</title><main><h1>Thank you!</h1><p id="order-id">${confirmed[2]}</p></main></html>`)
      }
      if (/^\/[a-z]{2}\/checkout$/.test(url.pathname)) {
        const cart = await cartOf(req).catch(() => null)
        if (!cart) {
          return send(res, 404, `<!doctype html><html lang="en"><title>Page not found</title><main><h1>Page not found</h1></main></html>`)
        }
        const data = JSON.stringify({ method: url.searchParams.get("method") ?? "hosted", amount: cart.total, currency_code: cart.currency_code, lang: config!.lang })
        return send(
          res,
          200,
          `<!doctype html><html lang="${config!.lang}"><meta charset="utf-8"><title>Checkout</title><body><div id="root"></div>` +
            `<script type="application/json" id="checkout-data">${data.replace(/</g, "\\u003c")}</script><script type="module" src="/app.js"></script></body></html>`
        )
      }
      return send(res, 404, "<!doctype html><title>Page not found</title><h1>Page not found</h1>")
    } catch (error) {
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
    configure: ({ backendUrl, publishableKey, storefrontSecret, lang }) => {
      config = { sdk: new Medusa({ baseUrl: backendUrl, publishableKey }), secret: storefrontSecret, lang: lang ?? "tr" }
    },
    close: () => new Promise<void>((done) => server.close(() => done())),
  }
}
