import { createServer, Server } from "node:http"
import Medusa from "@medusajs/js-sdk"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import type { Browser, BrowserContext, Page } from "playwright-core"
import {
  ensurePaymentSession,
  getInstallmentOptions,
  payDirect,
  retrieveCartState,
  retrieveOrder,
  SIPAY_2D_PROVIDER_ID,
  SIPAY_3D_PROVIDER_ID,
  startHostedPayment,
  startThreeDForm,
  waitForPaymentOutcome,
  type PaymentStatus,
  type SdkLike,
} from "../../packages/storefront/src"
import { formatMoney, SHOPPER_MESSAGES } from "../../packages/storefront/src"
import { hasCompletedCart, signClientAddress } from "../../packages/storefront/src/server"
import { MESSAGES } from "../../packages/storefront/src/react/messages"
import { SMS_TEST_CODE } from "../../src/sandbox"
import { launchBrowser, screenshotPath } from "../harness/browser"
import { axeViolations } from "../harness/demo-axe"
import { addProducts, seedStore, SeededStore } from "../harness/seed"
import { createCart, DECLINING_CARD, PAYING_CARD, payAtGateway, returnToStore, storeHeaders, waitFor } from "../harness/shopper"
import { useSipayStack } from "../harness/stack"
import { updateCheckoutSettingsWorkflow } from "../../src/workflows/steps/save-checkout-settings"
import { startTestStorefront, TestStorefront } from "./test-storefront"

jest.setTimeout(300 * 1000)

const STOREFRONT_SECRET = "storefront-kit-test-secret-0001"
const AGRICULTURAL_CARD = "9792090000000004"
const SHOPPER_IP = "203.0.113.7"

// The test storefront must be up before the stack's beforeAll reads its address: this hook is declared first.
let storefront: TestStorefront
const env: Record<string, string> = {}
beforeAll(async () => {
  storefront = await startTestStorefront()
  Object.assign(env, {
    STOREFRONT_URL: storefront.url,
    // The kit's success route drops the cart cookie; the failure URL is the plugin's default (the starter's payment step).
    SIPAY_SUCCESS_URL: `${storefront.url}/api/sipay/success?order_id={order_id}&country_code={country_code}`,
    SIPAY_FAILURE_URL: "",
    SIPAY_STOREFRONT_SECRET: STOREFRONT_SECRET,
    SIPAY_AGRICULTURAL_INSTALLMENTS: "true",
    // The plugin's default per-address limits (30 attempts ended unpaid per client in 10 minutes): the own
    // 3D form's shoppers must each be counted as themselves, not as the storefront server.
    SIPAY_RATE_LIMITS: JSON.stringify({ windowSeconds: 600, perAddress: 30 }),
    // The gateway's answer waited for at most 8 s (the sandbox's default is 30 s): the confirming case times out sooner.
    SIPAY_TIMEOUT_MS: "8000",
  })
})
afterAll(async () => {
  await storefront?.close()
})
const stack = useSipayStack({ env })

