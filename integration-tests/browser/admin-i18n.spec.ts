import type { Browser, Page } from "playwright-core"
import { en } from "../../src/admin/i18n/en"
import { tr } from "../../src/admin/i18n/tr"
import { launchBrowser, screenshotPath } from "../harness/browser"
import { adminHeaders, DemoReady, freshDemoPlace, RunningDemo, startDemo } from "../harness/demo-stack"
import type { SeededStore } from "../harness/seed"
import { createCart, issueThreeDForm, payAtGateway, returnToStore, startPaymentSession, waitFor } from "../harness/shopper"

// The plugin's admin in Turkish and in English, in real Chromium against the demo (one boot): the
// Sales page (its rows, its state filter, every sale's drawer), Payment links (the list and a link's
// drawer), Recurring plans (the list and a plan), Sipay settings (with a connection test) and the order
// panels of a partially refunded order, a pre-authorization, a recurring order and a phone order's
// draft. The store holds a sale in each state the admin names, so values are on screen, not only labels.
//
// What is checked is the rendered text (visible text nodes of the page, its drawers and menus; the
// sidebar and <code> elements, which hold names the merchant types, such as option names and URL
// paths, are left out): no missing key (the plugin's t() reports every key absent in the user's
// language), no raw `sipay.*` key, no snake_case token (a raw gateway or API key such as
// merchant_commission), and in Turkish no English word of the gateway's or the plugin's vocabulary
// (states, payment and transaction types, booleans) and none of the plugin's English sentences.
// Customer-facing texts follow the order's locale: the phone order's link and the invoice descriptions.
// The customer page's saved cards (issue 31) are listed and one removed in each language.

jest.setTimeout(1500 * 1000)

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

async function demoStore(ready: DemoReady): Promise<SeededStore> {
  const { data } = await storeApi(ready.store_url).get(`/store/products?fields=id,title,*variants&region_id=${ready.region_id}`, { headers: { "x-publishable-api-key": ready.publishable_key } })
  return {
    regionId: ready.region_id,
    salesChannelId: "",
    publishableKey: ready.publishable_key,
    products: data.products.map((p: any) => ({ id: p.id, variantId: p.variants[0].id, title: p.title, price: 0 })),
  }
}

type Paid = { orderId: string; invoiceId: string; invoiceDescription: string; cartId: string }

/** A signed-in customer of the demo store whose direct checkouts saved these cards (docs/saved-cards.md). */
async function customerWithSavedCards(ready: DemoReady, store: SeededStore, cardNumbers: string[]): Promise<string> {
  const api = storeApi(ready.store_url)
  const credentials = { email: "kartli.musteri@example.com", password: "supersecret-123" }
  const pk = { "x-publishable-api-key": ready.publishable_key }
  const registered = await api.post("/auth/customer/emailpass/register", credentials)
  const { data: created } = await api.post("/store/customers", { email: credentials.email, first_name: "Zeynep", last_name: "Demir" }, { headers: { ...pk, authorization: `Bearer ${registered.data.token}` } })
  const login = await api.post("/auth/customer/emailpass", credentials)
  const headers = { headers: { ...pk, authorization: `Bearer ${login.data.token}` } }
  const { data: saved } = await api.get("/store/customers/me/sipay-cards", headers)
  const address = { first_name: "Zeynep", last_name: "Demir", address_1: "Kızılay 1", city: "Ankara", country_code: "tr", postal_code: "06420" }
  for (const number of cardNumbers) {
    const { data } = await api.post("/store/carts", { region_id: ready.region_id, items: [{ variant_id: store.products[0].variantId, quantity: 1 }], shipping_address: address, billing_address: address }, headers)
    const { data: collection } = await api.post("/store/payment-collections", { cart_id: data.cart.id }, headers)
    const { data: withSession } = await api.post(`/store/payment-collections/${collection.payment_collection.id}/payment-sessions`, { provider_id: "pp_sipay-2d_sipay" }, headers)
    const session = withSession.payment_collection.payment_sessions[0]
    const card = { holder_name: "Zeynep Demir", number, expiry_month: "12", expiry_year: String(new Date().getUTCFullYear() + 3), cvv: "000" }
    const { data: paid } = await api.post(`/store/sipay/payment-sessions/${session.id}/pay-2d`, { cart_id: data.cart.id, card, save_card: { consent_version: saved.consent.version } }, headers)
    if (!paid.saved_card) throw new Error(`the card was not saved: ${JSON.stringify(paid)}`)
  }
  return created.customer.id
}

