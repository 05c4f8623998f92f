import type { Browser, BrowserContext, Page } from "playwright-core"
import { launchBrowser } from "../../../../integration-tests/harness/browser"
import { hostedPageHeaders } from "../headers"
import { MESSAGES } from "../messages"
import { CARD_FIELD_NAMES, futureExpiry, openHostedPage, pastExpiry, shoot, textOf, waitForText, watchConsole } from "./browser-helpers"
import { CARDS, HostedPageFixture, PAGE_PATH, PAGE_TOKEN, startHostedPageFixture } from "./hosted-page-fixture"

jest.setTimeout(120_000)

let browser: Browser
let fixture: HostedPageFixture
let context: BrowserContext
let page: Page
let problems: string[]

beforeAll(async () => {
  ;[browser, fixture] = await Promise.all([launchBrowser(), startHostedPageFixture()])
})
afterAll(async () => {
  await browser?.close()
  await fixture?.close()
})
// every test runs with the page's own CSP in force (no bypass) and must log no error or violation
beforeEach(async () => {
  context = await browser.newContext()
  page = await context.newPage()
  problems = watchConsole(page)
  fixture.signFailures = 0
  fixture.signDelayMs = 0
})
afterEach(async () => {
  await context.close()
})

const HOLDER = "Zeynep Öztürk"
const CVV = "737"

async function fillCard(number: string, expiry = futureExpiry()): Promise<void> {
  await page.fill("#cc_holder_name", HOLDER)
  await page.fill("#cc_no", number)
  await page.fill("#expiry_month", expiry.month)
  await page.fill("#expiry_year", expiry.year)
  await page.fill("#cvv", CVV)
}

async function submitToGateway(): Promise<URLSearchParams> {
  const before = fixture.gatewayPosts.length
  await Promise.all([page.waitForURL(`${fixture.gatewayOrigin}/**`), page.click("#pay-button")])
  expect(fixture.gatewayPosts).toHaveLength(before + 1)
  return new URLSearchParams(fixture.gatewayPosts[before].body)
}

