import type { Browser, BrowserContext, Page } from "playwright-core"
import { SMS_TEST_CODE } from "../../src/sandbox/cards"
import { launchBrowser, screenshotPath } from "../harness/browser"
import { axeViolations } from "../harness/demo-axe"
import { adminGet, adminHeaders, freshDemoPlace, startDemo, useDemoStack } from "../harness/demo-stack"

// `npm run demo` as a newcomer meets it: one boot of the demo (its own database and data folder),
// a shopper in real Chromium on the demo storefront, the admin API, and a second start on the same data.

jest.setTimeout(300 * 1000)

const HOLDER = "Ayşe Yılmaz"
const EXPIRY_YEAR = String(new Date().getFullYear() + 3)
const PAYING_CARD = "4508034508034509"
const DECLINING_CARD = "4000000200000000"
const READY_KEYS = ["store_url", "admin_url", "storefront_url", "sandbox_url", "admin_email", "admin_password", "publishable_key", "region_id"]

describe("npm run demo: the demo storefront in a real browser", () => {
  const stack = useDemoStack()
  let browser: Browser
  const orders: string[] = []

  beforeAll(async () => {
    browser = await launchBrowser()
  })

  afterAll(async () => {
    await browser?.close()
  })

  /** A shopper's tab; what the storefront's pages log as errors (CORS, script errors) is collected. */
  async function shopperPage(): Promise<{ context: BrowserContext; page: Page; storefrontErrors: string[] }> {
    const context = await browser.newContext({ locale: "tr-TR" })
    context.setDefaultTimeout(60000) // a busy two-core machine completes a cart slowly
    const page = await context.newPage()
    const storefrontErrors: string[] = []
    page.on("console", (message) => {
      if (message.type() === "error" && page.url().startsWith(stack.ready.storefront_url)) storefrontErrors.push(message.text())
    })
    page.on("pageerror", (error) => storefrontErrors.push(error.message))
    return { context, page, storefrontErrors }
  }

  /** Adds the first two products to a new cart and opens the checkout; returns the cart id. */
  async function fillCartAndOpenCheckout(page: Page, test: string, checkAccessibility = false): Promise<string> {
    await page.goto(stack.ready.storefront_url)
    await page.waitForSelector("li.product")
    await page.screenshot({ path: screenshotPath(test, "1-products"), fullPage: true })
    if (checkAccessibility) expect(await axeViolations(page)).toEqual([])
    const buttons = page.locator("button[data-add]")
    await buttons.nth(0).click()
    await page.waitForFunction(() => document.getElementById("cart-count")?.textContent === "1")
    await buttons.nth(1).click()
    await page.waitForFunction(() => document.getElementById("cart-count")?.textContent === "2")
    await page.click("#cart-link")
    await page.waitForSelector("#checkout-button")
    await page.screenshot({ path: screenshotPath(test, "2-cart"), fullPage: true })
    if (checkAccessibility) expect(await axeViolations(page)).toEqual([])
    await page.click("#checkout-button")
    await page.waitForSelector("#checkout-form")
    if (checkAccessibility) expect(await axeViolations(page)).toEqual([])
    return page.evaluate(() => localStorage.getItem("sipay_demo_cart_id") as string)
  }

  /** From the checkout with 3D chosen: the hosted card page, then the sandbox bank page with the SMS code. */
  async function payWith3D(page: Page, test: string, cardNumber: string) {
    await page.check("#method-3d")
    await page.screenshot({ path: screenshotPath(test, "3-checkout"), fullPage: true })
    await Promise.all([page.waitForURL(`${stack.ready.store_url}/sipay/checkout/**`), page.click("#pay-button")])
    await page.waitForSelector("#cc_no")
    await page.fill("#cc_holder_name", HOLDER)
    await page.fill("#cc_no", cardNumber)
    await page.selectOption("#expiry_month", "12").catch(() => page.fill("#expiry_month", "12"))
    await page.selectOption("#expiry_year", EXPIRY_YEAR).catch(() => page.fill("#expiry_year", EXPIRY_YEAR))
    await page.fill("#cvv", "000")
    await page.screenshot({ path: screenshotPath(test, "4-hosted-card-page"), fullPage: true })
    await Promise.all([page.waitForURL(`${stack.ready.sandbox_url}/**`), page.click("#pay-button")])
    await page.waitForSelector("#sms_code")
    await page.fill("#sms_code", SMS_TEST_CODE)
    await page.screenshot({ path: screenshotPath(test, "5-bank-page"), fullPage: true })
    await Promise.all([page.waitForURL(`${stack.ready.storefront_url}/**`), page.click("button.confirm")])
  }

  async function storeCart(cartId: string) {
    const response = await fetch(`${stack.ready.store_url}/store/carts/${cartId}?fields=id,completed_at,*items`, {
      headers: { "x-publishable-api-key": stack.ready.publishable_key },
    })
    return ((await response.json()) as { cart: { completed_at: string | null; items: unknown[] } }).cart
  }

  it("prints DEMO_READY with every key, and what it names answers", async () => {
    expect(Object.keys(stack.ready).sort()).toEqual([...READY_KEYS].sort())
    for (const key of READY_KEYS) {
      expect(typeof (stack.ready as Record<string, string>)[key]).toBe("string")
    }
    expect(stack.ready.admin_url).toBe(`${stack.ready.store_url}/app`)
    expect(stack.ready.admin_email).toBe("admin@medusa-sipay.test")
    expect(stack.ready.publishable_key).toMatch(/^pk_/)
    expect(stack.ready.region_id).toMatch(/^reg_/)
    expect(stack.ready.sandbox_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/ccpayment$/)
    for (const step of ["Database", "Sandbox gateway", "Database migrations", "Demo store", "Medusa server", "Demo storefront"]) {
      expect(stack.demo.output).toContain(step)
    }
    expect(stack.demo.output).toContain(stack.ready.admin_password)
    expect(stack.demo.output).toContain("283126")
    expect((await fetch(`${stack.ready.store_url}/health`)).status).toBe(200)
    expect((await fetch(stack.ready.admin_url)).status).toBe(200)
    expect(await (await fetch(stack.ready.storefront_url)).text()).toContain(stack.ready.publishable_key)
  })

  it("names the variable to set when a port is taken", async () => {
    const other = freshDemoPlace()
    try {
      const storePort = new URL(stack.ready.store_url).port
      await expect(startDemo(other, { env: { DEMO_STORE_PORT: storePort } })).rejects.toThrow(
        new RegExp(`Port ${storePort} \\(Medusa store\\) is already in use.*DEMO_STORE_PORT=<port> npm run demo`)
      )
    } finally {
      await other.dispose()
    }
  })

  it("a shopper buys with 3D (hosted page, bank page, SMS code) and sees the confirmation; the storefront passes axe", async () => {
    const test = "demo 3D purchase"
    const { context, page, storefrontErrors } = await shopperPage()
    const cartId = await fillCartAndOpenCheckout(page, test, true)
    await payWith3D(page, test, PAYING_CARD)
    await page.waitForSelector("#order-confirmed")
    expect(await axeViolations(page)).toEqual([])
    await page.screenshot({ path: screenshotPath(test, "6-confirmation"), fullPage: true })
    const orderId = new URL(page.url()).pathname.split("/").pop()!
    expect(orderId).toMatch(/^order_/)
    expect(await page.textContent("#order-display-id")).toMatch(/^#\d+$/)
    expect(await page.textContent("#order-total")).toMatch(/₺/)
    expect((await storeCart(cartId)).completed_at).toBeTruthy()
    expect(storefrontErrors).toEqual([])
    orders.push(orderId)
    await context.close()
  })

  it("the order is visible through the admin API with its payment captured", async () => {
    expect(orders).toHaveLength(1)
    const headers = await adminHeaders(stack.ready)
    const { order } = await adminGet(stack.ready, headers, `/admin/orders/${orders[0]}?fields=id,display_id,payment_status,*payment_collections.payments`)
    const payment = order.payment_collections[0].payments[0]
    expect(payment.provider_id).toBe("pp_sipay_sipay")
    expect(payment.captured_at).toBeTruthy()
    expect(order.payment_status).toBe("captured")
  })

  it("a declining card shows a readable error and the cart survives", async () => {
    const test = "demo declined card"
    const { context, page } = await shopperPage()
    const cartId = await fillCartAndOpenCheckout(page, test)
    await payWith3D(page, test, DECLINING_CARD)
    await page.waitForSelector("#checkout-error:not([hidden])")
    await page.screenshot({ path: screenshotPath(test, "6-error"), fullPage: true })
    expect(await axeViolations(page)).toEqual([])
    const message = (await page.textContent("#checkout-error")) ?? ""
    // The class's text (Turkish or English by the browser), never the gateway's own reason.
    expect(message).toMatch(/not approved|onaylanmadı/i)
    expect(message).not.toMatch(/Insufficient funds/)
    expect(message).not.toMatch(/undefined|\[object|%[0-9A-F]{2}/)
    expect(new URL(page.url()).searchParams.get("cart_id")).toBe(cartId)
    expect(await page.locator("table tbody tr").count()).toBe(2)
    const cart = await storeCart(cartId)
    expect(cart.completed_at).toBeFalsy()
    expect(cart.items).toHaveLength(2)
    await context.close()
  })

  it("a direct (2D) payment with installments", async () => {
    const test = "demo direct payment"
    const { context, page, storefrontErrors } = await shopperPage()
    await fillCartAndOpenCheckout(page, test)
    await page.check("#method-2d")
    await page.fill("#card-holder", HOLDER)
    await page.fill("#card-number", PAYING_CARD)
    await page.selectOption("#card-year", EXPIRY_YEAR)
    await page.fill("#card-cvv", "000")
    await page.check("#inst-3")
    expect(await axeViolations(page)).toEqual([])
    await page.screenshot({ path: screenshotPath(test, "3-card-and-installments"), fullPage: true })
    await Promise.all([page.waitForURL(`${stack.ready.storefront_url}/order/confirmed/**`), page.click("#pay-button")])
    await page.waitForSelector("#order-confirmed")
    await page.screenshot({ path: screenshotPath(test, "4-confirmation"), fullPage: true })
    const orderId = new URL(page.url()).pathname.split("/").pop()!
    const headers = await adminHeaders(stack.ready)
    const { order } = await adminGet(stack.ready, headers, `/admin/orders/${orderId}?fields=id,*payment_collections.payments`)
    const payment = order.payment_collections[0].payments[0]
    expect(payment.provider_id).toBe("pp_sipay-2d_sipay")
    expect(payment.captured_at).toBeTruthy()
    expect(payment.data.installments).toBe(3)
    expect(storefrontErrors).toEqual([])
    orders.push(orderId)
    await context.close()
  })

  it("stops cleanly on Ctrl-C, and a second start reuses the data", async () => {
    const first = stack.ready
    expect(await stack.restart()).toBe(0)
    expect(stack.demo.output).not.toContain("(created)")
    expect(stack.ready.publishable_key).toBe(first.publishable_key)
    expect(stack.ready.region_id).toBe(first.region_id)
    expect(stack.ready.admin_password).toBe(first.admin_password)
    const headers = await adminHeaders(stack.ready)
    for (const orderId of orders) {
      const { order } = await adminGet(stack.ready, headers, `/admin/orders/${orderId}?fields=id`)
      expect(order.id).toBe(orderId)
    }
    const { products } = await adminGet(stack.ready, headers, "/admin/products?fields=id,handle&limit=50")
    expect(products).toHaveLength(5)
  })
})
