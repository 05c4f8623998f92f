import { readFileSync } from "node:fs"
import type { Page } from "playwright-core"

const AXE_SOURCE = readFileSync(require.resolve("axe-core"), "utf8")

/** axe-core's WCAG 2.1 AA and best-practice violations on the page as it is, as "id: help" lines. */
export async function axeViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: AXE_SOURCE })
  const violations = await page.evaluate(async () => {
    const result = await (window as any).axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21aa", "best-practice"] } })
    return result.violations as { id: string; help: string; nodes: { target: string[] }[] }[]
  })
  return violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`)
}