describe("hosted card page in a real browser: payment", () => {
  it("posts the card and the signed fields to the gateway, while sign and the store never see the card", async () => {
    const requestsBefore = fixture.storeRequests.length
    const response = await openHostedPage(page, fixture.pageUrl("en"))
    const csp = response!.headers()["content-security-policy"]
    expect(csp).toMatch(/^default-src 'none'; script-src 'nonce-[A-Za-z0-9+/]{22}=='; /)
    expect(csp).toContain(`form-action 'self' ${fixture.gatewayOrigin}`)
    const nonce = csp.match(/'nonce-([^']+)'/)![1]
    expect(response!.headers()).toMatchObject(
      Object.fromEntries(
        Object.entries(hostedPageHeaders({ nonce, gatewayOrigin: fixture.gatewayOrigin, frameAncestors: ["https://shop.example"] })).map(
          ([k, v]) => [k.toLowerCase(), v]
        )
      )
    )

    const number = CARDS.withInstallments
    await fillCard(number)
    await page.waitForSelector("#installment-6")
    expect(await page.$("#installment-9")).toBeNull() // above maxInstallments
    expect(await page.isChecked("#installment-1")).toBe(true)
    expect(fixture.storeRequests.filter((r) => r.url.includes("/installments")).map((r) => [r.method, r.url, JSON.parse(r.body)])).toEqual([
      ["POST", `${PAGE_PATH}/installments`, { token: PAGE_TOKEN, bin: "450803", locale: "en" }],
    ])
    await page.check("#installment-6")
    await shoot(page, "hosted page payment", "1-filled-6-installments")

    const posted = await submitToGateway()
    await shoot(page, "hosted page payment", "2-gateway")
    const expiry = futureExpiry()
    const signed = fixture.signedFields.at(-1)!
    expect(Object.fromEntries(posted)).toEqual({
      ...signed,
      // The payer's name from the holder's name as typed: the store sent the page no shopper data.
      name: "Zeynep",
      surname: "Öztürk",
      cc_holder_name: HOLDER,
      cc_no: number,
      expiry_month: expiry.month,
      expiry_year: expiry.year,
      cvv: CVV,
    })
    expect([...posted.keys()]).toHaveLength(new Set(posted.keys()).size)
    expect(signed.installments_number).toBe("6")
    expect(fixture.gatewayPosts.at(-1)!.headers["content-type"]).toBe("application/x-www-form-urlencoded")
    expect(fixture.gatewayPosts.at(-1)!.headers.referer).toBeUndefined()

    const signBody = JSON.parse(fixture.signRequests.at(-1)!.body)
    // The BIN (never the whole number) for an installment fee at the gateway's rate.
    expect(signBody).toEqual({ token: PAGE_TOKEN, installments_number: 6, locale: "en", bin: "450803" })
    // The token travels in POST bodies only: no request line (what servers and proxies log) or Referer carries it.
    const requests = fixture.storeRequests.slice(requestsBefore)
    expect(requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      `GET ${PAGE_PATH}?lang=en`,
      `POST ${PAGE_PATH}/content`,
      `POST ${PAGE_PATH}/installments`,
      `POST ${PAGE_PATH}/sign`,
    ])
    for (const request of requests) {
      expect([request.url, String(request.headers.referer ?? "")].join(" ")).not.toContain(PAGE_TOKEN.slice(0, 20))
    }
    expect(JSON.parse(requests[1].body)).toEqual({ token: PAGE_TOKEN, lang: "en" })
    for (const request of fixture.storeRequests) {
      // Addresses carry a random port that can contain the CVV's digits: they are left out.
      const { host: _host, origin: _origin, referer: _referer, ...headers } = request.headers as Record<string, unknown>
      const seen = `${request.url} ${request.body} ${JSON.stringify(headers)}`
      for (const secret of [number, number.slice(6), CVV, HOLDER, encodeURIComponent(HOLDER), ...CARD_FIELD_NAMES]) {
        expect([request.url, seen.includes(secret)]).toEqual([request.url, false])
      }
    }
    expect(problems).toEqual([])
  })

  it("refuses a bad Luhn number and a past expiry, announces it, and signs nothing", async () => {
    const t = MESSAGES.tr
    await openHostedPage(page, fixture.pageUrl("tr"))
    const signsBefore = fixture.signRequests.length
    const bad = CARDS.badLuhn
    await fillCard(bad, pastExpiry())
    await page.press("#cvv", "Enter")

    expect(await waitForText(page, "#form-status")).toBe(t.errorSummary)
    expect(await page.getAttribute("#form-status", "role")).toBe("alert")
    expect(await page.getAttribute("#cc_no", "aria-invalid")).toBe("true")
    expect(await page.getAttribute("#cc_no", "aria-describedby")).toBe("cc_no-error")
    expect(await textOf(page, "#cc_no-error")).toBe(t.errorNumberInvalid)
    expect(await page.isVisible("#cc_no-error")).toBe(true)
    expect(await page.getAttribute("#expiry_year", "aria-invalid")).toBe("true")
    expect(await page.getAttribute("#expiry_month", "aria-invalid")).toBe("true")
    expect(await page.getAttribute("#expiry_year", "aria-describedby")).toBe("expiry-error")
    expect(await textOf(page, "#expiry-error")).toBe(t.errorExpired)
    expect(await page.getAttribute("#cvv", "aria-invalid")).toBeNull()
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("cc_no")
    await shoot(page, "hosted page validation", "1-errors-announced")

    // correcting a field clears its error as the shopper types
    await page.fill("#cc_no", CARDS.withInstallments)
    expect(await page.getAttribute("#cc_no", "aria-invalid")).toBeNull()
    expect(await page.isVisible("#cc_no-error")).toBe(false)
    expect(await textOf(page, "#expiry-error")).toBe(t.errorExpired)
    await shoot(page, "hosted page validation", "2-number-corrected")
    expect(fixture.signRequests.length).toBe(signsBefore)
    expect(fixture.gatewayPosts.every((post) => !post.body.includes(bad))).toBe(true)
    expect(problems).toEqual([])
  })

  it("keeps single payment when the installment lookup fails, and says so", async () => {
    await openHostedPage(page, fixture.pageUrl("tr"))
    await fillCard(CARDS.lookupFails)
    expect(await waitForText(page, "#installments-status")).toBeTruthy()
    await page.waitForFunction((text) => document.getElementById("installments-status")?.textContent === text, MESSAGES.tr.installmentsFailed)
    expect(await page.$$eval("#installment-options input", (inputs) => inputs.map((i) => (i as HTMLInputElement).value))).toEqual(["1"])
    expect(await page.isChecked("#installment-1")).toBe(true)
    await shoot(page, "hosted page installments failed", "1-single-payment")
    const posted = await submitToGateway()
    expect(posted.get("installments_number")).toBe("1")
    expect(JSON.parse(fixture.signRequests.at(-1)!.body)).toEqual({ token: PAGE_TOKEN, installments_number: 1, locale: "tr", bin: CARDS.lookupFails.slice(0, 6) })
    // the failed lookup's 502 is the only console error
    expect(problems.filter((p) => !p.includes("502"))).toEqual([])
  })

  it("names installment choices in the page's language, not with the gateway's English titles", async () => {
    for (const lang of ["tr", "en"] as const) {
      await openHostedPage(page, fixture.pageUrl(lang))
      await fillCard(CARDS.withInstallments)
      await page.waitForSelector("#installment-3")
      const text = await textOf(page, "#installment-options")
      expect(text).toContain(MESSAGES[lang].installmentCount.replace("{count}", "3"))
      expect(text).toContain("Bonus")
      expect(text).not.toContain("3 Installments")
      expect(text).not.toContain("2 Installments")
    }
    expect(problems).toEqual([])
  })

  it("shows agricultural options only when offered and chosen, and sends them to sign", async () => {
    await openHostedPage(page, fixture.pageUrl("tr"))
    await fillCard(CARDS.withInstallments)
    await page.waitForSelector("#installment-3")
    expect(await page.$("#installment-agricultural")).toBeNull()
    expect(await page.isVisible("#agricultural-options")).toBe(false)

    await page.fill("#cc_no", CARDS.agricultural)
    await page.waitForSelector("#installment-agricultural")
    expect(await page.isVisible("#maturity_period")).toBe(false)
    await page.check("#installment-agricultural")
    expect(await page.isVisible("#maturity_period")).toBe(true)
    await page.selectOption("#maturity_period", "60")
    await page.selectOption("#payment_frequency", "3")
    await shoot(page, "hosted page agricultural", "1-chosen")
    const posted = await submitToGateway()
    expect(JSON.parse(fixture.signRequests.at(-1)!.body)).toEqual({
      token: PAGE_TOKEN,
      installments_number: 1,
      maturity_period: 60,
      payment_frequency: 3,
      locale: "tr",
      bin: CARDS.agricultural.slice(0, 6),
    })
    expect(posted.get("maturity_period")).toBe("60")
    expect(posted.getAll("payment_frequency")).toEqual(["3"])
    expect(posted.has("installment")).toBe(false)
    expect(problems).toEqual([])
  })

  it("announces a sign error, signs once on a double click, and goes through on retry", async () => {
    await openHostedPage(page, fixture.pageUrl("tr"))
    await fillCard(CARDS.withInstallments)
    await page.waitForSelector("#installment-2")
    fixture.signFailures = 1
    fixture.signDelayMs = 400
    const signsBefore = fixture.signRequests.length
    await page.dblclick("#pay-button")
    expect(await page.isDisabled("#pay-button")).toBe(true)
    expect(await textOf(page, "#pay-button")).toBe(MESSAGES.tr.paying)
    expect(await waitForText(page, "#form-status")).toBe("Sepetiniz değişti; lütfen tekrar deneyin.")
    expect(fixture.signRequests.length).toBe(signsBefore + 1)
    expect(await page.isDisabled("#pay-button")).toBe(false)
    expect(page.url()).toBe(fixture.pageUrl("tr"))
    await shoot(page, "hosted page sign error", "1-announced")

    fixture.signDelayMs = 0
    const posted = await submitToGateway()
    expect(fixture.signRequests.length).toBe(signsBefore + 2)
    expect(posted.get("invoice_id")).toBe(fixture.signedFields.at(-1)!.invoice_id)
    // the sign endpoint's 409 is the only console error
    expect(problems.filter((p) => !p.includes("409"))).toEqual([])
  })

  it("enforces the policy: a script without the nonce does not run", async () => {
    await openHostedPage(page, fixture.pageUrl("tr"))
    await page.evaluate(() => {
      const script = document.createElement("script")
      script.textContent = "window.__injected = true"
      document.body.appendChild(script)
    })
    expect(await page.evaluate(() => (window as any).__injected)).toBeUndefined()
    expect(problems.some((p) => /Content Security Policy/.test(p))).toBe(true)
  })

  it("without the token, or with a wrong one, says the link is not valid and shows nothing of the session", async () => {
    for (const token of [null, "wrong.token"]) {
      await page.goto(fixture.pageUrl("en", token))
      await page.waitForSelector("[role=alert]")
      expect(await textOf(page, "[role=alert]")).toBe(MESSAGES.en.linkInvalid)
      expect(await page.$("#card-form")).toBeNull()
      expect(await page.content()).not.toContain("1,249.90")
    }
    await shoot(page, "hosted page without token", "1-link-invalid")
    // the refused content request (404) is the only console error
    expect(problems.filter((p) => !p.includes("404"))).toEqual([])
  })

  it("the language switch keeps the token in the fragment and shows the page in the other language", async () => {
    await openHostedPage(page, fixture.pageUrl("tr"))
    await Promise.all([page.waitForURL(`**/sipay/checkout/**?lang=en#token=*`), page.click("#switch-language")])
    await page.waitForSelector("#card-form")
    expect(await page.getAttribute("html", "lang")).toBe("en")
    expect(await textOf(page, "h1")).toBe(MESSAGES.en.pageTitle)
    expect(new URL(page.url()).hash).toBe(`#token=${encodeURIComponent(PAGE_TOKEN)}`)
    expect(problems).toEqual([])
  })
})
