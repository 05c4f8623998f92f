import { createServer, IncomingMessage, Server } from "node:http"
import Medusa from "@medusajs/js-sdk"
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import type { Browser } from "playwright-core"
import {
  deleteSavedCard,
  getInstallmentOptions,
  getPaymentStatus,
  listSavedCards,
  payDirect,
  payWithSavedCard,
  SIPAY_2D_PROVIDER_ID,
  type CartLike,
  type SdkLike,
} from "../../packages/storefront/src"
import { SMS_TEST_CODE } from "../../src/sandbox"
import { launchBrowser, screenshotPath } from "../harness/browser"
import { axeViolations } from "../harness/demo-axe"
import { customerCart, gatewayCards, signedInCustomer } from "../harness/customers"
import { seedStore, SeededStore } from "../harness/seed"
import { PAYING_CARD } from "../harness/shopper"
import { useSipayStack } from "../harness/stack"
import { bundlePage, cookieOf, readJson, send } from "./test-storefront"

jest.setTimeout(300 * 1000)

/**
 * Issue 31 in a real browser: a signed-in customer, on a storefront built with the kit's React
 * components (React 19) and its helpers over the JS SDK, saves a card in a direct checkout (the opt-in
 * box and the KVKK text), pays the next cart in one step with it through the bank's 3D page, and
 * deletes it from "my cards". The storefront's server holds the customer's token in a cookie, as
 * Medusa's Next.js starter does (`_medusa_jwt`), and makes every Medusa call.
 */

const JWT_COOKIE = "_medusa_jwt"
const CART_COOKIE = "_medusa_cart_id"

type Storefront = { url: string; configure(config: { backendUrl: string; publishableKey: string }): void; close(): Promise<void> }