/** One paid 3D order in the demo store (a cart in `locale` when given). */
async function paidOrder(ready: DemoReady, store: SeededStore, quantities: number[], locale?: string): Promise<Paid> {
  const api = storeApi(ready.store_url)
  const cart = await createCart(api, store, quantities)
  if (locale) await api.post(`/store/carts/${cart.id}`, { locale }, { headers: { "x-publishable-api-key": ready.publishable_key } })
  const { session } = await startPaymentSession(api, store, cart.id)
  const form = await issueThreeDForm(api, store, session.id)
  const landing = await returnToStore(await payAtGateway(form))
  const orderId = /order_[A-Za-z0-9]+/.exec(landing.href)?.[0]
  if (!orderId) throw new Error(`the payment did not land on an order: ${landing.href}`)
  return { orderId, invoiceId: form.invoice_id, invoiceDescription: form.fields.invoice_description, cartId: cart.id }
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
    .filter(([, text]) => !text.includes("{{") && !text.includes("`") && text.length >= 8 && /\s/.test(text))
    .filter(([key, text]) => text !== turkish.get(key))
    .map(([, text]) => text)
})()

/** English words of the gateway's vocabulary and of the plugin's values: none may be seen in Turkish mode. */
const ENGLISH_WORDS = [
  "Completed", "Failed", "Pending", "Refunded", "Partially Refunded", "Pre-Authorized", "Pre-Authorization", "PreAuth", "Auth",
  "Cancelled", "Chargebacked", "Approved", "Success", "Active", "Stopped", "Not found", "MP Credit Card", "Credit Card",
  "true", "false", "null", "undefined", "Yes", "No", "On", "Off", "Order", "Payment", "installments", "Every", "Unknown",
]
const wordPattern = (word: string) => new RegExp(`(?<![\\p{L}\\d_-])${word}(?![\\p{L}\\d_-])`, "u")

/** A raw key: lower-case words joined by "_" (merchant_commission, card_holder_bank, is_3d); not an id such as dpl2_1. */
const SNAKE_CASE = /(?<![\p{L}\d_])[a-z][a-z0-9]*(?:_[a-z0-9]*[a-z][a-z0-9]*)+(?![\p{L}\d_])/gu

/** Where the plugin renders on a page of its own: the page, and the drawers, prompts and menus it opens (portals). */
const PAGE_ROOTS = ["main", "[role=dialog]", "[role=alertdialog]", "[role=listbox]"]
const ORDER_ROOTS = ["[data-testid=sipay-order-payment]", "[data-testid=order-recurring-plan]", "[data-testid=order-phone-payment-link]"]

/** The visible text under the roots, node by node; the sidebar and <code> (names the merchant types) left out. */
async function visibleText(page: Page, roots: string[]): Promise<string> {
  return page.evaluate((selectors) => {
    const skipped = (element: Element | null) => {
      for (let e = element; e; e = e.parentElement) if (["CODE", "NAV", "ASIDE", "SCRIPT", "STYLE"].includes(e.tagName)) return true
      return false
    }
    const seen = new Set<Node>()
    const out: string[] = []
    for (const root of selectors.flatMap((selector) => [...document.querySelectorAll(selector)])) {
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT)
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const parent = node.parentElement
        if (seen.has(node) || !parent || skipped(parent) || !parent.checkVisibility()) continue
        seen.add(node)
        const text = node.textContent?.trim()
        if (text) out.push(text)
      }
    }
    return out.join("\n")
  }, roots)
}

