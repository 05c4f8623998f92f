import { readFileSync } from "node:fs"
import type { Page } from "playwright-core"
import { screenshotPath } from "../../../../integration-tests/harness/browser"

export const AXE_SOURCE = readFileSync(require.resolve("axe-core"), "utf8")

/** Console errors, uncaught page errors and CSP reports of a page, across navigations. */
export function watchConsole(page: Page): string[] {
  const problems: string[] = []
  page.on("console", (message) => {
    if (message.type() === "error" || /Content Security Policy/i.test(message.text())) {
      problems.push(`console ${message.type()}: ${message.text()}`)
    }
  })
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`))
  return problems
}

type AxeViolation = { id: string; impact: string; help: string; nodes: { target: string[] }[] }

/** Runs axe-core (WCAG 2.x A/AA and best practices) on the page; needs a context with bypassCSP. */
export async function axeViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => "axe" in window))) {
    await page.addScriptTag({ content: AXE_SOURCE })
  }
  const violations: AxeViolation[] = await page.evaluate(async () => {
    const result = await (window as any).axe.run(document, {
      runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"] },
    })
    return result.violations
  })
  return violations.map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)
}

/** Opens the page as a shopper's browser does and waits until its script has shown the session's card form. */
export async function openHostedPage(page: Page, url: string) {
  const response = await page.goto(url)
  await page.waitForSelector("#card-form")
  return response
}

export async function shoot(page: Page, testName: string, step: string): Promise<void> {
  await page.screenshot({ path: screenshotPath(testName, step), fullPage: true })
}

export const activeId = (page: Page) => page.evaluate(() => document.activeElement?.id || document.activeElement?.tagName || "")

export const textOf = (page: Page, selector: string) => page.$eval(selector, (el) => (el.textContent ?? "").trim())

/** Waits until the element's trimmed text is non-empty, then returns it. */
export async function waitForText(page: Page, selector: string): Promise<string> {
  await page.waitForFunction((s) => (document.querySelector(s)?.textContent ?? "").trim().length > 0, selector)
  return textOf(page, selector)
}

/** An expiry that is always in the future, and one that is always in the past. */
export function futureExpiry(): { month: string; year: string } {
  return { month: "05", year: String(new Date().getFullYear() + 3) }
}
export function pastExpiry(): { month: string; year: string } {
  return { month: "12", year: String(new Date().getFullYear() - 1) }
}

export const CARD_FIELD_NAMES = ["cc_holder_name", "cc_no", "expiry_month", "expiry_year", "cvv"]