async function startStorefront(): Promise<Storefront> {
  const page = await bundlePage("saved-cards-page.tsx")
  let sdk: SdkLike | undefined
  const auth = (req: IncomingMessage) => ({ authorization: `Bearer ${cookieOf(req, JWT_COOKIE) ?? ""}` })
  const cartOf = async (req: IncomingMessage) =>
    (await sdk!.client.fetch<{ cart: CartLike & { total: number; currency_code: string } }>(`/store/carts/${cookieOf(req, CART_COOKIE)}`, {
      query: { fields: "id,total,currency_code,*payment_collection,*payment_collection.payment_sessions" },
      headers: auth(req),
    })).cart
  // The storefront's server actions, each a few lines over the kit's helpers (docs/storefront-nextjs.md, "Saved cards").
  const actions: Record<string, (req: IncomingMessage, body: any) => Promise<unknown>> = {
    cards: (req) => listSavedCards(sdk!, { headers: auth(req) }),
    "delete-card": async (req, body) => ({ deleted: await deleteSavedCard(sdk!, { cardId: body.card_id, headers: auth(req) }) }),
    installments: async (req, body) => {
      const cart = await cartOf(req)
      return getInstallmentOptions(sdk!, { bin: body.bin, amount: cart.total, currencyCode: cart.currency_code })
    },
    // confirmWithinMs: 0 as the guide's: a late answer is "confirming" at once, and the component asks "payment-status" for the outcome.
    "pay-direct": async (req, body) =>
      payDirect(sdk!, { cart: await cartOf(req), card: body.card, choice: body.choice, headers: auth(req), providerId: SIPAY_2D_PROVIDER_ID, saveCard: body.save_card, confirmWithinMs: 0 }),
    "pay-saved": async (req, body) => payWithSavedCard(sdk!, { cart: await cartOf(req), cardId: body.card_id, headers: auth(req), confirmWithinMs: 0 }),
    "payment-status": async (req, body) => getPaymentStatus(sdk!, { cartId: String(body.cart_id), locale: "tr", headers: auth(req) }),
  }
  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://storefront")
    try {
      if (url.pathname === "/app.js") return send(res, 200, page.code, { "content-type": "text/javascript" })
      if (url.pathname === "/test/sign-in") {
        // The test's stand-in for the starter's login and "Add to cart": the token and the cart in HttpOnly cookies.
        const cookies = [`${JWT_COOKIE}=${url.searchParams.get("token")}; Path=/; HttpOnly; SameSite=Strict`, `${CART_COOKIE}=${url.searchParams.get("cart_id")}; Path=/; HttpOnly; SameSite=Strict`]
        res.writeHead(303, { location: url.searchParams.get("next") ?? "/tr/checkout", "set-cookie": cookies })
        return res.end()
      }
      if (req.method === "POST" && url.pathname.startsWith("/actions/")) {
        const action = actions[url.pathname.slice("/actions/".length)] as (typeof actions)[string] | undefined
        const body = action ? await action(req, await readJson(req)) : { message: "no such action" }
        return send(res, action ? 200 : 404, JSON.stringify(body ?? {}), { "content-type": "application/json" })
      }
      const confirmed = /^\/tr\/order\/(order_[A-Za-z0-9]+)\/confirmed$/.exec(url.pathname)
      if (confirmed) return send(res, 200, `<!doctype html><html lang="tr"><title>Sipariş</title><main><h1>Teşekkürler!</h1><p id="order-id">${confirmed[1]}</p></main></html>`)
      const view = url.pathname === "/tr/account/cards" ? "cards" : url.pathname === "/tr/checkout" ? (url.searchParams.get("method") === "saved" ? "saved" : "direct") : null
      if (!view) return send(res, 404, "<!doctype html><title>Page not found</title><h1>Page not found</h1>")
      const cart = view === "cards" ? null : await cartOf(req)
      const data = JSON.stringify({ view, cart_id: cart?.id ?? null, amount: cart?.total ?? 0, currency_code: cart?.currency_code ?? "try", lang: "tr" })
      return send(
        res,
        200,
        `<!doctype html><html lang="tr"><meta charset="utf-8"><title>Mağaza</title><body><div id="root"></div>` +
          `<script type="application/json" id="page-data">${data.replace(/</g, "\\u003c")}</script><script type="module" src="/app.js"></script></body></html>`
      )
    } catch (error) {
      const status = (error as { status?: number }).status ?? 500
      return send(res, status >= 400 && status < 600 ? status : 500, JSON.stringify({ message: (error as Error).message }), { "content-type": "application/json" })
    }
  })
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", () => done()))
  return {
    url: `http://localhost:${(server.address() as { port: number }).port}`,
    configure: ({ backendUrl, publishableKey }) => {
      sdk = new Medusa({ baseUrl: backendUrl, publishableKey, auth: { type: "jwt", jwtTokenStorageMethod: "nostore" } })
    },
    close: () => new Promise<void>((done) => server.close(() => done())),
  }
}

let storefront: Storefront
const env: Record<string, string> = {}
beforeAll(async () => {
  storefront = await startStorefront()
  Object.assign(env, { STOREFRONT_URL: storefront.url, SIPAY_SUCCESS_URL: `${storefront.url}/tr/order/{order_id}/confirmed` })
})
afterAll(() => storefront?.close())
const stack = useSipayStack({ env })

