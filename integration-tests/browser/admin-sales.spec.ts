import { readFileSync } from "node:fs"
import type { Browser, Page } from "playwright-core"
import { gatewayDay } from "../../src/lib/sales-report"
import { launchBrowser, screenshotPath } from "../harness/browser"
import { AUDIT_WORDS } from "../../src/lib/audit/words"
import { adminGet, adminHeaders, DemoReady, useDemoStack } from "../harness/demo-stack"
import type { SeededStore } from "../harness/seed"
import { createCart, DECLINING_CARD, issueThreeDForm, payAtGateway, returnToStore, startPaymentSession, waitFor } from "../harness/shopper"

// The admin as the merchant meets it: the demo booted with its admin (the test runner's app has none)
// in pre-authorization mode, a 3D sale made over HTTP (a declined attempt, then a reserved one), then
// the Sales page and the order widget (deadline, partial capture, refresh) in real Chromium.

jest.setTimeout(420 * 1000)

type Sale = { orderId: string; sessionId: string; declinedInvoice: string; paidInvoice: string; total: string }

/** The store API over fetch, shaped like the test runner's client the shopper helpers take. */
function storeApi(baseUrl: string) {
  const call = async (method: string, url: string, body?: unknown, config?: any) => {
    const response = await fetch(`${baseUrl}${url}`, {
      method,
      headers: { "content-type": "application/json", ...(config?.headers ?? {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const data = await response.json().catch(() => null)
    if (!response.ok) {
      throw new Error(`${method} ${url} answered ${response.status}: ${JSON.stringify(data)}`)
    }
    return { status: response.status, data }
  }
  return { get: (url: string, config?: unknown) => call("GET", url, undefined, config), post: (url: string, body?: unknown, config?: unknown) => call("POST", url, body, config) }
}

/** The demo's store in the shape the shopper helpers take. */
async function demoStore(ready: DemoReady): Promise<SeededStore> {
  const { data } = await storeApi(ready.store_url).get(`/store/products?fields=id,title,*variants&region_id=${ready.region_id}`, {
    headers: { "x-publishable-api-key": ready.publishable_key },
  })
  return {
    regionId: ready.region_id,
    salesChannelId: "",
    publishableKey: ready.publishable_key,
    products: data.products.map((p: any) => ({ id: p.id, variantId: p.variants[0].id, title: p.title, price: 0 })),
  }
}

/** A shopper's 3D purchase: the first attempt declined by the card's bank, the second paid. */
async function purchaseWithRetry(ready: DemoReady): Promise<Sale> {
  const api = storeApi(ready.store_url)
  const store = await demoStore(ready)
  const cart = await createCart(api, store, [2, 1])
  const { session } = await startPaymentSession(api, store, cart.id)
  const declined = await issueThreeDForm(api, store, session.id)
  await returnToStore(await payAtGateway(declined, DECLINING_CARD))
  const paid = await issueThreeDForm(api, store, session.id)
  const landing = await returnToStore(await payAtGateway(paid))
  const orderId = /order_[A-Za-z0-9]+/.exec(landing.href)?.[0]
  if (!orderId) {
    throw new Error(`the paid attempt did not land on an order: ${landing.href}`)
  }
  return { orderId, sessionId: session.id, declinedInvoice: declined.invoice_id, paidInvoice: paid.invoice_id, total: Number(cart.total).toFixed(2) }
}

/** A shopper who paid the same checkout in two tabs: the first tab's sale pays the order, the second's is given back. */
async function purchaseInTwoTabs(ready: DemoReady): Promise<{ orderId: string; keptInvoice: string; givenBackInvoice: string; total: string }> {
  const api = storeApi(ready.store_url)
  const store = await demoStore(ready)
  const cart = await createCart(api, store, [1, 0])
  const { session } = await startPaymentSession(api, store, cart.id)
  const first = await issueThreeDForm(api, store, session.id)
  const second = await issueThreeDForm(api, store, session.id)
  const landing = await returnToStore(await payAtGateway(first))
  await returnToStore(await payAtGateway(second))
  const orderId = /order_[A-Za-z0-9]+/.exec(landing.href)?.[0]
  if (!orderId) {
    throw new Error(`the first tab did not land on an order: ${landing.href}`)
  }
  return { orderId, keptInvoice: first.invoice_id, givenBackInvoice: second.invoice_id, total: Number(cart.total).toFixed(2) }
}

/** Minimal CSV reading for these rows (the test asserts they hold no quoted cells). */
function csvRows(text: string): string[][] {
  return text.replace(/^\uFEFF/, "").split("\r\n").filter(Boolean).map((line) => line.split(","))
}

describe("admin: the Sales page and the order widget in a real browser", () => {
  const demo = useDemoStack({ env: { SIPAY_CAPTURE: "false" } })
  let browser: Browser
  let page: Page
  let sale: Sale

  beforeAll(async () => {
    browser = await launchBrowser()
    sale = await purchaseWithRetry(demo.ready)
    const context = await browser.newContext({ locale: "en-US", acceptDownloads: true, viewport: { width: 1440, height: 1000 } })
    page = await context.newPage()
    page.setDefaultTimeout(120 * 1000)
    await page.goto(demo.ready.admin_url)
    await page.fill('input[name="email"]', demo.ready.admin_email)
    await page.fill('input[name="password"]', demo.ready.admin_password)
    await Promise.all([page.waitForURL(/\/app\/orders/), page.click('button[type="submit"]')])
  })

  afterAll(async () => {
    await browser?.close()
  })

  // DataTable's rows carry no attributes of their own: a sale's row is the one holding its invoice button.
  const rows = () => page.locator("tr:has([data-invoice-id])")
  const row = (invoiceId: string) => page.locator(`tr:has([data-invoice-id="${invoiceId}"])`)

  async function syncNow() {
    const [answer] = await Promise.all([
      page.waitForResponse((response) => response.url().endsWith("/admin/sipay/transactions/sync")),
      page.click("#sales-sync"),
    ])
    expect(answer.status()).toBe(200)
    await page.getByTestId("sales-source").filter({ hasText: "Ledger last synced" }).waitFor()
  }

  it("finds today's sale by its invoice id and opens its drawer with the nested objects", async () => {
    const test = "admin sales find and drawer"
    await page.getByRole("link", { name: "Sales", exact: true }).click()
    await page.waitForURL(/\/app\/sales/)
    // The DatePicker shows today's gateway day (en-US: month/day/year).
    const [year, month, day] = gatewayDay(new Date()).split("-").map(Number)
    // Digits apart, the segments may hold direction marks: compare only the digits and slashes.
    const picker = page.getByRole("group", { name: "Date (Istanbul)" })
    await picker.filter({ hasText: new RegExp(`^\\D*${month}\\D*/\\D*${day}\\D*/\\D*${year}\\D*$`) }).waitFor({ timeout: 30000 }).catch(() => undefined)
    expect((await picker.innerText()).replace(/[^\d/]/g, "")).toBe(`${month}/${day}/${year}`)
    // The page reads the ledger; the scheduled sync may not have run since the purchase: "Sync now".
    await syncNow()
    await page.fill("#sales-invoice", sale.paidInvoice)
    await page.click("#sales-search")
    await page.waitForURL(new RegExp(`invoice_id=${sale.paidInvoice}`))
    // Loaded for this filter: one row, nothing loading (the table never shows an earlier answer while loading).
    await page.waitForFunction(
      () => document.querySelector('[data-testid="sales-results"]')?.getAttribute("aria-busy") === "false" && document.querySelectorAll("tr [data-invoice-id]").length === 1
    )
    const found = row(sale.paidInvoice)
    await found.waitFor()
    expect(await rows().count()).toBe(1)
    const text = await found.innerText()
    expect(text).toContain("Pre-Authorized")
    // Amounts in the admin user's locale (English here: "1,250.00").
    const shown = Number(sale.total).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })
    expect(text).toContain(`${shown} TRY`)
    expect(text).toContain("450803****4509")
    expect(await page.getByTestId("sales-totals").innerText()).toContain(`TRY: 1 sale · gross ${shown}`)
    expect(await found.getByTestId("order-link").getAttribute("href")).toMatch(new RegExp(`/orders/${sale.orderId}$`))
    await page.screenshot({ path: screenshotPath(test, "1-sale-found"), fullPage: true })

    await found.getByRole("button", { name: sale.paidInvoice }).click()
    const drawer = page.getByTestId("sale-drawer")
    await drawer.waitFor()
    for (const nested of ["rolling_balance", "sale_billing", "merchant_sale", "refund_history", "sale_integrator", "userdata", "merchant"]) {
      await drawer.getByTestId(`nested-${nested}`).waitFor()
    }
    const drawerText = await drawer.innerText()
    expect(drawerText).toContain("Ay** Yı****")
    expect(drawerText).toContain("Merchant commission (%)")
    expect(drawerText).toContain("Integrator name")
    expect(drawerText).toContain("Sipay Sandbox")
    expect(drawerText).toContain(sale.sessionId)
    await page.screenshot({ path: screenshotPath(test, "2-drawer"), fullPage: true })
    await page.keyboard.press("Escape")
    await drawer.waitFor({ state: "hidden" })
    // A click anywhere on the row (here its time) opens the same sale.
    await found.locator("td").first().click()
    await drawer.getByRole("heading", { name: sale.paidInvoice }).waitFor()
    await page.keyboard.press("Escape")
    await drawer.waitFor({ state: "hidden" })
  })

  it("looks the day up at the gateway with a POST on a click, never from the page's address", async () => {
    const test = "admin sales gateway look-up"
    const lookups: string[] = []
    const watch = (request: { url(): string; method(): string }) => {
      if (request.url().includes("/admin/sipay/transactions/lookup") || /\/admin\/sipay\/transactions\?.*source=gateway/.test(request.url())) lookups.push(request.method())
    }
    page.on("request", watch)
    // An address another site could link to: the page reads the ledger, it asks the gateway nothing.
    await page.goto(`${demo.ready.admin_url}/sales?date=${gatewayDay(new Date())}&source=gateway`)
    await row(sale.paidInvoice).waitFor()
    expect(await page.getByTestId("sales-source").innerText()).not.toContain("Asked the gateway")
    expect(lookups).toEqual([])

    const [answer] = await Promise.all([
      page.waitForResponse((response) => response.url().endsWith("/admin/sipay/transactions/lookup")),
      page.click("#sales-source-toggle"),
    ])
    expect([answer.request().method(), answer.status()]).toEqual(["POST", 200])
    await page.getByTestId("sales-source").filter({ hasText: "Asked the gateway just now" }).waitFor()
    await row(sale.paidInvoice).waitFor()
    await page.screenshot({ path: screenshotPath(test, "1-gateway"), fullPage: true })
    await page.click("#sales-source-toggle")
    await page.getByTestId("sales-source").filter({ hasText: "Ledger last synced" }).waitFor()
    expect(lookups).toEqual(["POST"])
    page.off("request", watch)
  })

  it("exports the sales shown as CSV, one row per sale in the table", async () => {
    const test = "admin sales csv export"
    await page.goto(`${demo.ready.admin_url}/sales?date=${gatewayDay(new Date())}`)
    await row(sale.declinedInvoice).waitFor()
    const shown = await page.locator("tr [data-invoice-id]").evaluateAll((buttons) => buttons.map((button) => button.getAttribute("data-invoice-id")))
    expect(shown).toEqual(expect.arrayContaining([sale.declinedInvoice, sale.paidInvoice]))
    // The declined attempt paid no order: said in words, with its cart's order (paid by the retry) as a separate link.
    const declined = row(sale.declinedInvoice)
    expect(await declined.getByTestId("order-link").count()).toBe(0)
    expect(await declined.getByTestId("sale-kind").innerText()).toBe("Not on an order")
    expect(await declined.getByTestId("related-order-link").getAttribute("href")).toMatch(new RegExp(`/orders/${sale.orderId}$`))
    await page.screenshot({ path: screenshotPath(test, "1-day"), fullPage: true })

    const [download] = await Promise.all([page.waitForEvent("download"), page.click("#sales-export")])
    expect(download.suggestedFilename()).toBe(`sipay-sales-${gatewayDay(new Date())}.csv`)
    const text = readFileSync((await download.path())!, "utf8")
    expect(text).not.toContain('"')
    const [header, ...lines] = csvRows(text)
    // The export is every sale of the day from the ledger, oldest first; the page shows newest first.
    expect(lines.map((line) => line[header.indexOf("invoice_id")]).sort()).toEqual([...shown].sort())
    const cell = (invoiceId: string, name: string) => lines.find((line) => line[header.indexOf("invoice_id")] === invoiceId)![header.indexOf(name)]
    expect(cell(sale.paidInvoice, "state")).toBe("Pre-Authorized")
    expect(Number(cell(sale.paidInvoice, "gross")).toFixed(2)).toBe(sale.total)
    expect(cell(sale.paidInvoice, "card")).toBe("450803****4509")
    expect(cell(sale.paidInvoice, "medusa_order_id")).toBe(sale.orderId)
    expect(cell(sale.declinedInvoice, "state")).toBe("Failed")
    // The declined attempt paid no order; the order its cart got from the retry is the related one.
    expect([cell(sale.declinedInvoice, "medusa_order_id"), cell(sale.declinedInvoice, "medusa_sale_kind"), cell(sale.declinedInvoice, "medusa_related_order_id")]).toEqual(["", "attempt", sale.orderId])

    // The table's headers sort in the database (the API's order, kept in the address): by invoice id up, then down.
    const invoices = () => page.locator("tr [data-invoice-id]").evaluateAll((buttons) => buttons.map((button) => button.getAttribute("data-invoice-id")!))
    const ascending = [...shown].sort()
    await page.locator("thead").getByRole("button", { name: "Invoice id" }).click()
    await page.waitForURL(/order=invoice_id/)
    await page.waitForFunction((first) => document.querySelector("tr [data-invoice-id]")?.getAttribute("data-invoice-id") === first, ascending[0])
    expect(await invoices()).toEqual(ascending)
    await page.locator("thead").getByRole("button", { name: "Invoice id" }).click()
    await page.waitForURL(/order=-invoice_id/)
    await page.waitForFunction((first) => document.querySelector("tr [data-invoice-id]")?.getAttribute("data-invoice-id") === first, ascending.at(-1))
    expect(await invoices()).toEqual([...ascending].reverse())
    await page.screenshot({ path: screenshotPath(test, "2-sorted-by-invoice-desc"), fullPage: true })
  })

  it("shows the order's Sipay payment on the order page: status, attempts, the pre-authorization deadline; a partial capture and a refresh from the gateway", async () => {
    const test = "admin order widget"
    await page.goto(`${demo.ready.admin_url}/orders/${sale.orderId}`)
    const widget = page.getByTestId("sipay-order-payment")
    await widget.getByTestId("sipay-status").waitFor()
    expect(await widget.getByTestId("sipay-status").innerText()).toBe("Completed")
    expect(await widget.getByTestId("sipay-invoice-id").innerText()).toBe(sale.paidInvoice)
    expect(await widget.getByTestId("sipay-transaction-type").innerText()).toBe("Pre-Authorization")
    expect(await widget.getByTestId("sipay-deadline").innerText()).toContain("(20 days left)")
    const attempts = widget.getByTestId("sipay-attempts")
    expect(await attempts.locator(`[data-invoice-id="${sale.declinedInvoice}"]`).innerText()).toMatch(/#1[\s\S]*failed/)
    expect(await attempts.locator(`[data-invoice-id="${sale.paidInvoice}"]`).innerText()).toMatch(/#2[\s\S]*authorized/)
    await widget.scrollIntoViewIfNeeded()
    await page.screenshot({ path: screenshotPath(test, "1-pre-authorized"), fullPage: true })

    await widget.locator("#sipay-capture-amount").fill("300.00")
    const [captured, refreshed] = await Promise.all([
      page.waitForResponse((response) => response.url().includes("/admin/sipay/payments/") && response.url().endsWith("/capture")),
      page.waitForResponse((response) => response.url().endsWith(`/admin/sipay/orders/${sale.orderId}/payment/refresh`)),
      widget.getByRole("button", { name: "Capture", exact: true }).click(),
    ])
    expect(captured.status()).toBe(200)
    expect(refreshed.status()).toBe(200)
    await widget.getByTestId("sipay-deadline").waitFor({ state: "detached" })
    expect(await widget.getByTestId("sipay-transaction-type").innerText()).toBe("Auth")
    expect(await widget.innerText()).toContain("300.00 TRY")
    await page.screenshot({ path: screenshotPath(test, "2-captured"), fullPage: true })
    // The order page's own totals follow (the widget invalidates the dashboard's order queries).
    await page.waitForFunction(() => /Paid Total\s*₺\s*300\.00 TRY/.test(document.body.innerText), undefined, { timeout: 30000 })

    const [again] = await Promise.all([
      page.waitForResponse((response) => response.url().endsWith(`/admin/sipay/orders/${sale.orderId}/payment/refresh`)),
      widget.getByRole("button", { name: "Refresh from gateway" }).click(),
    ])
    expect(again.status()).toBe(200)
    expect((await again.json()).payment).toMatchObject({ status: "Completed", chargeback: false, invoice_id: sale.paidInvoice, pre_authorization: null })
    await widget.getByTestId("sipay-ledger-synced").filter({ hasText: /^Sale from the ledger, synced/ }).waitFor()

    await page.goto(`${demo.ready.admin_url}/sales?date=${gatewayDay(new Date())}&invoice_id=${sale.paidInvoice}`)
    await syncNow()
    await row(sale.paidInvoice).getByText("Completed").waitFor()
    expect(await row(sale.paidInvoice).innerText()).toContain("300.00 TRY")
    await page.screenshot({ path: screenshotPath(test, "3-sale-after-capture"), fullPage: true })
  })

  it("keeps the order's Sipay panel current after a refund made in Medusa's admin: the refunded amount without a refresh click", async () => {
    const test = "admin order panel after refund"
    const headers = await adminHeaders(demo.ready)
    const api = storeApi(demo.ready.store_url)
    // The order was captured for 300.00 by the test before; a refund of 100.00 through Medusa's own route (the order page's "Refund").
    const { data } = await api.get(`/admin/orders/${sale.orderId}?fields=id,*payment_collections.payments`, { headers })
    const payment = data.order.payment_collections[0].payments[0]
    await api.post(`/admin/payments/${payment.id}/refund`, { amount: 100 }, { headers })
    const refreshes: string[] = []
    const watch = (request: { url(): string }) => {
      if (request.url().endsWith(`/admin/sipay/orders/${sale.orderId}/payment/refresh`)) refreshes.push(request.url())
    }
    page.on("request", watch)
    await page.goto(`${demo.ready.admin_url}/orders/${sale.orderId}`)
    const widget = page.getByTestId("sipay-order-payment")
    await widget.getByTestId("sipay-status").waitFor()
    expect(await widget.getByTestId("sipay-refunded").innerText()).toBe("100.00 TRY")
    // The gateway was asked again after the refund (checkstatus: Completed, its reason Partially Refunded).
    expect([await widget.getByTestId("sipay-status").innerText(), await widget.getByTestId("sipay-status-reason").innerText()]).toEqual(["Completed", "Partially Refunded"])
    await widget.scrollIntoViewIfNeeded()
    await page.screenshot({ path: screenshotPath(test, "1-refunded"), fullPage: true })
    // Read again: the same figures, and the page never asked for a refresh.
    await page.reload()
    await widget.getByTestId("sipay-status").waitFor()
    expect(await widget.getByTestId("sipay-refunded").innerText()).toBe("100.00 TRY")
    page.off("request", watch)
    expect(refreshes).toEqual([])
  })

  it("links a phone order's sale to its order on the Sales page and in the CSV", async () => {
    const test = "admin sales phone order"
    const ready = demo.ready
    const headers = await adminHeaders(ready)
    const api = storeApi(ready.store_url)
    const store = await demoStore(ready)
    const { data: channels } = await api.get("/admin/sales-channels", { headers })
    const address = { first_name: "Mehmet", last_name: "Kaya", address_1: "Bağdat Cd. 5", city: "İstanbul", country_code: "tr", postal_code: "34728", phone: "5559876543" }
    const { data: draft } = await api.post(
      "/admin/draft-orders",
      { email: "phone-sales@example.com", region_id: ready.region_id, sales_channel_id: channels.sales_channels[0].id, items: [{ variant_id: store.products[0].variantId, quantity: 1 }], shipping_address: address, billing_address: address },
      { headers }
    )
    const orderId: string = draft.draft_order.id
    const { data: made } = await api.post(`/admin/sipay/draft-orders/${orderId}/payment-link`, {}, { headers })
    await payAtGateway({ action: made.order_payment_links[0].link, fields: {} })
    // The link's sale becomes the order's payment (the sale webhook, or the order's view, settles it).
    const settled = await waitFor(async () => {
      const { data: view } = await api.get(`/admin/sipay/draft-orders/${orderId}/payment-link`, { headers })
      const link = view.order_payment_links[0]
      return link?.state === "paid" ? link : null
    }, 90000, 1000)
    const invoiceId: string = settled.settled_invoice_id

    await page.goto(`${ready.admin_url}/sales?date=${gatewayDay(new Date())}&invoice_id=${invoiceId}`)
    await syncNow()
    const found = row(invoiceId)
    await found.waitFor()
    expect(await found.getByTestId("order-link").getAttribute("href")).toMatch(new RegExp(`/orders/${orderId}$`))
    expect(await found.getByTestId("payment-link-link").count()).toBe(1)
    await page.screenshot({ path: screenshotPath(test, "1-linked"), fullPage: true })

    const [download] = await Promise.all([page.waitForEvent("download"), page.click("#sales-export")])
    const [header, ...lines] = csvRows(readFileSync((await download.path())!, "utf8"))
    const line = lines.find((cells) => cells[header.indexOf("invoice_id")] === invoiceId)!
    expect([line[header.indexOf("medusa_order_id")], line[header.indexOf("medusa_sale_kind")]]).toEqual([orderId, "payment"])
  })

  it("Sales, then Audit, in Turkish: the day's summary, a difference in words linked to its order and its sale, what to do, the CSV", async () => {
    const test = "admin audit tr"
    // The old ledger bug's footprint, as a store upgrading from it has: two tabs paid, the second given back, then
    // the kept payment refunded in full with the note the old ledger wrote (and no server mark), at the gateway too.
    // Charged at once (the demo here pre-authorizes): the second tab's payment is then given back by a refund, as the old bug needed.
    const headers = await adminHeaders(demo.ready)
    const settings = (capture: boolean) =>
      fetch(`${demo.ready.store_url}/admin/sipay/settings`, { method: "POST", headers: { ...headers, "content-type": "application/json" }, body: JSON.stringify({ capture }) })
    expect((await settings(true)).status).toBe(200)
    const other = await purchaseInTwoTabs(demo.ready).finally(() => settings(false))
    const { order } = await adminGet(demo.ready, headers, `/admin/orders/${other.orderId}?fields=id,*payment_collections.payments`)
    const refund = await fetch(`${demo.ready.store_url}/admin/payments/${order.payment_collections[0].payments[0].id}/refund`, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      body: JSON.stringify({ note: "Refunded in the Sipay merchant panel (recorded from the sales ledger)" }),
    })
    expect(refund.status).toBe(200)

    const context = await browser.newContext({ locale: "tr-TR", acceptDownloads: true, viewport: { width: 1440, height: 1000 } })
    const admin = new URL(demo.ready.admin_url)
    // The dashboard reads the language from its "lng" cookie first (then localStorage), as its language setting stores it.
    await context.addCookies([{ name: "lng", value: "tr", domain: admin.hostname, path: "/" }])
    await context.addInitScript(() => window.localStorage.setItem("lng", "tr"))
    const turkish = await context.newPage()
    turkish.setDefaultTimeout(120 * 1000)
    await turkish.goto(demo.ready.admin_url)
    await turkish.fill('input[name="email"]', demo.ready.admin_email)
    await turkish.fill('input[name="password"]', demo.ready.admin_password)
    await Promise.all([turkish.waitForURL(/\/app\/orders/), turkish.click('button[type="submit"]')])

    // Under Sales in the sidebar.
    await turkish.getByRole("link", { name: "Satışlar", exact: true }).click()
    await turkish.waitForURL(/\/app\/sales/)
    await turkish.getByRole("link", { name: "Denetim", exact: true }).click()
    await turkish.waitForURL(/\/app\/sales\/audit/)
    await turkish.getByRole("heading", { name: "Denetim", exact: true }).waitFor()
    await turkish.getByTestId("audit-report").waitFor()
    // The ledger had today from the earlier syncs, not this sale yet: "Şimdi eşitle" (the ledger's sync), then the audit again.
    const [synced, audited] = await Promise.all([
      turkish.waitForResponse((response) => response.url().endsWith("/admin/sipay/transactions/sync")),
      turkish.waitForResponse((response) => response.url().includes("/admin/sipay/audit?") && response.request().method() === "GET"),
      turkish.getByRole("button", { name: "Şimdi eşitle" }).click(),
    ])
    expect([synced.status(), audited.status()]).toEqual([200, 200])
    const finding = turkish.locator(`[data-testid=audit-finding][data-invoice-id="${other.givenBackInvoice}"]`)
    await finding.waitFor()
    expect(await finding.getAttribute("data-kind")).toBe("old_ledger_refund")
    const total = Number(other.total).toLocaleString("tr-TR", { minimumFractionDigits: 2, maximumFractionDigits: 2 })
    const text = await finding.innerText()
    expect(text).toContain("Fark")
    expect(text).toContain(AUDIT_WORDS.tr.kinds.old_ledger_refund.title)
    expect(text).toContain(`${total} TRY`)
    expect(text).toContain(other.keptInvoice)
    expect(text).toContain("Ne yapmalı:")
    expect(await finding.getByTestId("audit-order-link").getAttribute("href")).toMatch(new RegExp(`/orders/${other.orderId}$`))
    const day = gatewayDay(new Date())
    expect(await finding.getByTestId("audit-sale-link").getAttribute("href")).toMatch(new RegExp(`/sales\\?date=${day}&invoice_id=${other.givenBackInvoice}$`))
    expect(await turkish.getByTestId("audit-verdict").innerText()).toBe(AUDIT_WORDS.tr.summary.disagrees)
    expect(Number(await turkish.getByTestId("audit-figure-sales").locator("dd").innerText())).toBeGreaterThanOrEqual(4)
    expect(await turkish.getByTestId("audit-figure-sales").innerText()).toContain("Satış")
    expect(await turkish.getByTestId("audit-totals").first().innerText()).toContain("Ödeme kuruluşu: tahsil")
    // Every text in Turkish: no missing key, none of the audit's English words.
    expect(await turkish.evaluate(() => (window as unknown as { __sipayMissingKeys?: string[] }).__sipayMissingKeys ?? [])).toEqual([])
    const page_ = await turkish.locator("main").innerText()
    const english = [...Object.values(AUDIT_WORDS.en.kinds).map((kind) => kind.title), ...Object.values(AUDIT_WORDS.en.summary).filter((words) => !words.includes("{{")), "Audit", "What to do", "Download CSV"]
    expect(english.filter((words) => page_.includes(words))).toEqual([])
    await turkish.screenshot({ path: screenshotPath(test, "1-audit"), fullPage: true })

    // The CSV: every sale of the day, one row per finding, what to do in Turkish.
    const [download] = await Promise.all([turkish.waitForEvent("download"), turkish.click("#audit-export")])
    expect(download.suggestedFilename()).toBe(`sipay-audit-${day}.csv`)
    const csv = readFileSync((await download.path())!, "utf8").replace(/^\uFEFF/, "").trimEnd().split("\r\n")
    expect(csv[0].split(",").slice(0, 4)).toEqual(["sale_created_at", "invoice_id", "gateway_order_id", "sale_kind"])
    const row = csv.find((line) => line.includes(`,${other.givenBackInvoice},`))!
    expect(row).toContain(",difference,old_ledger_refund,")
    expect(row).toContain(AUDIT_WORDS.tr.kinds.old_ledger_refund.detail.split("{{")[0])
    expect(csv.find((line) => line.includes(`,${other.keptInvoice},`))).toContain(",agrees,")

    // The sale's link opens it on the Sales page.
    await finding.getByTestId("audit-sale-link").click()
    await turkish.waitForURL(new RegExp(`/app/sales\\?date=${day}&invoice_id=${other.givenBackInvoice}`))
    await turkish.locator(`tr:has([data-invoice-id="${other.givenBackInvoice}"])`).waitFor()
    await turkish.screenshot({ path: screenshotPath(test, "2-sale"), fullPage: true })
    await context.close()
  })
})
