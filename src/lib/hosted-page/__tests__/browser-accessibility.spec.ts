import type { Browser } from "playwright-core"
import { launchBrowser } from "../../../../integration-tests/harness/browser"
import { MESSAGES } from "../messages"
import { formatAmount } from "../render"
import { activeId, axeViolations, futureExpiry, openHostedPage, shoot, textOf, waitForText, watchConsole } from "./browser-helpers"
import { CARDS, HostedPageFixture, PAGE_TOKEN, startHostedPageFixture } from "./hosted-page-fixture"

jest.setTimeout(120_000)

let browser: Browser
let fixture: HostedPageFixture

beforeAll(async () => {
  ;[browser, fixture] = await Promise.all([launchBrowser(), startHostedPageFixture()])
})
afterAll(async () => {
  await browser?.close()
  await fixture?.close()
})

describe("hosted card page in a real browser: accessibility", () => {
  for (const lang of ["tr", "en"] as const) {
    it(`has no axe violations in ${lang}: empty, with errors and with installment options`, async () => {
      const t = MESSAGES[lang]
      // axe is injected as a script: only this context bypasses the page's CSP
      const context = await browser.newContext({ bypassCSP: true })
      const page = await context.newPage()
      await openHostedPage(page, fixture.pageUrl(lang))
      expect(await page.getAttribute("html", "lang")).toBe(lang)
      expect(await page.title()).toContain(t.pageTitle)
      expect(await textOf(page, ".amount strong")).toBe(formatAmount("1249.90", "TRY", lang))
      expect(await axeViolations(page)).toEqual([])
      await shoot(page, `hosted page axe ${lang}`, "1-empty")

      await page.click("#pay-button")
      expect(await waitForText(page, "#form-status")).toBe(t.errorSummary)
      expect(await axeViolations(page)).toEqual([])
      await shoot(page, `hosted page axe ${lang}`, "2-errors")

      await page.fill("#cc_no", CARDS.withInstallments)
      await page.waitForSelector("#installment-3")
      expect(await axeViolations(page)).toEqual([])
      await shoot(page, `hosted page axe ${lang}`, "3-installments")

      await page.fill("#cc_no", CARDS.agricultural)
      await page.waitForSelector("#installment-agricultural")
      await page.check("#installment-agricultural")
      expect(await page.isVisible("#maturity_period")).toBe(true)
      expect(await axeViolations(page)).toEqual([])
      await shoot(page, `hosted page axe ${lang}`, "4-agricultural")

      await page.click(`a[hreflang="${lang === "tr" ? "en" : "tr"}"]`)
      expect(await page.getAttribute("html", "lang")).toBe(lang === "tr" ? "en" : "tr")
      await context.close()
    })
  }

  it("can be completed with the keyboard alone, in tab order, with a visible focus", async () => {
    const context = await browser.newContext()
    const page = await context.newPage()
    const problems = watchConsole(page)
    await openHostedPage(page, fixture.pageUrl("tr"))
    const { month, year } = futureExpiry()
    const number = CARDS.withInstallments
    const name = "test keyboard"

    const order: string[] = []
    for (let i = 0; i < 9; i++) {
      await page.keyboard.press("Tab")
      order.push(await activeId(page))
      const outline = await page.evaluate(() => {
        const style = getComputedStyle(document.activeElement as Element)
        return { style: style.outlineStyle, width: parseFloat(style.outlineWidth) }
      })
      expect([order[i], outline.style, outline.width >= 2]).toEqual([order[i], "solid", true])
    }
    expect(order).toEqual([
      "switch-language", "cc_holder_name", "cc_no", "expiry_month", "expiry_year", "cvv", "installment-1", "pay-button", "cancel-link",
    ])

    for (let i = 0; i < 7; i++) {
      await page.keyboard.press("Shift+Tab") // back up from the cancel link to the name field
    }
    expect(await activeId(page)).toBe("cc_holder_name")
    await page.keyboard.type("Ayşe Yılmaz")
    await page.keyboard.press("Tab")
    await page.keyboard.type(number.replace(/(\d{4})(?=\d)/g, "$1 "))
    await page.waitForSelector("#installment-6")
    expect(await textOf(page, "#installments-status")).toBe(MESSAGES.tr.installmentsLoaded.replace("{count}", "4"))
    await page.keyboard.press("Tab")
    await page.keyboard.type(month)
    await page.keyboard.press("Tab")
    await page.keyboard.type(year)
    await page.keyboard.press("Tab")
    await page.keyboard.type("737")
    await page.keyboard.press("Tab")
    expect(await activeId(page)).toBe("installment-1")
    // radios move with the arrow keys (the native radio group); Space confirms the focused one
    await page.keyboard.press("ArrowDown")
    await page.keyboard.press("ArrowDown")
    await page.keyboard.press("Space")
    expect(await activeId(page)).toBe("installment-3")
    expect(await page.isChecked("#installment-3")).toBe(true)
    await shoot(page, "hosted page keyboard", "1-filled")
    await page.keyboard.press("Tab")
    expect(await activeId(page)).toBe("pay-button")
    await Promise.all([page.waitForURL(`${fixture.gatewayOrigin}/**`), page.keyboard.press("Enter")])
    await shoot(page, "hosted page keyboard", "2-gateway")

    const posted = new URLSearchParams(fixture.gatewayPosts.at(-1)!.body)
    expect(posted.get("cc_no")).toBe(number)
    expect(posted.get("installments_number")).toBe("3")
    expect(JSON.parse(fixture.signRequests.at(-1)!.body)).toEqual({ token: PAGE_TOKEN, installments_number: 3, locale: "tr", bin: number.slice(0, 6) })
    expect(problems).toEqual([])
    await context.close()
  })

  it("fits a 320px wide screen without horizontal scrolling", async () => {
    const context = await browser.newContext({ viewport: { width: 320, height: 700 } })
    const page = await context.newPage()
    await openHostedPage(page, fixture.pageUrl("tr"))
    await page.fill("#cc_no", CARDS.withInstallments)
    await page.waitForSelector("#installment-6")
    await page.click("#pay-button")
    await waitForText(page, "#form-status")
    const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }))
    expect(widths.scroll).toBeLessThanOrEqual(widths.client)
    await shoot(page, "hosted page 320px", "1-errors-and-installments")
    await context.close()
  })
})
