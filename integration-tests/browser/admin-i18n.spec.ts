import type { Browser, Page } from "playwright-core"
import { en } from "../../src/admin/i18n/en"
import { tr } from "../../src/admin/i18n/tr"
import { launchBrowser, screenshotPath } from "../harness/browser"
import { DemoReady, freshDemoPlace, RunningDemo, startDemo } from "../harness/demo-stack"
import type { SeededStore } from "../harness/seed"
import { createCart, issueThreeDForm, payAtGateway, returnToStore, startPaymentSession } from "../harness/shopper"

// The plugin's admin in Turkish and in English, in real Chromium against the demo (one boot): the
// Sales, Payment links, Recurring plans and Sipay settings pages and the order widget. A missing-key
// handler fails the test: the plugin's t() reports every key absent in the user's language
// (window.__sipayMissingKeys and a console error), and no raw `sipay.*` key may show. In Turkish, no
// English text of the plugin may remain on a page. Gateway data, product names and server errors are
// not the plugin's texts and are not checked. Screenshots go to the browser screenshots folder.

jest.setTimeout(1200 * 1000)

function storeApi(baseUrl: string) {
  const call = async (method: string, url: string, body?: unknown, config?: any) => {
    const response = await fetch(`${baseUrl}${url}`, {
      method,
      headers: { "content-type": "application/json", ...(config?.headers ?? {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const data = await response.json().catch(() => null)
    if (!response.ok) throw new Error(`${method} ${url} answered ${response.status}: ${JSON.stringify(data)}`)
    return { status: response.status, data }
  }
  return { get: (url: string, config?: unknown) => call("GET", url, undefined, config), post: (url: string, body?: unknown, config?: unknown) => call("POST", url, body, config) }
}

/** One paid 3D order in the demo store, for the order widget. */
async function paidOrder(ready: DemoReady): Promise<string> {
  const api = storeApi(ready.store_url)
  const { data } = await api.get(`/store/products?fields=id,title,*variants&region_id=${ready.region_id}`, { headers: { "x-publishable-api-key": ready.publishable_key } })
  const store: SeededStore = {
    regionId: ready.region_id,
    salesChannelId: "",
    publishableKey: ready.publishable_key,
    products: data.products.map((p: any) => ({ id: p.id, variantId: p.variants[0].id, title: p.title, price: 0 })),
  }
  const cart = await createCart(api, store, [1])
  const { session } = await startPaymentSession(api, store, cart.id)
  const landing = await returnToStore(await payAtGateway(await issueThreeDForm(api, store, session.id)))
  const orderId = /order_[A-Za-z0-9]+/.exec(landing.href)?.[0]
  if (!orderId) throw new Error(`the payment did not land on an order: ${landing.href}`)
  return orderId
}

/** Every text of a dictionary, flattened (placeholders cut out, so a text's fixed parts can be looked for). */
function texts(tree: Record<string, unknown>, prefix = ""): Map<string, string> {
  const out = new Map<string, string>()
  for (const [name, value] of Object.entries(tree)) {
    if (value && typeof value === "object") for (const [k, v] of texts(value as Record<string, unknown>, `${prefix}${name}.`)) out.set(k, v)
    else out.set(`${prefix}${name}`, String(value))
  }
  return out
}

/** English sentences of the plugin that differ from their Turkish text: none may be seen in Turkish mode. */
const ENGLISH_ONLY = (() => {
  const turkish = texts(tr)
  return [...texts(en)]
    // sales.creditCard is also the gateway's own label of its payment type (gateway data, shown raw in the sale drawer).
    .filter(([key, text]) => key !== "sales.creditCard" && !text.includes("{{") && text !== turkish.get(key) && text.length >= 8 && /\s/.test(text))
    .map(([, text]) => text)
})()

describe("admin: every plugin page in Turkish and in English", () => {
  const place = freshDemoPlace()
  let demo: RunningDemo
  let browser: Browser
  let orderId: string

  beforeAll(async () => {
    demo = await startDemo(place, { timeoutMs: 900 * 1000 })
    browser = await launchBrowser()
    orderId = await paidOrder(demo.ready)
  })

  afterAll(async () => {
    await browser?.close()
    await demo?.stop()
    await place.dispose()
  })

  async function adminIn(language: "tr" | "en"): Promise<{ page: Page; problems: string[] }> {
    const context = await browser.newContext({ locale: language === "tr" ? "tr-TR" : "en-US", timezoneId: "Europe/Berlin", viewport: { width: 1440, height: 1000 } })
    const admin = new URL(demo.ready.admin_url)
    // The dashboard reads the language from its "lng" cookie first (then localStorage), as its language setting stores it.
    await context.addCookies([{ name: "lng", value: language, domain: admin.hostname, path: "/" }])
    await context.addInitScript((lng) => window.localStorage.setItem("lng", lng), language)
    const page = await context.newPage()
    page.setDefaultTimeout(180 * 1000)
    const problems: string[] = []
    page.on("console", (message) => {
      if (message.text().includes("[sipay-i18n]")) problems.push(message.text())
    })
    await page.goto(demo.ready.admin_url)
    await page.fill('input[name="email"]', demo.ready.admin_email)
    await page.fill('input[name="password"]', demo.ready.admin_password)
    await Promise.all([page.waitForURL(/\/app\/orders/), page.click('button[type="submit"]')])
    return { page, problems }
  }

  /** The page's text holds no missing key and, in Turkish, none of the plugin's English sentences. */
  async function checkPage(page: Page, problems: string[], language: "tr" | "en", where: string) {
    await page.waitForLoadState("networkidle")
    const body = await page.locator("body").innerText()
    const missing = await page.evaluate(() => (window as unknown as { __sipayMissingKeys?: string[] }).__sipayMissingKeys ?? [])
    expect({ where, missing, logged: problems }).toEqual({ where, missing: [], logged: [] })
    expect({ where, rawKeys: body.match(/\bsipay\.[a-zA-Z]+\.[\w.]+/g) ?? [] }).toEqual({ where, rawKeys: [] })
    if (language === "tr") {
      expect({ where, english: ENGLISH_ONLY.filter((text) => body.includes(text)) }).toEqual({ where, english: [] })
    }
  }

  for (const language of ["tr", "en"] as const) {
    it(`walks the plugin's pages and the order widget in ${language === "tr" ? "Turkish" : "English"}`, async () => {
      const dictionary = language === "tr" ? tr : en
      const test = `admin i18n ${language}`
      const { page, problems } = await adminIn(language)

      // The sidebar names the plugin's pages in the user's language.
      await page.getByRole("link", { name: dictionary.sales.menu, exact: true }).click()
      await page.waitForURL(/\/app\/sales/)
      await page.getByRole("heading", { name: dictionary.sales.title }).waitFor()
      await page.getByTestId("sales-count").filter({ hasNotText: dictionary.common.loading }).waitFor()
      await page.click("#sales-sync")
      await page.getByTestId("sales-source").filter({ hasText: dictionary.sales.lastSynced.split("{{")[0] }).waitFor()
      await page.locator("tr [data-invoice-id]").first().waitFor()
      expect(await page.locator("thead").first().innerText()).toContain(dictionary.sales.columns.commission)
      await page.screenshot({ path: screenshotPath(test, "1-sales"), fullPage: true })
      await checkPage(page, problems, language, "sales")
      await page.locator("tr button[data-invoice-id]").first().click()
      await page.getByTestId("sale-drawer").getByText(dictionary.sales.inMedusa).waitFor()
      await page.screenshot({ path: screenshotPath(test, "2-sale-drawer"), fullPage: true })
      await checkPage(page, problems, language, "sale drawer")
      await page.keyboard.press("Escape")

      await page.getByRole("link", { name: dictionary.paymentLinks.menu, exact: true }).click()
      await page.waitForURL(/\/app\/payment-links/)
      await page.getByRole("heading", { name: dictionary.paymentLinks.title }).waitFor()
      await page.getByTestId("links-empty").waitFor()
      await checkPage(page, problems, language, "payment links")
      await page.getByRole("button", { name: dictionary.paymentLinks.create }).first().click()
      await page.getByText(dictionary.paymentLinks.createTitle).waitFor()
      // Leaving a required field empty shows its message in the user's language.
      await page.focus("#link-name")
      await page.focus("#link-description")
      await page.getByText(dictionary.paymentLinks.required.name_of_product).waitFor()
      await page.screenshot({ path: screenshotPath(test, "3-payment-link-create"), fullPage: true })
      await checkPage(page, problems, language, "create payment link")
      await page.keyboard.press("Escape")

      await page.getByRole("link", { name: dictionary.recurring.menu, exact: true }).click()
      await page.waitForURL(/\/app\/recurring-plans/)
      await page.getByRole("heading", { name: dictionary.recurring.title }).waitFor()
      await page.getByText(dictionary.recurring.none).waitFor()
      await page.screenshot({ path: screenshotPath(test, "4-recurring-plans"), fullPage: true })
      await checkPage(page, problems, language, "recurring plans")

      await page.goto(`${demo.ready.admin_url}/settings/sipay`)
      await page.getByRole("heading", { name: dictionary.settings.title }).waitFor()
      await page.getByRole("button", { name: dictionary.settings.testConnection }).click()
      await page.getByTestId("connected-brand").waitFor()
      await page.screenshot({ path: screenshotPath(test, "5-settings"), fullPage: true })
      await checkPage(page, problems, language, "settings")

      await page.goto(`${demo.ready.admin_url}/orders/${orderId}`)
      const widget = page.getByTestId("sipay-order-payment")
      await widget.getByTestId("sipay-status").waitFor()
      const widgetText = await widget.innerText()
      expect(widgetText).toContain(dictionary.orderPayment.title)
      expect(widgetText).toContain(dictionary.orderPayment.attempts)
      // Medusa's own payment section prints the provider id; the widget names the provider and its flow.
      expect(await widget.getByTestId("sipay-provider").innerText()).toBe(dictionary.orderPayment.provider3d)
      // Amounts in the user's locale: Turkish writes the decimal comma.
      expect(widgetText).toMatch(language === "tr" ? /\d,\d\d TRY/ : /\d\.\d\d TRY/)
      await page.screenshot({ path: screenshotPath(test, "6-order-widget"), fullPage: true })
      await checkPage(page, problems, language, "order widget")
      await page.context().close()
    })
  }
})
