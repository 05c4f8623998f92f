import type { Browser, Page } from "playwright-core"
import { SMS_TEST_CODE } from "../../src/sandbox/cards"
import { launchBrowser, screenshotPath } from "../harness/browser"
import { adminGet, adminHeaders, DemoReady, useDemoStack } from "../harness/demo-stack"
import { PAYING_CARD } from "../harness/shopper"

// The merchant in real Chromium on the admin the demo builds and serves: a payment link created with
// a photo, e-mailed to two addresses (the sandbox's outbox), paid on the sandbox's payer page and its
// uses refreshed; then, under Settings → Sipay, a settings change that the next checkout uses and
// direct payment shown read-only with how to change it.

// A busy machine can take minutes for the demo's first migrations: the boot gets its own budget.
jest.setTimeout(900 * 1000)

const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64"
)
const RECIPIENTS = ["ayse@example.com", "mehmet@example.com"]
/** An expiry 45 days ahead in the gateway's calendar (Istanbul), as "YYYY-MM-DD". */
const expiry = new Date(Date.now() + 3 * 3600_000 + 45 * 86400_000).toISOString().slice(0, 10)

/** A new checkout on the demo store, as a storefront starts one: cart, payment session, then the 3D form the plugin signs. */
async function newThreeDForm(ready: DemoReady): Promise<{ fields: Record<string, string> }> {
  const store = async (path: string, body?: unknown) => {
    const response = await fetch(`${ready.store_url}${path}`, {
      method: body === undefined ? "GET" : "POST",
      headers: { "content-type": "application/json", "x-publishable-api-key": ready.publishable_key },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const answer = await response.json()
    if (!response.ok) {
      throw new Error(`${path} answered ${response.status}: ${JSON.stringify(answer)}`)
    }
    return answer
  }
  const { products } = await store(`/store/products?fields=id,*variants&region_id=${ready.region_id}`)
  const address = { first_name: "Ayşe", last_name: "Yılmaz", address_1: "İstiklal Cd. 1", city: "İstanbul", country_code: "tr", postal_code: "34430" }
  const { cart } = await store("/store/carts", {
    region_id: ready.region_id,
    email: "ayse@example.com",
    items: [{ variant_id: products[0].variants[0].id, quantity: 1 }],
    shipping_address: address,
    billing_address: address,
  })
  const { payment_collection } = await store("/store/payment-collections", { cart_id: cart.id })
  const withSession = await store(`/store/payment-collections/${payment_collection.id}/payment-sessions`, { provider_id: "pp_sipay_sipay" })
  const session = withSession.payment_collection.payment_sessions[0]
  return store(`/store/sipay/payment-sessions/${session.id}/3d-form`, { installments_number: 1, cart_id: cart.id })
}

describe("admin: payment links and Sipay settings in a real browser", () => {
  const stack = useDemoStack({ timeoutMs: 600 * 1000 })
  let ready: DemoReady
  let browser: Browser
  let page: Page
  let linkBase: string
  let created: { id: string; dpl_id: number; link: string }

  beforeAll(async () => {
    ready = stack.ready
    browser = await launchBrowser()
    linkBase = new URL(ready.sandbox_url).origin
    const context = await browser.newContext({ locale: "en-US", viewport: { width: 1440, height: 1000 } })
    page = await context.newPage()
    page.setDefaultTimeout(120 * 1000)
  })

  afterAll(async () => {
    await browser?.close()
  })

  async function outbox(dplId: number): Promise<{ to: string; link: string }[]> {
    const mails = (await (await fetch(`${linkBase}/__sandbox/outbox`)).json()) as { to: string; link: string; dpl_id: number }[]
    return mails.filter((mail) => mail.dpl_id === dplId)
  }

  /** The created link's drawer, opened from the table if it is not open (the admin in development mode may reload a page once). */
  async function openLinkDrawer() {
    if (!(await page.locator("#payer-link").isVisible())) {
      if (!page.url().endsWith("/app/payment-links")) {
        await page.goto(`${ready.admin_url}/payment-links`)
      }
      await page.getByTestId("link-row").first().click()
    }
    await page.locator("#payer-link").waitFor()
  }

  it("logs in and creates a link with a photo, previewed before it is sent", async () => {
    const test = "admin payment links create"
    await page.goto(ready.admin_url)
    await page.fill('input[name="email"]', ready.admin_email)
    await page.fill('input[name="password"]', ready.admin_password)
    await Promise.all([page.waitForURL(/\/app\/orders/), page.click('button[type="submit"]')])

    await page.getByRole("link", { name: "Payment links", exact: true }).click()
    await page.waitForURL(/\/app\/payment-links/)
    await page.waitForLoadState("networkidle")
    await page.getByTestId("links-empty").waitFor()
    await page.screenshot({ path: screenshotPath(test, "1-empty"), fullPage: true })

    await page.getByRole("button", { name: "Create link" }).first().click()
    // Nothing is flagged before the owner touches the form; the photo says it is required.
    await page.locator("#link-name").waitFor()
    expect(await page.getByTestId("field-problem").count()).toBe(0)
    expect(await page.locator('#create-payment-link [aria-invalid="true"]').count()).toBe(0)
    expect(await page.locator('#create-payment-link :invalid').count()).toBe(0)
    expect(await page.locator('label[for="link-photo"]').innerText()).toContain("required")
    await page.screenshot({ path: screenshotPath(test, "2a-form-untouched") })
    // Leaving a required field empty flags that field only; trying to create flags every missing one.
    await page.focus("#link-name")
    await page.focus("#link-description")
    await page.getByTestId("field-problem").first().waitFor()
    expect(await page.getByTestId("field-problem").allInnerTexts()).toEqual(["Give the product's name"])
    await page.getByRole("button", { name: "Create link", exact: true }).last().click()
    await page.getByTestId("field-problem").nth(3).waitFor()
    expect(await page.getByTestId("field-problem").allInnerTexts()).toEqual(["Give the product's name", "Give a description", "Give the amount", "Choose a product photo"])
    expect(await page.getAttribute("#link-amount", "aria-invalid")).toBe("true")
    await page.screenshot({ path: screenshotPath(test, "2b-form-flagged") })
    await page.fill("#link-name", "Seramik kupa / Ceramic mug")
    await page.fill("#link-description", "El yapımı, Kütahya")
    await page.fill("#link-amount", "250.50")
    await page.fill("#link-expire-hour", "18")
    await page.fill("#link-max-uses", "3")
    // The currency from @medusajs/ui's Select, the expiry typed into its DatePicker (en-US: month, day, year).
    await page.click("#link-currency")
    await page.getByRole("option", { name: "EUR" }).click()
    await page.getByRole("group", { name: "Expires on" }).getByRole("spinbutton").first().click()
    await page.keyboard.type(`${expiry.slice(5, 7)}${expiry.slice(8, 10)}${expiry.slice(0, 4)}`)
    await page.setInputFiles("#link-photo-file", { name: "mug.png", mimeType: "image/png", buffer: PNG })
    await page.getByTestId("photo-preview").waitFor()
    await page.screenshot({ path: screenshotPath(test, "2-form-with-preview") })
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="field-problem"]').length === 0)
    await page.getByRole("button", { name: "Create link", exact: true }).last().click()

    const payerLink = page.locator("#payer-link")
    await payerLink.waitFor()
    const link = await payerLink.inputValue()
    expect(link).toMatch(new RegExp(`^${linkBase}/dplLink/[A-Za-z0-9]+$`))
    await page.screenshot({ path: screenshotPath(test, "3-created") })

    const headers = await adminHeaders(ready)
    const { payment_links } = await adminGet(ready, headers, "/admin/sipay/payment-links")
    expect(payment_links).toHaveLength(1)
    expect(payment_links[0]).toMatchObject({ name_of_product: "Seramik kupa / Ceramic mug", amount: "250.50", max_number_of_uses: 3, link, photo_filename: "mug.png", currency_code: "EUR" })
    expect(String(payment_links[0].expire_date)).toContain(expiry)
    created = payment_links[0]
  })

  it("sends it to two addresses: both e-mails reach the sandbox's outbox", async () => {
    const test = "admin payment links send"
    await openLinkDrawer()
    await page.fill("#send-addresses", RECIPIENTS.join(", "))
    await page.getByRole("button", { name: "Send", exact: true }).click()
    await page.getByTestId("email-history").waitFor()
    expect(await page.getByTestId("email-history").innerText()).toContain(RECIPIENTS.join(", "))
    const drawerText = await page.getByRole("dialog").innerText()
    expect(drawerText).toContain("when e-mailed")
    expect(drawerText).not.toMatch(/sendemail/i)
    // React's DOM-nesting warning came from a status badge (a block) inside a paragraph.
    expect(await page.locator('[role="dialog"] p div, [role="dialog"] p p').count()).toBe(0)
    await page.screenshot({ path: screenshotPath(test, "1-sent") })

    const mails = await outbox(created.dpl_id)
    expect(mails.map((mail) => mail.to).sort()).toEqual(RECIPIENTS)
    expect(mails.every((mail) => mail.link === created.link)).toBe(true)

    await page.keyboard.press("Escape")
    await page.getByRole("dialog").waitFor({ state: "hidden" })
    expect(await page.getByTestId("row-emailed").first().innerText()).toBe("2 addresses")
    await page.screenshot({ path: screenshotPath(test, "2-table"), fullPage: true })
  })

  it("a payer pays on the sandbox's payer page, and a refresh shows its uses going up", async () => {
    const test = "admin payment links pay and refresh"
    const payer = await browser.newPage()
    await payer.goto(created.link)
    await payer.fill("#cc_holder_name", PAYING_CARD.cc_holder_name)
    await payer.fill("#cc_no", PAYING_CARD.cc_no)
    await payer.fill("#expiry_month", PAYING_CARD.expiry_month)
    await payer.fill("#expiry_year", PAYING_CARD.expiry_year)
    await payer.fill("#cvv", PAYING_CARD.cvv)
    await payer.screenshot({ path: screenshotPath(test, "1-payer-page"), fullPage: true })
    await payer.click("button.confirm")
    await payer.locator("#sms_code").waitFor()
    await payer.fill("#sms_code", SMS_TEST_CODE)
    await Promise.all([payer.waitForURL(/\/result/), payer.click("button.confirm")])
    expect(await payer.textContent("body")).toMatch(/Payment successful|Ödeme başarılı/)
    await payer.screenshot({ path: screenshotPath(test, "2-paid"), fullPage: true })
    await payer.close()

    expect(await page.getByTestId("row-uses").first().innerText()).toBe("0 / 3")
    await page.getByTestId("link-row").first().click()
    await page.getByRole("button", { name: "Refresh uses" }).click()
    await page.waitForFunction(() => document.querySelector('[data-testid="link-uses"]')?.textContent === "1 / 3")
    await page.screenshot({ path: screenshotPath(test, "3-refreshed") })
    await page.keyboard.press("Escape")
    await page.getByRole("dialog").waitFor({ state: "hidden" })
    expect(await page.getByTestId("row-uses").first().innerText()).toBe("1 / 3")
  })

  it("under Settings → Sipay: a settings change (capture off) is used by the next checkout; test connection reports is_3d; direct payment is read-only", async () => {
    const test = "admin sipay settings"
    // Not in the main sidebar: under Settings, with Medusa's own configuration pages.
    expect(await page.getByRole("link", { name: "Sipay settings", exact: true }).count()).toBe(0)
    await page.goto(`${ready.admin_url}/settings`)
    await page.getByRole("link", { name: "Sipay", exact: true }).click()
    await page.waitForURL(/\/app\/settings\/sipay/)
    await page.waitForLoadState("networkidle")
    await page.locator("#setting-capture").waitFor()

    // The demo's configuration enables direct payment: shown as it is, with how to change it, no switch.
    expect(await page.locator("#setting-direct_payment_enabled").count()).toBe(0)
    const direct = await page.getByTestId("direct-payment-status").innerText()
    expect(direct).toContain("On")
    expect(direct).toContain("enableDirectPayment")
    expect(direct).toContain("restart")
    expect(await page.locator("body").innerText()).not.toMatch(/direct[^.]*without a restart/i)
    expect(await page.getByTestId("base-url").innerText()).toBe(ready.sandbox_url)
    expect(await page.getByTestId("masked-app-id").innerText()).toContain("•")
    await page.screenshot({ path: screenshotPath(test, "1-settings"), fullPage: true })

    await page.getByRole("button", { name: "Test connection" }).click()
    await page.getByTestId("connection-result").waitFor()
    expect(await page.getByTestId("connection-result").innerText()).toMatch(/2D and 3D: .*\(permission code 1,/)

    expect(await page.getAttribute("#setting-capture", "aria-checked")).toBe("true")
    await page.click("#setting-capture")
    await page.getByRole("button", { name: "Save settings" }).click()
    await page.waitForFunction(() => document.querySelector("#setting-capture")?.getAttribute("aria-checked") === "false")
    await page.getByText("Settings saved").first().waitFor()
    await page.screenshot({ path: screenshotPath(test, "2-capture-off"), fullPage: true })

    const headers = await adminHeaders(ready)
    const settings = await adminGet(ready, headers, "/admin/sipay/settings")
    expect(settings.settings.capture).toBe(false)
    expect(settings.stored.capture).toBe(false)

    const form = await newThreeDForm(ready)
    expect(form.fields.transaction_type).toBe("PreAuth")
  })
})
