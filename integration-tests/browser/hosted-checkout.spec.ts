import { readFileSync } from "node:fs"
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import type { Browser, Page } from "playwright-core"
import { SMS_TEST_CODE } from "../../src/sandbox"
import { launchBrowser, screenshotPath } from "../harness/browser"
import { addProducts, seedStore, SeededStore } from "../harness/seed"
import { useSipayStack } from "../harness/stack"
import { callHostedPage, createCart, storeHeaders, hostedPageUrl as signedHostedPageUrl, PAYING_CARD, startPaymentSession } from "../harness/shopper"

jest.setTimeout(300 * 1000)

const stack = useSipayStack()
const AXE_SOURCE = readFileSync(require.resolve("axe-core"), "utf8")

async function axeViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: AXE_SOURCE })
  const violations = await page.evaluate(async () => {
    const result = await (window as any).axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21aa", "best-practice"] } })
    return result.violations as { id: string; help: string }[]
  })
  return violations.map((v) => `${v.id}: ${v.help}`)
}


medusaIntegrationTestRunner({
  testSuite: ({ api, getContainer }) => {
    let store: SeededStore
    let browser: Browser

    beforeAll(async () => {
      browser = await launchBrowser()
    })
    afterAll(async () => {
      await browser?.close()
    })
    beforeEach(async () => {
      store = await seedStore(getContainer())
    })

    async function hostedPageUrl(lang?: "tr" | "en"): Promise<{ url: string; cartId: string }> {
      const cart = await createCart(api, store)
      const { session } = await startPaymentSession(api, store, cart.id)
      return { url: await signedHostedPageUrl(api, store, session.id, lang), cartId: cart.id }
    }

    it("serves the hosted card page with no-store, a content security policy and frame-ancestors limited to the store", async () => {
      const { url } = await hostedPageUrl()
      const response = await fetch(url)
      expect(response.status).toBe(200)
      expect(response.headers.get("cache-control")).toContain("no-store")
      const csp = response.headers.get("content-security-policy") ?? ""
      expect(csp).toContain(`form-action 'self' ${new URL(stack.sandbox.base_url).origin}`)
      expect(csp).toContain(`frame-ancestors 'self' ${stack.storefrontUrl}`)
      expect(response.headers.get("referrer-policy")).toBe("no-referrer")
      // The token is in the address's fragment, never sent: the page's script posts it for the session's content.
      expect(new URL(url).search).not.toContain("token")
      const content = await callHostedPage(url, "content", { lang: "tr" })
      expect(content.status).toBe(200)
      expect(content.headers.get("cache-control")).toContain("no-store")
      expect(((await content.json()) as { html: string }).html).toContain('autocomplete="cc-number"')
    })

    it.each(["tr", "en"])("the hosted page in %s passes an accessibility check of its form", async (lang) => {
      const { url } = await hostedPageUrl(lang as "tr" | "en")
      const context = await browser.newContext({ bypassCSP: true })
      const page = await context.newPage()
      await page.goto(url)
      await page.waitForSelector("#card-form")
      expect(await page.getAttribute("html", "lang")).toBe(lang)
      expect(await axeViolations(page)).toEqual([])
      await page.fill("#cc_no", "4508034508034509")
      await page.waitForSelector("#installment-3")
      expect(await axeViolations(page)).toEqual([])
      await page.screenshot({ path: screenshotPath(`hosted page ${lang}`, "installments"), fullPage: true })
      await context.close()
    })

    it("a shopper pays on the hosted page with installments, the bank's SMS page, and lands on the storefront with an order", async () => {
      const { url, cartId } = await hostedPageUrl()
      const context = await browser.newContext({ locale: "tr-TR" })
      const page = await context.newPage()
      const problems: string[] = []
      page.on("console", (message) => /Content Security Policy/i.test(message.text()) && problems.push(message.text()))

      await page.goto(url)
      await page.fill("#cc_holder_name", PAYING_CARD.cc_holder_name)
      await page.fill("#cc_no", PAYING_CARD.cc_no)
      await page.selectOption("#expiry_month", PAYING_CARD.expiry_month).catch(() => page.fill("#expiry_month", PAYING_CARD.expiry_month))
      await page.selectOption("#expiry_year", PAYING_CARD.expiry_year).catch(() => page.fill("#expiry_year", PAYING_CARD.expiry_year))
      await page.fill("#cvv", PAYING_CARD.cvv)
      await page.check("#installment-3")
      await page.screenshot({ path: screenshotPath("hosted checkout", "1-card"), fullPage: true })
      await Promise.all([page.waitForURL(`${stack.sandbox.base_url}/**`), page.click("#pay-button")])
      await page.waitForSelector("#sms_code")
      await page.screenshot({ path: screenshotPath("hosted checkout", "2-bank-page"), fullPage: true })
      await page.fill("#sms_code", SMS_TEST_CODE)
      await Promise.all([page.waitForURL(`${stack.storefrontUrl}/**`), page.click("button.confirm")])
      await page.screenshot({ path: screenshotPath("hosted checkout", "3-storefront"), fullPage: true })
      const landing = new URL(page.url())
      const orderId = landing.pathname.split("/").pop()
      expect(orderId).toMatch(/^order_/)
      expect(problems).toEqual([])

      const query = getContainer().resolve(ContainerRegistrationKeys.QUERY)
      const { data } = await query.graph({ entity: "cart", fields: ["order.id", "order.payment_collections.payments.*"], filters: { id: cartId } })
      const payment = (data[0] as any).order.payment_collections[0].payments[0]
      expect((data[0] as any).order.id).toBe(orderId)
      expect(payment.captured_at).toBeTruthy()
      expect(payment.data.installments).toBe(3)
      await context.close()
    })

    it("a recurring product's hosted page shows its charge plan (tr, en) and no installments, and the shopper pays it in one payment", async () => {
      const [product] = await addProducts(getContainer(), store, [
        { title: "Aylık kahve / Monthly coffee", price: 900, metadata: { sipay_recurring: { cycle: "M", interval: 1, payment_number: 12 } } },
      ])
      const { data } = await api.post("/store/carts", { region_id: store.regionId, email: "ayse@example.com", items: [{ variant_id: product.variantId, quantity: 1 }] }, storeHeaders(store))
      const cart = data.cart as { id: string; total: number }
      const { session } = await startPaymentSession(api, store, cart.id)
      const money = (locale: string) => new Intl.NumberFormat(locale, { style: "currency", currency: "TRY" }).format(cart.total)
      expect(money("tr-TR")).toBe("₺900,00")

      for (const [lang, words] of [["en", `12 x ${money("en-US")}, every month`], ["tr", "12 x ₺900,00, her ay"]] as const) {
        const url = await signedHostedPageUrl(api, store, session.id, lang)
        const context = await browser.newContext({ locale: lang === "tr" ? "tr-TR" : "en-US" })
        const page = await context.newPage()
        await page.goto(url)
        await page.waitForSelector("#plan-text")
        expect((await page.textContent("#plan-text"))?.trim()).toBe(words)
        await page.fill("#cc_no", PAYING_CARD.cc_no)
        // The BIN is typed: still no installment to choose (the page asks for none).
        expect(await page.isVisible("#installments")).toBe(false)
        expect(await page.$$eval("input[name=installment]", (inputs) => inputs.map((input) => (input as HTMLInputElement).value))).toEqual(["1"])
        await page.screenshot({ path: screenshotPath(`recurring plan ${lang}`, "card"), fullPage: true })
        if (lang === "tr") {
          await page.fill("#cc_holder_name", PAYING_CARD.cc_holder_name)
          await page.selectOption("#expiry_month", PAYING_CARD.expiry_month).catch(() => page.fill("#expiry_month", PAYING_CARD.expiry_month))
          await page.selectOption("#expiry_year", PAYING_CARD.expiry_year).catch(() => page.fill("#expiry_year", PAYING_CARD.expiry_year))
          await page.fill("#cvv", PAYING_CARD.cvv)
          await Promise.all([page.waitForURL(`${stack.sandbox.base_url}/**`), page.click("#pay-button")])
          await page.fill("#sms_code", SMS_TEST_CODE)
          await Promise.all([page.waitForURL(`${stack.storefrontUrl}/**`), page.click("button.confirm")])
          expect(new URL(page.url()).pathname.split("/").pop()).toMatch(/^order_/)
        }
        await context.close()
      }
      // A second shopper's cart: the hosted page's installments route offers single payment only, with the plan.
      const second = (await api.post("/store/carts", { region_id: store.regionId, items: [{ variant_id: product.variantId, quantity: 1 }] }, storeHeaders(store))).data.cart
      const secondSession = (await startPaymentSession(api, store, second.id)).session
      const offer = await callHostedPage(await signedHostedPageUrl(api, store, secondSession.id), "installments", { bin: "450803" })
      expect(await offer.json()).toMatchObject({ installments: [{ installments_number: 1 }], agricultural: null, recurring_plan: { payment_number: 12, cycle: "M", interval: 1, currency_code: "TRY" } })
      // A storefront that still sends an installment count is told in the shopper's language, not a developer's text.
      const refused = await api
        .post(`/store/sipay/payment-sessions/${secondSession.id}/3d-form`, { cart_id: second.id, installments_number: 3, locale: "tr" }, storeHeaders(store))
        .catch((error) => error.response)
      expect(refused.status).toBe(400)
      expect(refused.data).toEqual({ type: "invalid_data", code: "recurring_no_installments", message: "Tekrarlı ödeme taksitle ödenemez; planındaki takvimle kartınızdan çekilir. Lütfen tek çekimi seçin." })
      const plan = await api.get(`/store/sipay/carts/${second.id}/recurring-plan`, storeHeaders(store))
      expect(plan.data.recurring_plan).toMatchObject({ payment_number: 12, cycle: "M", interval: 1, currency_code: "TRY" })
    })
  },
})