medusaIntegrationTestRunner({
  testSuite: ({ api, getContainer, dbUtils }) => {
    let store: SeededStore
    let sdk: SdkLike
    let browser: Browser

    beforeAll(async () => {
      browser = await launchBrowser()
      // One store for every test: seeded once, then part of the database template each test starts from.
      store = await seedStore(getContainer())
      await dbUtils.snapshot()
      sdk = new Medusa({ baseUrl: stack.backendUrl, publishableKey: store.publishableKey })
      storefront.configure({ backendUrl: stack.backendUrl, publishableKey: store.publishableKey, storefrontSecret: STOREFRONT_SECRET, regionId: store.regionId, products: store.products })
    })
    afterAll(async () => {
      await browser?.close()
    })

    async function newCart() {
      const created = await createCart(api, store)
      const { cart } = await sdk.client.fetch<{ cart: any }>(`/store/carts/${created.id}`, { query: { fields: "id,total,currency_code,*payment_collection,*payment_collection.payment_sessions" } })
      return cart as { id: string; total: number; currency_code: string; payment_collection?: any }
    }

    async function orderOfCart(cartId: string) {
      const query = getContainer().resolve(ContainerRegistrationKeys.QUERY)
      const { data } = await query.graph({ entity: "cart", fields: ["order.id", "order.customer_id", "order.payment_collections.payments.*"], filters: { id: cartId } })
      return (data[0] as any)?.order as { id: string; customer_id: string | null; payment_collections: { payments: any[] }[] } | undefined
    }

    async function gatewaySales(): Promise<any[]> {
      return (await fetch(`${stack.sandbox.link_base}/__sandbox/sales`)).json()
    }

    describe("helpers over the JS SDK, against the Medusa app", () => {
      it("start a hosted-page payment: a session is created once, the signed address opens the page, another cart's id opens nothing", async () => {
        const cart = await newCart()
        const first = await startHostedPayment(sdk, { cart, lang: "tr" })
        // The token in the fragment: no request carries it, so no server or proxy logs it.
        expect(first.url).toMatch(new RegExp(`^${stack.backendUrl}/sipay/checkout/${first.session_id}\\?lang=tr#token=`))
        const page = await fetch(first.url)
        expect(page.status).toBe(200)
        const content = await fetch(`${stack.backendUrl}/sipay/checkout/${first.session_id}/content`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ token: new URLSearchParams(new URL(first.url).hash.slice(1)).get("token"), lang: "tr" }),
        })
        expect(((await content.json()) as { html: string }).html).toContain('autocomplete="cc-number"')

        const { cart: withSession } = await sdk.client.fetch<{ cart: any }>(`/store/carts/${cart.id}`, { query: { fields: "id,*payment_collection,*payment_collection.payment_sessions" } })
        const again = await startHostedPayment(sdk, { cart: withSession })
        expect(again.session_id).toBe(first.session_id)
        expect((await ensurePaymentSession(sdk, withSession, SIPAY_3D_PROVIDER_ID)).id).toBe(first.session_id)

        const other = await newCart()
        await expect(startHostedPayment(sdk, { cart: { ...other, payment_collection: withSession.payment_collection } })).rejects.toMatchObject({ status: 404 })
      })

      it("installment options by BIN: counts with amounts for a card, the agricultural terms for an agricultural card", async () => {
        const cart = await newCart()
        const plain = await getInstallmentOptions(sdk, { bin: "4508034508", amount: cart.total, currencyCode: cart.currency_code })
        expect(plain.installments.map((option) => option.installments_number)).toEqual([1, 2, 3, 6, 9, 12])
        expect(plain.agricultural).toBeNull()
        const agricultural = await getInstallmentOptions(sdk, { bin: AGRICULTURAL_CARD.slice(0, 6), amount: cart.total, currencyCode: "try" })
        expect(agricultural.agricultural).toEqual({ maturity_periods: [3, 6, 9, 12], payment_frequencies: [1, 3, 6] })
        await expect(getInstallmentOptions(sdk, { bin: "4508", amount: 1, currencyCode: "TRY" })).rejects.toThrow(/6 to 8 digits/)
      })

      it("a card form of the store's own gets signed fields for the choice, which the gateway accepts", async () => {
        const cart = await newCart()
        const signedFor = (sessionId: string) => signClientAddress({ secret: STOREFRONT_SECRET, ip: SHOPPER_IP, sessionId })
        const form = await startThreeDForm(sdk, { cart, choice: { installments_number: 3 }, headers: signedFor })
        // The shopper's own address, signed by the storefront server for the session the helper created.
        expect(form.fields.ip).toBe(SHOPPER_IP)
        expect(form.action).toBe(`${stack.sandbox.base_url}/api/paySmart3D`)
        expect(form.fields).toMatchObject({ installments_number: "3" })
        expect(Object.keys(form.fields)).not.toEqual(expect.arrayContaining(["cc_no", "cvv"]))
        const landing = await returnToStore(await payAtGateway({ action: form.action, fields: form.fields }))
        expect(landing.pathname).toBe("/api/sipay/success")
        expect(landing.searchParams.get("country_code")).toBe("tr")
        expect(landing.searchParams.get("order_id")).toBe((await orderOfCart(cart.id))!.id)
        expect(await retrieveCartState(sdk, cart.id)).toEqual({ completed: true })
        expect((await retrieveOrder(sdk, landing.searchParams.get("order_id")!)).id).toBe(landing.searchParams.get("order_id"))
      })

      it("direct payment: a decline comes back as failed with its class's text (never the gateway's reason), the retry pays, and the signed shopper address reaches the gateway", async () => {
        const cart = await newCart()
        const card = { holder_name: PAYING_CARD.cc_holder_name, number: DECLINING_CARD.cc_no, expiry_month: PAYING_CARD.expiry_month, expiry_year: PAYING_CARD.expiry_year, cvv: "000" }
        const signedFor = (sessionId: string) => signClientAddress({ secret: STOREFRONT_SECRET, ip: SHOPPER_IP, sessionId })
        const declined = await payDirect(sdk, { cart, card, choice: { installments_number: 3 }, headers: signedFor })
        expect(declined).toMatchObject({ status: "failed", code: "card_declined", message: SHOPPER_MESSAGES.card_declined.tr })
        const inEnglish = await payDirect(sdk, { cart, card, choice: { installments_number: 1 }, locale: "en", headers: signedFor })
        expect(inEnglish).toMatchObject({ status: "failed", code: "card_declined", message: SHOPPER_MESSAGES.card_declined.en })
        expect(await retrieveCartState(sdk, cart.id)).toEqual({ completed: false })

        const { cart: again } = await sdk.client.fetch<{ cart: any }>(`/store/carts/${cart.id}`, { query: { fields: "id,*payment_collection,*payment_collection.payment_sessions" } })
        const paid = await payDirect(sdk, { cart: again, card: { ...card, number: PAYING_CARD.cc_no }, choice: { installments_number: 3 }, headers: signedFor })
        expect(paid).toMatchObject({ status: "paid" })
        const order = await orderOfCart(cart.id)
        expect(paid.status === "paid" && paid.order_id).toBe(order!.id)
        expect(order!.payment_collections[0].payments[0]).toMatchObject({ provider_id: SIPAY_2D_PROVIDER_ID, data: expect.objectContaining({ installments: 3 }) })
        const sales = await gatewaySales()
        expect(sales.slice(-2).map((sale) => sale.payer?.ip)).toEqual([SHOPPER_IP, SHOPPER_IP])

        // A signature under another secret is not believed: the gateway gets the storefront server's own address.
        const other = await newCart()
        const forged = (sessionId: string) => signClientAddress({ secret: "not-the-storefront-secret", ip: "198.51.100.1", sessionId })
        await payDirect(sdk, { cart: other, card: { ...card, number: PAYING_CARD.cc_no }, choice: { installments_number: 1 }, headers: forged })
        expect((await gatewaySales()).at(-1).payer.ip).not.toBe("198.51.100.1")
      })

      it("direct payment needs the cart's holder: an older kit's body (no cart_id) is told to upgrade, another cart's id is an unknown session", async () => {
        const cart = await newCart()
        const session = await ensurePaymentSession(sdk, cart, SIPAY_2D_PROVIDER_ID)
        const card = { holder_name: PAYING_CARD.cc_holder_name, number: PAYING_CARD.cc_no, expiry_month: PAYING_CARD.expiry_month, expiry_year: PAYING_CARD.expiry_year, cvv: "000" }
        const pay = (body: Record<string, unknown>) => sdk.client.fetch(`/store/sipay/payment-sessions/${session.id}/pay-2d`, { method: "POST", body })
        await expect(pay({ installments_number: 1, card })).rejects.toMatchObject({ status: 400, message: expect.stringMatching(/upgrade it together with medusa-plugin-sipay/) })
        await expect(pay({ cart_id: (await newCart()).id, installments_number: 1, card })).rejects.toMatchObject({ status: 404 })
        expect(await retrieveCartState(sdk, cart.id)).toEqual({ completed: false })
      })

      it("a middleware's check: a completed cart's cookie only, asked past any cache; no cookie asks nothing, an unknown cart keeps its cookie", async () => {
        const cart = await newCart()
        const request = (cookie: string) => new Request(`${storefront.url}/tr/cart`, { headers: { cookie } })
        const options = { backendUrl: stack.backendUrl, publishableKey: store.publishableKey }
        expect(await hasCompletedCart(request(`_medusa_cart_id=${cart.id}`), options)).toBe(false)
        const card = { holder_name: PAYING_CARD.cc_holder_name, number: PAYING_CARD.cc_no, expiry_month: PAYING_CARD.expiry_month, expiry_year: PAYING_CARD.expiry_year, cvv: "000" }
        expect(await payDirect(sdk, { cart, card, choice: { installments_number: 1 } })).toMatchObject({ status: "paid" })
        expect(await hasCompletedCart(request(`other=1; _medusa_cart_id=${cart.id}`), options)).toBe(true)
        expect(await retrieveCartState(sdk, cart.id)).toEqual({ completed: true })
        expect(await hasCompletedCart(request("_medusa_cart_id=cart_01UNKNOWN0000000000000000"), options)).toBe(false)
        expect(await hasCompletedCart(request("_medusa_cart_id=../admin/users"), options)).toBe(false)
        const asked: string[] = []
        const recording = (async (url: string, init?: RequestInit) => (asked.push(url), fetch(url, init))) as typeof fetch
        expect(await hasCompletedCart(request("other=1"), { ...options, fetch: recording })).toBe(false)
        expect(asked).toEqual([])
      })

      it("31 shoppers of one storefront server, each declined, all get their own 3D form, and each reaches the gateway with their own address", async () => {
        const shoppers = Array.from({ length: 31 }, (_, i) => `198.51.100.${i + 10}`)
        const answers: { ip: string; form: boolean; error?: string; payer?: string }[] = []
        for (const ip of shoppers) {
          const cart = await newCart()
          // The storefront's server action, as the browser reaches it through the storefront's proxy.
          const response = await fetch(`${storefront.url}/actions/3d-form`, {
            method: "POST",
            headers: { "content-type": "application/json", cookie: `_medusa_cart_id=${cart.id}`, "x-forwarded-for": ip },
            body: JSON.stringify({ choice: { installments_number: 1 } }),
          })
          const form = (await response.json()) as { action?: string; fields?: Record<string, string>; error?: string }
          if (!form.action || !form.fields) {
            answers.push({ ip, form: false, error: form.error })
            continue
          }
          // Declined at the bank: an attempt that ended unpaid, counted against whoever made it.
          await returnToStore(await payAtGateway({ action: form.action, fields: form.fields }, DECLINING_CARD))
          const sale = (await gatewaySales()).find((candidate) => candidate.invoice_id === form.fields!.invoice_id)
          answers.push({ ip, form: true, payer: sale?.payer?.ip })
        }
        expect(answers.filter((answer) => !answer.form)).toEqual([])
        expect(answers.map((answer) => answer.payer)).toEqual(shoppers)
      })
    })

    describe("React components (React 19) in a storefront's checkout, in Chromium", () => {
      let context: BrowserContext
      let page: Page

      beforeEach(async () => {
        // The shopper's address as the storefront's proxy reports it.
        context = await browser.newContext({ locale: "tr-TR", extraHTTPHeaders: { "x-forwarded-for": SHOPPER_IP } })
        page = await context.newPage()
      })
      afterEach(async () => {
        await context?.close()
      })

      async function openCheckout(method: "hosted" | "form" | "direct") {
        const cart = await newCart()
        await page.goto(`${storefront.url}/test/cart?cart_id=${cart.id}&method=${method}`)
        await page.waitForSelector("main h1")
        expect(await page.textContent("#react-version")).toMatch(/^19\./)
        return cart
      }

      async function fillCard(number: string) {
        await page.getByLabel("Kart üzerindeki isim").fill(PAYING_CARD.cc_holder_name)
        await page.getByLabel("Kart numarası").fill(number)
        await page.getByLabel("Son kullanma ayı (AA)").fill(PAYING_CARD.expiry_month)
        await page.getByLabel("Son kullanma yılı (YYYY)").fill(PAYING_CARD.expiry_year)
        await page.getByLabel("Güvenlik kodu (CVV)").fill(PAYING_CARD.cvv)
      }

      async function confirmAtBank() {
        await page.waitForSelector("#sms_code")
        await page.fill("#sms_code", SMS_TEST_CODE)
        await Promise.all([page.waitForURL(`${storefront.url}/**`), page.click("button.confirm")])
      }

      /** From the checkout's pay button through the hosted page to the bank's page. */
      async function reachBankPage(number: string) {
        await Promise.all([page.waitForURL(`${stack.backendUrl}/sipay/checkout/**`), page.getByRole("button", { name: MESSAGES.tr.pay }).click()])
        await page.fill("#cc_holder_name", PAYING_CARD.cc_holder_name)
        await page.fill("#cc_no", number)
        await page.fill("#expiry_month", PAYING_CARD.expiry_month)
        await page.fill("#expiry_year", PAYING_CARD.expiry_year)
        await page.fill("#cvv", PAYING_CARD.cvv)
        await Promise.all([page.waitForURL(`${stack.sandbox.base_url}/**`), page.click("#pay-button")])
      }

      async function payOnHostedPage(number: string) {
        await reachBankPage(number)
        await confirmAtBank()
      }

      it("3D hosted: the pay button, the hosted page, the bank page, and the landing carries the SameSite=Strict cart cookie, which the success route drops", async () => {
        const cart = await openCheckout("hosted")
        await payOnHostedPage(PAYING_CARD.cc_no)
        await page.waitForURL(`${storefront.url}/tr/order/*/confirmed`)
        const order = await orderOfCart(cart.id)
        expect(await page.textContent("#order-id")).toBe(order!.id)
        await page.screenshot({ path: screenshotPath("storefront kit 3D hosted", "confirmed"), fullPage: true })

        // The landing after the bank page (a cross-site chain: gateway 127.0.0.1 -> backend localhost) carried the strict cookie.
        const landing = storefront.requests.filter((request) => request.path.startsWith("/api/sipay/success")).at(-1)!
        expect(landing.path).toBe(`/api/sipay/success?order_id=${order!.id}&country_code=tr`)
        expect(landing.cookie).toContain(`_medusa_cart_id=${cart.id}`)
        // The success route dropped it: the next "Add to cart" starts a new cart.
        expect((await context.cookies(storefront.url)).map((cookie) => cookie.name)).not.toContain("_medusa_cart_id")
        expect(order!.payment_collections[0].payments[0].captured_at).toBeTruthy()
      })

      it("control: a plain 303 chain started on the gateway's site arrives without the SameSite=Strict cookie", async () => {
        const cart = await openCheckout("hosted")
        // The old 3D return: the gateway's page (127.0.0.1) posts to a server that answers 303 to the storefront.
        const redirector: Server = createServer((req, res) => {
          if (req.method === "POST") {
            res.writeHead(303, { location: `${storefront.url}/api/sipay/success?order_id=order_CONTROL&country_code=tr` })
            return res.end()
          }
          res.writeHead(200, { "content-type": "text/html" })
          res.end(`<!doctype html><title>Gateway</title><form method="post" action="/return"><button>Return</button></form>`)
        })
        await new Promise<void>((done) => redirector.listen(0, "127.0.0.1", () => done()))
        try {
          await page.goto(`http://127.0.0.1:${(redirector.address() as { port: number }).port}/`)
          await Promise.all([page.waitForURL(`${storefront.url}/**`), page.click("button")])
          const landing = storefront.requests.filter((request) => request.path.includes("order_CONTROL")).at(-1)!
          expect(landing.cookie).not.toContain("_medusa_cart_id")
          // The cookie is still in the browser: it was withheld, not lost.
          expect((await context.cookies(storefront.url)).find((cookie) => cookie.name === "_medusa_cart_id")?.value).toBe(cart.id)
        } finally {
          await new Promise((done) => redirector.close(done))
        }
      })

      it("decline shown on the payment step (the default failure URL, reached with the cart cookie), then a retry pays", async () => {
        const cart = await openCheckout("hosted")
        await payOnHostedPage(DECLINING_CARD.cc_no)
        await page.waitForURL(`${storefront.url}/tr/checkout?**`)
        const alert = page.getByRole("alert")
        await alert.waitFor()
        // The class's text in Turkish (the shopper's browser is Turkish), never the gateway's English reason.
        expect(await alert.textContent()).toContain(SHOPPER_MESSAGES.card_declined.tr)
        expect(await alert.textContent()).not.toMatch(/Insufficient funds/)
        expect(new URL(page.url()).searchParams.get("cart_id")).toBe(cart.id)
        await page.screenshot({ path: screenshotPath("storefront kit decline then retry", "decline shown"), fullPage: true })
        expect(await axeViolations(page)).toEqual([])
        expect(await orderOfCart(cart.id)).toBeUndefined()

        await payOnHostedPage(PAYING_CARD.cc_no)
        await page.waitForURL(`${storefront.url}/tr/order/*/confirmed`)
        expect(await page.textContent("#order-id")).toBe((await orderOfCart(cart.id))!.id)
      })

      it("3D with the store's own card form: 3 installments, a real form post of the card and the signed fields to the gateway", async () => {
        const cart = await openCheckout("form")
        const posted: string[] = []
        page.on("request", (request) => request.method() === "POST" && request.url().startsWith(stack.sandbox.base_url) && posted.push(request.postData() ?? ""))
        await fillCard(PAYING_CARD.cc_no)
        await page.locator('[data-installments="3"]').check()
        // The row says what each installment is and the total, in Turkish money; the brand is the gateway's for the BIN.
        expect(cart.total).toBe(719.8)
        expect(await page.locator("label", { has: page.locator('[data-installments="3"]') }).textContent()).toBe("3 taksit · 3 × ₺239,93 · toplam ₺719,80")
        expect(await page.locator("label", { has: page.locator('[data-installments="1"]') }).textContent()).toBe("Tek çekim · ₺719,80")
        expect(await page.getByTestId("sipay-card-brand").textContent()).toBe("Kart: Visa")
        expect(await page.getByRole("button", { name: /öde$/ }).textContent()).toBe("₺719,80 öde")
        await page.screenshot({ path: screenshotPath("storefront kit own 3D form", "card and installments"), fullPage: true })
        await Promise.all([page.waitForURL(`${stack.sandbox.base_url}/**`), page.getByRole("button", { name: /öde$/ }).click()])
        const fields = new URLSearchParams(posted[0])
        expect(fields.get("cc_no")).toBe(PAYING_CARD.cc_no)
        expect(fields.get("installments_number")).toBe("3")
        expect(fields.get("hash_key")).toBeTruthy()
        expect([...fields.keys()].some((name) => /installments$/.test(name) && name !== "installments_number")).toBe(false)
        await confirmAtBank()
        await page.waitForURL(`${storefront.url}/tr/order/*/confirmed`)
        const order = await orderOfCart(cart.id)
        expect(order!.payment_collections[0].payments[0].data.installments).toBe(3)
      })

      it("agricultural card: the form offers its maturity and frequency terms, and the payment carries the chosen ones", async () => {
        const cart = await openCheckout("form")
        await fillCard(AGRICULTURAL_CARD)
        await page.locator('[data-installments="agricultural"]').check()
        await page.getByLabel("Vade (ay)").selectOption("6")
        await page.getByLabel("Ödeme sıklığı (ay)").selectOption("3")
        await page.screenshot({ path: screenshotPath("storefront kit agricultural", "terms"), fullPage: true })
        expect(await axeViolations(page)).toEqual([])
        expect(await page.getByLabel("Vade (ay)").locator("option").allTextContents()).toEqual(["3", "6", "9", "12"])
        const posted: string[] = []
        page.on("request", (request) => request.method() === "POST" && request.url().startsWith(stack.sandbox.base_url) && posted.push(request.postData() ?? ""))
        await Promise.all([page.waitForURL(`${stack.sandbox.base_url}/**`), page.getByRole("button", { name: /öde$/ }).click()])
        const fields = new URLSearchParams(posted[0])
        expect([fields.get("maturity_period"), fields.get("payment_frequency")]).toEqual(["6", "3"])
        await confirmAtBank()
        await page.waitForURL(`${storefront.url}/tr/order/*/confirmed`)
        expect(await orderOfCart(cart.id)).toBeTruthy()
      })

      it("direct (2D) with 3 installments: decline shown in the form, then paid; the gateway gets the shopper's address", async () => {
        const cart = await openCheckout("direct")
        await fillCard(DECLINING_CARD.cc_no)
        await page.locator('[data-installments="3"]').check()
        await page.getByRole("button", { name: /öde$/ }).click()
        const alert = page.getByRole("alert")
        await alert.waitFor()
        expect(await alert.textContent()).toBe(SHOPPER_MESSAGES.card_declined.tr)
        expect(await page.getByLabel("Güvenlik kodu (CVV)").inputValue()).toBe("")
        expect(await axeViolations(page)).toEqual([])

        await page.getByLabel("Kart numarası").fill(PAYING_CARD.cc_no)
        await page.getByLabel("Güvenlik kodu (CVV)").fill(PAYING_CARD.cvv)
        await page.locator('[data-installments="3"]').check()
        await Promise.all([page.waitForURL(`${storefront.url}/tr/order/*/confirmed`), page.getByRole("button", { name: /öde$/ }).click()])
        await page.screenshot({ path: screenshotPath("storefront kit direct", "confirmed"), fullPage: true })
        const order = await orderOfCart(cart.id)
        expect(await page.textContent("#order-id")).toBe(order!.id)
        expect(order!.payment_collections[0].payments[0].data.installments).toBe(3)
        expect((await gatewaySales()).at(-1).payer.ip).toBe(SHOPPER_IP)
        expect((await context.cookies(storefront.url)).map((cookie) => cookie.name)).not.toContain("_medusa_cart_id")
      })

      it("direct payment whose gateway answer is late: the form shows 'confirming' (never a failure, no second pay), asks the status route, and goes to the order page once the gateway settles; one order", async () => {
        const cart = await openCheckout("direct")
        // Another paying card (Mastercard): the suite's other direct payments use the first one up to its per-card limit (5 in 10 minutes).
        await fillCard("5406675406675403")
        // The gateway charges, but answers after the plugin's client has given up waiting (SIPAY_TIMEOUT_MS: 8 s).
        await fetch(`${stack.sandbox.link_base}/__sandbox/faults`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ operation: "paySmart2D", kind: "latency", ms: 9000, times: 1 }) })
        const answers: { status: string }[] = []
        page.on("response", (response) => response.url().endsWith("/actions/payment-status") && response.json().then((body) => answers.push(body), () => undefined))
        const paid = page.waitForURL(`${storefront.url}/tr/order/*/confirmed`, { timeout: 90000 })
        const submittedAt = Date.now()
        const [payAnswer] = await Promise.all([page.waitForResponse((response) => response.url().endsWith("/actions/pay-direct"), { timeout: 30000 }), page.getByRole("button", { name: /öde$/ }).click()])
        const answeredAt = Date.now()
        // A server of the store's own asks too, knowing only the cart (its session looked up): confirming, then paid.
        const seen: PaymentStatus["status"][] = []
        const outcome = waitForPaymentOutcome(sdk, { cartId: cart.id, locale: "en", intervalMs: 2000, timeoutMs: 60000, onStatus: (status) => seen.push(status.status) })
        // payDirect's answer to the form (confirmWithinMs: 0): confirming, in the shopper's language; the cart stays open.
        expect(await payAnswer.json()).toMatchObject({ status: "confirming", code: "payment_confirming", message: SHOPPER_MESSAGES.payment_confirming.tr })
        const confirming = page.getByTestId("sipay-payment-confirming")
        expect(await confirming.textContent()).toBe(SHOPPER_MESSAGES.payment_confirming.tr)
        expect(await page.locator("form button[type=submit]").isDisabled()).toBe(true)
        expect(await page.getByRole("alert").count()).toBe(0)
        await page.screenshot({ path: screenshotPath("storefront kit direct late answer", "confirming"), fullPage: true })
        expect(await axeViolations(page)).toEqual([])
        await paid
        const order = await orderOfCart(cart.id)
        expect(await page.textContent("#order-id")).toBe(order!.id)
        // The page's answers read so far (the last one, paid, may be cut off by the navigation it caused).
        expect(answers[0].status).toBe("confirming")
        expect(answers.every((answer) => answer.status === "confirming" || answer.status === "paid")).toBe(true)
        expect(order!.payment_collections[0].payments).toHaveLength(1)
        expect(await outcome).toMatchObject({ status: "paid", order_id: order!.id, code: null })
        expect(seen[0]).toBe("confirming")
        // The status action dropped the paid cart's cookie, as the guide's does.
        expect((await context.cookies(storefront.url)).map((cookie) => cookie.name)).not.toContain("_medusa_cart_id")
        // For the report (docs/recovery.md), never asserted: the gateway charged 9 s after the submit.
        process.stdout.write(`\n[recovery figures] direct answer timed out: 202 after ${((answeredAt - submittedAt) / 1000).toFixed(1)} s, order page ${((Date.now() - submittedAt) / 1000).toFixed(1)} s after the submit, ${answers.length} status answers\n`)
      })

      it("paid at the bank, the return lost (no sale webhook either), the shopper lands on the failure page: sent to the order; the same page later, its cart completed, goes there too", async () => {
        const cart = await openCheckout("hosted")
        await fetch(`${stack.sandbox.link_base}/__sandbox/faults`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ operation: "sale_webhook", kind: "drop", times: 1 }) })
        await reachBankPage(PAYING_CARD.cc_no)
        // The bank takes the code; the way back to the store is lost.
        let lost = false
        await page.route(`${stack.backendUrl}/sipay/3d/**`, (route) => ((lost = true), route.abort()))
        await page.fill("#sms_code", SMS_TEST_CODE)
        await page.click("button.confirm")
        await waitFor(async () => lost, 10000)
        expect(await orderOfCart(cart.id)).toBeUndefined()
        await page.close()
        page = await context.newPage()
        // The failure URL as the 3D return sends a shopper it could not confirm (the plugin's default template).
        const failure = `${storefront.url}/tr/checkout?step=payment&cart_id=${cart.id}&error=${encodeURIComponent(SHOPPER_MESSAGES.payment_pending.tr)}`
        const landedAt = Date.now()
        await Promise.all([page.waitForURL(`${storefront.url}/tr/order/*/confirmed`, { timeout: 30000 }), page.goto(failure)])
        const onOrderPage = Date.now() - landedAt
        const order = await orderOfCart(cart.id)
        expect(await page.textContent("#order-id")).toBe(order!.id)
        expect((await context.cookies(storefront.url)).map((cookie) => cookie.name)).not.toContain("_medusa_cart_id")
        // Back on the same address later (history, a bookmark): the checkout page itself sends the shopper to the order.
        await page.goto(failure)
        expect(new URL(page.url()).pathname).toBe(`/tr/order/${order!.id}/confirmed`)
        process.stdout.write(`\n[recovery figures] 3D return and webhook lost, failure page: on the order page ${(onOrderPage / 1000).toFixed(1)} s after the page load\n`)
      })

      it("a recurring product's checkout shows its charge plan, never an installment choice, in the direct and own 3D forms", async () => {
        const [product] = await addProducts(getContainer(), store, [{ title: "Aylık kahve", price: 900, metadata: { sipay_recurring: { cycle: "M", interval: 1, payment_number: 12 } } }])
        const { data } = await api.post("/store/carts", { region_id: store.regionId, email: "ayse@example.com", items: [{ variant_id: product.variantId, quantity: 1 }] }, storeHeaders(store))
        for (const method of ["direct", "form"] as const) {
          await page.goto(`${storefront.url}/test/cart?cart_id=${data.cart.id}&method=${method}`)
          const plan = page.getByTestId("sipay-recurring-plan")
          await plan.waitFor()
          expect(await plan.locator("[data-plan-text]").textContent()).toBe("12 x ₺900,00, her ay")
          const offered = page.waitForResponse((response) => response.url().endsWith("/actions/installments"))
          await fillCard(PAYING_CARD.cc_no)
          // The card's BIN asked for its options: still none to choose.
          expect(await (await offered).json()).toMatchObject({ installments: [{ installments_number: 1 }], recurring_plan: { payment_number: 12 } })
          expect(await page.locator("[data-installments]").count()).toBe(0)
          expect(await page.getByText("Taksit seçenekleri").count()).toBe(0)
        }
        await page.screenshot({ path: screenshotPath("storefront kit recurring", "plan"), fullPage: true })
      })

      it("paid, then the bank page's tab closed before the return: the webhook makes the order, and the shopper shops on with the same cookie (no 500, a new cart without the paid item); the old payment page leads to the order", async () => {
        const cart = await newCart()
        await page.goto(`${storefront.url}/test/cart?cart_id=${cart.id}&method=hosted`)
        // The cart page as the shopper saw it before paying: the storefront keeps it in its data cache.
        await page.goto(`${storefront.url}/tr/cart`)
        expect(await page.textContent("#cart-count")).toBe("Cart (3)")
        await page.goto(`${storefront.url}/tr/checkout?step=payment&method=hosted`)
        await Promise.all([page.waitForURL(`${stack.backendUrl}/sipay/checkout/**`), page.getByRole("button", { name: MESSAGES.tr.pay }).click()])
        const hostedPage = page.url()
        await page.fill("#cc_holder_name", PAYING_CARD.cc_holder_name)
        await page.fill("#cc_no", PAYING_CARD.cc_no)
        await page.fill("#expiry_month", PAYING_CARD.expiry_month)
        await page.fill("#expiry_year", PAYING_CARD.expiry_year)
        await page.fill("#cvv", PAYING_CARD.cvv)
        await Promise.all([page.waitForURL(`${stack.sandbox.base_url}/**`), page.click("#pay-button")])
        // The bank takes the code; the way back to the store is lost (the tab closes, the network drops).
        let lost = false
        await page.route(`${stack.backendUrl}/sipay/3d/**`, (route) => ((lost = true), route.abort()))
        await page.fill("#sms_code", SMS_TEST_CODE)
        await page.click("button.confirm")
        await waitFor(async () => lost, 10000)
        await page.close()

        const order = await waitFor(() => orderOfCart(cart.id), 30000)
        expect((await context.cookies(storefront.url)).find((cookie) => cookie.name === "_medusa_cart_id")?.value).toBe(cart.id)

        // Control: the starter without the guide's middleware serves the paid cart from its cache, and "Add to cart" fails.
        storefront.useMiddleware(false)
        const cookie = `_medusa_cart_id=${cart.id}`
        expect(await (await fetch(`${storefront.url}/tr/cart`, { headers: { cookie } })).text()).toContain("Cart (3)")
        const broken = await fetch(`${storefront.url}/tr/cart/add`, {
          method: "POST",
          headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ variant_id: store.products[2].variantId }).toString(),
          redirect: "manual",
        })
        expect(broken.status).toBe(500)
        expect(await broken.text()).toMatch(/already completed/)
        storefront.useMiddleware(true)

        // Back later, same browser, same cookie: an empty cart, and shopping works.
        page = await context.newPage()
        await page.goto(`${storefront.url}/tr/cart`)
        expect(await page.textContent("#cart-count")).toBe("Cart (0)")
        expect(await page.locator("#cart-items li").count()).toBe(0)
        expect((await context.cookies(storefront.url)).map((c) => c.name)).not.toContain("_medusa_cart_id")
        const added = page.waitForResponse((response) => response.url().endsWith("/tr/cart/add"))
        await Promise.all([page.waitForURL(`${storefront.url}/tr/cart`), page.getByRole("button", { name: `Add ${store.products[2].title}` }).click()])
        expect((await added).status()).toBe(303)
        expect(await page.textContent("#cart-count")).toBe("Cart (1)")
        expect(await page.locator("#cart-items li").evaluateAll((items) => items.map((item) => item.getAttribute("data-variant")))).toEqual([store.products[2].variantId])
        const newCartId = (await context.cookies(storefront.url)).find((c) => c.name === "_medusa_cart_id")?.value
        expect(newCartId).toMatch(/^cart_/)
        expect(newCartId).not.toBe(cart.id)
        await page.screenshot({ path: screenshotPath("storefront kit lost redirect", "shopping again"), fullPage: true })

        // The old payment page says it is paid, shows no id of the store's, and leads to the order.
        await page.goto(hostedPage)
        await page.waitForSelector("#paid")
        const text = (await page.textContent("main")) ?? ""
        expect(text).not.toMatch(/payses_|order_|cart_|referans/i)
        await page.screenshot({ path: screenshotPath("storefront kit lost redirect", "paid page"), fullPage: true })
        // Its accessibility, in a context that lets axe's script past the page's content security policy.
        const audit = await browser.newContext({ bypassCSP: true, locale: "tr-TR" })
        const audited = await audit.newPage()
        await audited.goto(hostedPage)
        await audited.waitForSelector("#paid")
        expect(await axeViolations(audited)).toEqual([])
        await audit.close()
        await Promise.all([page.waitForURL(`${storefront.url}/tr/order/*/confirmed`), page.getByRole("link", { name: "Siparişinize gidin" }).click()])
        expect(await page.textContent("#order-id")).toBe(order.id)
        // The new, open cart stays: the success route drops only a completed cart's cookie.
        expect((await context.cookies(storefront.url)).find((c) => c.name === "_medusa_cart_id")?.value).toBe(newCartId)
        expect((await orderOfCart(newCartId!)) ?? null).toBeNull()
      })

      it("a logged-in customer's checkout: the customer's own cart, paid on the hosted page and then by direct payment, each an order of the customer", async () => {
        const email = `musteri-${Date.now()}@example.com`
        const password = "Musteri-sifre-2026"
        const auth = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
          const response = await fetch(`${stack.backendUrl}${path}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) })
          expect(response.status).toBe(200)
          return (await response.json()) as any
        }
        const registered = await auth("/auth/customer/emailpass/register", { email, password })
        const { customer } = await auth("/store/customers", { email, first_name: "Ayşe", last_name: "Yılmaz" }, { authorization: `Bearer ${registered.token}`, "x-publishable-api-key": store.publishableKey })
        const { token } = await auth("/auth/customer/emailpass", { email, password })
        // Logged in, as the starter keeps it: the token in an HttpOnly cookie the storefront's server sends on.
        await context.addCookies([{ name: "_medusa_jwt", value: token, url: storefront.url, httpOnly: true, sameSite: "Strict" }])
        const customerSdk = new Medusa({ baseUrl: stack.backendUrl, publishableKey: store.publishableKey })
        const address = { first_name: "Ayşe", last_name: "Yılmaz", address_1: "İstiklal Cd. 1", city: "İstanbul", country_code: "tr", postal_code: "34430", phone: "5551234567" }
        const customerCart = async () => {
          const { cart } = await customerSdk.store.cart.create(
            { region_id: store.regionId, items: [{ variant_id: store.products[1].variantId, quantity: 1 }], shipping_address: address, billing_address: address },
            {},
            { authorization: `Bearer ${token}` }
          )
          expect(cart).toMatchObject({ customer_id: customer.id, email })
          return cart
        }

        const hostedCart = await customerCart()
        await page.goto(`${storefront.url}/test/cart?cart_id=${hostedCart.id}&method=hosted`)
        await payOnHostedPage(PAYING_CARD.cc_no)
        await page.waitForURL(`${storefront.url}/tr/order/*/confirmed`)
        const hostedOrder = await orderOfCart(hostedCart.id)
        expect(await page.textContent("#order-id")).toBe(hostedOrder!.id)
        expect(hostedOrder!.customer_id).toBe(customer.id)

        const directCart = await customerCart()
        await page.goto(`${storefront.url}/test/cart?cart_id=${directCart.id}&method=direct`)
        await page.waitForSelector("main h1")
        await fillCard(PAYING_CARD.cc_no)
        await page.locator('[data-installments="2"]').check()
        await Promise.all([page.waitForURL(`${storefront.url}/tr/order/*/confirmed`), page.getByRole("button", { name: /öde$/ }).click()])
        const directOrder = await orderOfCart(directCart.id)
        expect(directOrder).toMatchObject({ customer_id: customer.id })
        expect(directOrder!.payment_collections[0].payments[0].data.installments).toBe(2)

        // Both are in the customer's own order list, as the starter's account page reads it.
        const { orders } = await customerSdk.client.fetch<{ orders: { id: string }[] }>("/store/orders", { headers: { authorization: `Bearer ${token}` } })
        expect(orders.map((order) => order.id).sort()).toEqual([hostedOrder!.id, directOrder!.id].sort())
        expect((await context.cookies(storefront.url)).map((c) => c.name)).not.toContain("_medusa_cart_id")
      })

      it("a product page's installment table: per card family, each count as 'n x per installment = total', with the fee the store passes on", async () => {
        const setFees = (installment_fees: Record<string, unknown>) => updateCheckoutSettingsWorkflow(getContainer()).run({ input: { changes: { installment_fees } as never } })
        await setFees({ "3": { mode: "gateway" } })
        try {
          const product = store.products[1]
          await page.goto(`${storefront.url}/tr/products/1`)
          const table = page.getByTestId("sipay-installment-table")
          await table.waitFor()
          expect(await page.textContent("main h1")).toBe(product.title)
          // What the store's route answers for this price (the page's server asked the same), each row as the kit writes it.
          const response = await fetch(`${stack.backendUrl}/store/sipay/installment-table?amount=${product.price.toFixed(2)}&currency_code=TRY`, { headers: { "x-publishable-api-key": store.publishableKey } })
          const expected = (await response.json()) as { table: { card_program: string; options: { installments: number; fee: string; total: string; per_installment: string }[] }[] }
          const families = expected.table.filter((row) => row.options.length > 0)
          expect(families.length).toBeGreaterThanOrEqual(8)
          expect(await table.locator("dl").evaluateAll((rows) => rows.map((row) => row.getAttribute("data-card-program")))).toEqual(families.map((row) => row.card_program))
          const money = (amount: string) => formatMoney(amount, "TRY", "tr")
          for (const family of families) {
            const shown = await table.locator(`dl[data-card-program="${family.card_program}"] dd`).allInnerTexts()
            expect(shown[0]).toBe(`Tek çekim: ${money(product.price.toFixed(2))}`)
            const three = family.options.find((option) => option.installments === 3)
            if (!three) continue
            // The fee is passed on at the gateway's rate: the total is the price plus the fee, in three equal parts to the kuruş.
            expect(Math.round(Number(three.total) * 100)).toBe(Math.round(product.price * 100) + Math.round(Number(three.fee) * 100))
            expect(Math.abs(Math.round(Number(three.per_installment) * 300) - Math.round(Number(three.total) * 100))).toBeLessThanOrEqual(2)
            const fee = Number(three.fee) > 0 ? ` (+${money(three.fee)} vade farkı)` : ""
            expect(shown).toContain(`3 taksit: 3 x ${money(three.per_installment)} = ${money(three.total)}${fee}`)
          }
          expect(families.some((family) => Number(family.options.find((option) => option.installments === 3)?.fee ?? 0) > 0)).toBe(true)
          await page.screenshot({ path: screenshotPath("storefront kit", "product-installment-table"), fullPage: true })
        } finally {
          await setFees({})
        }
      })
    })
  },
})