describe("admin: every plugin page in Turkish and in English", () => {
  const place = freshDemoPlace()
  let demo: RunningDemo
  let browser: Browser
  let refunded: Paid
  let preAuthorized: Paid
  let recurring: Paid
  let charged: Paid
  let draftOrderId: string
  let phoneLink: { name_of_product: string; description: string }
  let storeLocaleForm: { cartId: string; invoiceDescription: string }
  let cardCustomerId: string

  beforeAll(async () => {
    demo = await startDemo(place, { timeoutMs: 900 * 1000 })
    browser = await launchBrowser()
    const ready = demo.ready
    const store = await demoStore(ready)
    const headers = await adminHeaders(ready)
    const admin = storeApi(ready.store_url)
    const asAdmin = { headers }

    // A Turkish cart, then an English one; a cart without a locale takes the store's (none here), then the option (Turkish).
    refunded = await paidOrder(ready, store, [1], "tr-TR")
    charged = await paidOrder(ready, store, [0, 1], "en-US")
    const { data: orderData } = await admin.get(`/admin/orders/${refunded.orderId}?fields=id,*payment_collections.payments`, asAdmin)
    const payment = orderData.order.payment_collections[0].payments[0]
    await admin.post(`/admin/payments/${payment.id}/refund`, { amount: 50 }, asAdmin)
    const sandboxOrigin = new URL(ready.sandbox_url).origin
    const chargeback = await fetch(`${sandboxOrigin}/__sandbox/chargeback`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ invoice_id: charged.invoiceId }) })
    expect(chargeback.status).toBe(200)

    // A pre-authorization (capture off in the settings for this purchase only).
    await admin.post("/admin/sipay/settings", { capture: false }, asAdmin)
    preAuthorized = await paidOrder(ready, store, [0, 0, 1])
    await admin.post("/admin/sipay/settings", { capture: null }, asAdmin)

    // A recurring product bought on its own opens a plan.
    await admin.post(`/admin/products/${store.products[1].id}`, { metadata: { sipay_recurring: { cycle: "M", interval: 1, payment_number: 3 } } }, asAdmin)
    recurring = await paidOrder(ready, store, [0, 1])
    await waitFor(async () => (await admin.get(`/admin/sipay/recurring-plans?order_id=${recurring.orderId}`, asAdmin)).data.recurring_plans.length > 0, 60000)

    // A phone order: a Turkish draft order and its payment link, e-mailed.
    const { data: channels } = await admin.get("/admin/sales-channels", asAdmin)
    const address = { first_name: "Mehmet", last_name: "Kaya", address_1: "Bağdat Cd. 5", city: "İstanbul", country_code: "tr", postal_code: "34728", phone: "5559876543" }
    const { data: draft } = await admin.post(
      "/admin/draft-orders",
      { email: "mehmet@example.com", region_id: ready.region_id, sales_channel_id: channels.sales_channels[0].id, locale: "tr-TR", items: [{ variant_id: store.products[0].variantId, quantity: 2 }], shipping_address: address, billing_address: address },
      asAdmin
    )
    draftOrderId = draft.draft_order.id
    const { data: made } = await admin.post(`/admin/sipay/draft-orders/${draftOrderId}/payment-link`, {}, asAdmin)
    const { data: link } = await admin.get(`/admin/sipay/payment-links/${made.order_payment_links[0].payment_link_id}`, asAdmin)
    phoneLink = link.payment_link

    // Once the store names a locale, a cart without one takes it.
    const { data: stores } = await admin.get("/admin/stores", asAdmin)
    await admin.post(`/admin/stores/${stores.stores[0].id}`, { supported_locales: [{ locale_code: "en-US" }] }, asAdmin)
    const api = storeApi(ready.store_url)
    const cart = await createCart(api, store, [1])
    const { session } = await startPaymentSession(api, store, cart.id)
    storeLocaleForm = { cartId: cart.id, invoiceDescription: (await issueThreeDForm(api, store, session.id)).fields.invoice_description }

    // A customer with two saved cards: each language's walk removes one on the customer page.
    cardCustomerId = await customerWithSavedCards(ready, store, ["4508034508034509", "5406675406675403"])
  })

  afterAll(async () => {
    await browser?.close()
    await demo?.stop()
    await place.dispose()
  })

  it("writes what a customer reads in the order's locale: the phone order's link and the invoice descriptions", () => {
    expect(phoneLink.name_of_product).toMatch(/^Sipariş #\d+$/)
    expect(phoneLink.description).toMatch(/^Sipariş #\d+ için ödeme/)
    expect(refunded.invoiceDescription).toBe(`Sipariş ${refunded.cartId}`)
    expect(charged.invoiceDescription).toBe(`Order ${charged.cartId}`)
    // No locale on the cart nor on the store: the option's (defaultLocale, Turkish by default).
    expect(preAuthorized.invoiceDescription).toBe(`Sipariş ${preAuthorized.cartId}`)
    expect(storeLocaleForm.invoiceDescription).toBe(`Order ${storeLocaleForm.cartId}`)
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

  for (const language of ["tr", "en"] as const) {
    it(`walks the plugin's pages and the order panels in ${language === "tr" ? "Turkish" : "English"}: no missing or raw key${language === "tr" ? ", no English value" : ""}`, async () => {
      const dictionary = language === "tr" ? tr : en
      const test = `admin i18n ${language}`
      const { page, problems } = await adminIn(language)
      const findings: Record<string, unknown>[] = []
      let shot = 0

      /** The rendered text under the roots: no missing key, no raw key, and in Turkish no English word or sentence. */
      async function check(where: string, roots = PAGE_ROOTS) {
        await page.waitForLoadState("networkidle")
        await page.screenshot({ path: screenshotPath(test, `${++shot}-${where}`), fullPage: true })
        const text = await visibleText(page, roots)
        expect({ where, empty: text.trim() === "" }).toEqual({ where, empty: false })
        const missing = await page.evaluate(() => (window as unknown as { __sipayMissingKeys?: string[] }).__sipayMissingKeys ?? [])
        const found: Record<string, unknown> = {
          missing,
          logged: [...problems],
          sipayKeys: text.match(/\bsipay\.[a-zA-Z]+\.[\w.]+/g) ?? [],
          snakeCase: [...new Set(text.match(SNAKE_CASE) ?? [])],
        }
        if (language === "tr") {
          found.englishWords = ENGLISH_WORDS.filter((word) => wordPattern(word).test(text))
          found.englishSentences = ENGLISH_ONLY.filter((sentence) => text.includes(sentence))
        }
        const any = Object.values(found).some((value) => (value as unknown[]).length > 0)
        if (any) findings.push({ where, ...found })
      }

      async function closeDialog() {
        await page.keyboard.press("Escape")
        await page.locator("[role=dialog]").first().waitFor({ state: "detached" }).catch(() => undefined)
      }

      /** A list page from the sidebar with its first row, checked, then that row opened (a drawer), checked. */
      async function listAndRow(page_: { menu: string; path: RegExp; title: string; row: string; where: string }, opened: () => Promise<void>) {
        await page.getByRole("link", { name: page_.menu, exact: true }).click()
        await page.waitForURL(page_.path)
        await page.getByRole("heading", { name: page_.title }).waitFor()
        await page.getByTestId(page_.row).first().waitFor()
        await check(page_.where)
        await page.getByTestId(page_.row).first().click()
        await opened()
        await check(`${page_.where}-opened`)
        await closeDialog()
      }

      // Sales: every state of the day, the state filter's choices, each sale's drawer.
      await page.getByRole("link", { name: dictionary.sales.menu, exact: true }).click()
      await page.waitForURL(/\/app\/sales/)
      await page.getByRole("heading", { name: dictionary.sales.title }).waitFor()
      await page.getByTestId("sales-count").filter({ hasNotText: dictionary.common.loading }).waitFor()
      await page.click("#sales-sync")
      await page.getByTestId("sales-source").filter({ hasText: dictionary.sales.lastSynced.split("{{")[0] }).waitFor()
      await waitFor(async () => (await page.locator("tr [data-invoice-id]").count()) >= 4, 60000)
      expect(await page.locator("thead").first().innerText()).toContain(dictionary.sales.columns.commission)
      await check("sales")
      await page.click("#sales-state")
      await page.getByRole("listbox").waitFor()
      await check("sales-state-filter")
      await page.keyboard.press("Escape")
      await page.getByRole("listbox").waitFor({ state: "detached" })
      const invoices = await page.locator("tr button[data-invoice-id]").evaluateAll((buttons) => buttons.map((b) => b.getAttribute("data-invoice-id")!))
      for (const invoice of invoices) {
        await page.locator(`tr button[data-invoice-id="${invoice}"]`).click()
        await page.getByTestId("sale-drawer").getByText(dictionary.sales.inMedusa).waitFor()
        await check(`sale-drawer-${invoice.slice(-12)}`)
        await closeDialog()
      }

      // Sales, Audit: the day's summary and its findings (the chargeback, recorded by the sync above).
      await page.goto(`${demo.ready.admin_url}/sales/audit`)
      await page.getByRole("heading", { name: dictionary.audit.title, exact: true }).waitFor()
      await page.getByTestId("audit-finding").first().waitFor()
      await check("audit")

      // Payment links: the phone order's link in the list and its drawer; the create form.
      await listAndRow({ menu: dictionary.paymentLinks.menu, path: /\/app\/payment-links/, title: dictionary.paymentLinks.title, row: "link-row", where: "payment-links" }, () =>
        page.getByRole("dialog").getByText(dictionary.paymentLinks.payerLink).waitFor()
      )
      await page.getByRole("button", { name: dictionary.paymentLinks.create }).first().click()
      await page.getByText(dictionary.paymentLinks.createTitle).waitFor()
      await page.focus("#link-name")
      await page.focus("#link-description")
      await page.getByText(dictionary.paymentLinks.required.name_of_product).waitFor()
      await check("create-payment-link")
      await closeDialog()

      // Recurring plans: the plan in the list and opened (the gateway's charges).
      await listAndRow({ menu: dictionary.recurring.menu, path: /\/app\/recurring-plans/, title: dictionary.recurring.title, row: "recurring-plan-row", where: "recurring-plans" }, () =>
        page.getByTestId("recurring-plan-panel").getByText(dictionary.recurring.charges).waitFor()
      )

      // Settings → Sipay, with a connection test.
      await page.goto(`${demo.ready.admin_url}/settings/sipay`)
      await page.getByRole("heading", { name: dictionary.settings.title }).waitFor()
      await page.getByRole("button", { name: dictionary.settings.testConnection }).click()
      await page.getByTestId("connected-brand").waitFor()
      await page.getByTestId("connection-key-checked").waitFor()
      await check("settings")
      // The merchant regenerates its key on the gateway's panel: the connection test says so in the user's language (issue 27).
      const panel = async (body: Record<string, unknown>) =>
        (await fetch(`${new URL(demo.ready.sandbox_url).origin}/__sandbox/merchant`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })).json()
      const { merchant_key: configuredKey } = await panel({})
      await panel({ new_merchant_key: `${configuredKey}-regenerated` })
      try {
        await page.getByRole("button", { name: dictionary.settings.testConnection }).click()
        const problem = page.getByTestId("connection-key-problem")
        await problem.waitFor()
        expect(await problem.innerText()).toContain(dictionary.settings.keyCheck.merchant_key_unknown.split("`")[0].trim())
        await check("settings-wrong-merchant-key")
      } finally {
        await panel({ merchant_key: `${configuredKey}-regenerated`, new_merchant_key: configuredKey })
      }

      // The order panels: a partially refunded order (asked again), a pre-authorization, a recurring order, a phone order's draft.
      await page.goto(`${demo.ready.admin_url}/orders/${refunded.orderId}`)
      const widget = page.getByTestId("sipay-order-payment")
      await widget.getByTestId("sipay-status").waitFor()
      await widget.getByRole("button", { name: dictionary.orderPayment.refresh }).click()
      await widget.getByTestId("sipay-status").waitFor()
      await page.waitForLoadState("networkidle")
      const widgetText = await widget.innerText()
      expect(widgetText).toContain(dictionary.orderPayment.title)
      expect(await widget.getByTestId("sipay-provider").innerText()).toBe(dictionary.orderPayment.provider3d)
      expect(widgetText).toMatch(language === "tr" ? /\d,\d\d TRY/ : /\d\.\d\d TRY/)
      await check("order-refunded", ORDER_ROOTS)
      await page.goto(`${demo.ready.admin_url}/orders/${preAuthorized.orderId}`)
      await page.getByTestId("sipay-order-payment").getByTestId("sipay-deadline").waitFor()
      await check("order-pre-authorized", ORDER_ROOTS)
      await page.goto(`${demo.ready.admin_url}/orders/${recurring.orderId}`)
      await page.getByTestId("order-recurring-plan").getByTestId("recurring-plan-panel").waitFor()
      await page.getByTestId("sipay-order-payment").getByTestId("sipay-status").waitFor()
      await check("order-recurring", ORDER_ROOTS)
      await page.goto(`${demo.ready.admin_url}/draft-orders/${draftOrderId}`)
      await page.getByTestId("order-phone-payment-link").getByText(dictionary.phoneLink.states.open).waitFor()
      await check("draft-order-phone-link", ORDER_ROOTS)

      // The customer page: the saved cards (masked, brand, expiry), one removed after the confirmation.
      const last4 = language === "tr" ? "4509" : "5403"
      await page.goto(`${demo.ready.admin_url}/customers/${cardCustomerId}`)
      const cards = page.getByTestId("customer-saved-cards")
      await cards.getByTestId(`remove-card-${last4}`).waitFor()
      expect(await cards.innerText()).toContain(dictionary.savedCards.expiryUnknown)
      await check("customer-saved-cards", ["[data-testid=customer-saved-cards]"])
      await cards.getByTestId(`remove-card-${last4}`).click()
      await page.getByRole("alertdialog").getByText(dictionary.savedCards.removeText).waitFor()
      await check("customer-saved-card-remove", ["[role=alertdialog]"])
      await page.getByRole("alertdialog").getByRole("button", { name: dictionary.savedCards.remove }).click()
      await cards.getByTestId(`remove-card-${last4}`).waitFor({ state: "detached" })
      await page.getByText(dictionary.savedCards.removed).first().waitFor()

      expect(findings).toEqual([])
      await page.context().close()
    })
  }
})