medusaIntegrationTestRunner({
  testSuite: ({ api, getContainer }) => {
    let store: SeededStore
    let browser: Browser

    beforeAll(async () => {
      browser = await launchBrowser()
    })
    afterAll(() => browser?.close())
    beforeEach(async () => {
      store = await seedStore(getContainer())
      storefront.configure({ backendUrl: stack.backendUrl, publishableKey: store.publishableKey })
    })

    it("a signed-in customer saves a card in a direct checkout, pays the next cart in one step at the bank's 3D page, then deletes it", async () => {
      const ayse = await signedInCustomer(api, store, "ayse@example.com")
      const token = ayse.headers.headers.authorization.replace(/^Bearer /, "")
      const context = await browser.newContext({ locale: "tr-TR" })
      const page = await context.newPage()
      const signIn = async (next: string) => {
        const cart = await customerCart(api, store, ayse)
        await page.goto(`${storefront.url}/test/sign-in?token=${encodeURIComponent(token)}&cart_id=${cart.id}&next=${encodeURIComponent(next)}`)
        return cart
      }
      try {
        // 1. A direct checkout: the opt-in is unticked with the consent text; ticked, the paid card is saved.
        await signIn("/tr/checkout?method=direct")
        const consent = page.getByTestId("sipay-save-card-consent")
        await consent.waitFor()
        expect(await consent.textContent()).toContain("KVKK")
        expect(await page.getByLabel(/Bu kartı sonraki alışverişlerimde/).isChecked()).toBe(false)
        await page.getByLabel("Kart üzerindeki isim").fill(PAYING_CARD.cc_holder_name)
        await page.getByLabel("Kart numarası").fill(PAYING_CARD.cc_no)
        await page.getByLabel("Son kullanma ayı (AA)").fill(PAYING_CARD.expiry_month)
        await page.getByLabel("Son kullanma yılı (YYYY)").fill(PAYING_CARD.expiry_year)
        await page.getByLabel("Güvenlik kodu (CVV)").fill(PAYING_CARD.cvv)
        await page.getByLabel(/Bu kartı sonraki alışverişlerimde/).check()
        await page.screenshot({ path: screenshotPath("saved-cards-kit", "1-direct-with-opt-in"), fullPage: true })
        await page.getByRole("button", { name: /öde/ }).click()
        await page.waitForURL(/\/tr\/order\/order_[A-Za-z0-9]+\/confirmed$/)
        const { data } = await (getContainer().resolve("query") as any).graph({ entity: "customer", fields: ["account_holders.external_id"], filters: { id: ayse.id } })
        const number = String(data[0].account_holders[0].external_id)
        expect((await gatewayCards(stack, number)).map((card) => card.card_number)).toEqual(["450803****4509"])

        // 2. The next cart, paid in one step with the saved card: the bank's page, the SMS code, the order.
        await signIn("/tr/checkout?method=saved")
        const choice = page.getByTestId("sipay-saved-card-choice")
        await choice.waitFor()
        expect(await choice.textContent()).toContain("Visa 450803****4509")
        expect(await axeViolations(page)).toEqual([])
        await page.screenshot({ path: screenshotPath("saved-cards-kit", "2-saved-card-choice"), fullPage: true })
        await page.getByRole("button", { name: "Bu kartla öde" }).click()
        await page.waitForSelector("#sms_code")
        await page.fill("#sms_code", SMS_TEST_CODE)
        await page.screenshot({ path: screenshotPath("saved-cards-kit", "3-bank-page"), fullPage: true })
        await Promise.all([page.waitForURL(/\/tr\/order\/order_[A-Za-z0-9]+\/confirmed$/), page.click("button[type=submit][value=confirm], button[name=action][value=confirm]")])
        const orderId = await page.textContent("#order-id")
        const { data: orders } = await (getContainer().resolve("query") as any).graph({ entity: "order", fields: ["id", "customer_id"], filters: { id: orderId } })
        expect(orders[0].customer_id).toBe(ayse.id)

        // 3. "My cards": deleted after a second click, gone at the gateway.
        await page.goto(`${storefront.url}/tr/account/cards`)
        const list = page.getByTestId("sipay-saved-cards")
        await list.waitFor()
        await page.getByRole("button", { name: "450803****4509 kartını sil" }).click()
        await page.getByRole("button", { name: "450803****4509 kartını sil" }).click()
        await page.getByRole("status").filter({ hasText: "kartı silindi" }).waitFor()
        expect(await list.textContent()).toContain("Kayıtlı kartınız yok.")
        expect(await axeViolations(page)).toEqual([])
        await page.screenshot({ path: screenshotPath("saved-cards-kit", "4-my-cards-after-delete"), fullPage: true })
        expect(await gatewayCards(stack, number)).toEqual([])
      } finally {
        await context.close()
      }
    })
  },
})
