import { execFileSync } from "node:child_process"
import { readFileSync } from "node:fs"
import { dirname, join, normalize } from "node:path"
import { commandLines, envValue, headingAnchors, markdownLinks, README_PATH, readInstallRegions, sandboxFromReadme, words } from "./readme-regions"

/**
 * README as a newcomer and npm get it, checked in seconds (the install test runs the same blocks in
 * real stores and checks the links against the tarball it packs): short, its install blocks in the
 * order a store owner runs them, and every relative link, of README and of the docs it links to, a
 * file the package ships with the heading the link names.
 */

const ROOT = join(__dirname, "..", "..")
const readme = readFileSync(README_PATH, "utf8")

function packedFiles(): string[] {
  const output = execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] })
  const [info] = JSON.parse(output.slice(output.search(/^\[/m)))
  return (info.files as { path: string }[]).map((file) => file.path)
}

/** Relative links of a shipped markdown file that do not resolve to a shipped file and heading. */
function brokenLinks(file: string, packed: string[], onlyMarkdown: boolean): string[] {
  const text = readFileSync(join(ROOT, file), "utf8")
  return markdownLinks(text)
    .filter((target) => !/^[a-z]+:/i.test(target))
    .filter((target) => !onlyMarkdown || /\.md(#|$)/.test(target) || target.startsWith("#"))
    .filter((target) => {
      const [path, anchor] = target.split("#", 2)
      const resolved = path ? normalize(join(dirname(file), path)) : file
      if (!packed.includes(resolved)) return true
      return anchor !== undefined && !headingAnchors(readFileSync(join(ROOT, resolved), "utf8")).has(anchor)
    })
    .map((target) => `${file}: ${target}`)
}

describe("README for a newcomer", () => {
  it("is at most 300 lines", () => {
    expect(readme.split("\n").length).toBeLessThanOrEqual(300)
  })

  it("every relative link of README, and every markdown link of the docs, is a file the package ships, with the heading it names", () => {
    const packed = packedFiles()
    const linked = markdownLinks(readme).filter((target) => !/^[a-z]+:/i.test(target))
    expect(linked.length).toBeGreaterThan(10)
    expect(brokenLinks("README.md", packed, false)).toEqual([])
    const docs = packed.filter((file) => /^docs\/.*\.md$/.test(file))
    expect(docs).toEqual(expect.arrayContaining(["docs/configuration.md", "docs/install.md", "docs/storefront.md", "docs/admin.md"]))
    expect(docs.flatMap((file) => brokenLinks(file, packed, true))).toEqual([])
  })

  it("installs in the order a store owner runs it: the sandbox (with both webhooks) before .env, .env with its webhook keys, then setup, then a test order", () => {
    const order = ["npm", "config", "sandbox", "env", "run", "test-order"].map((name) => readme.indexOf(`<!-- install-test:${name} -->`))
    expect(order.every((at) => at > 0)).toBe(true)
    expect([...order].sort((a, b) => a - b)).toEqual(order)

    const regions = readInstallRegions()
    const sandbox = sandboxFromReadme(regions.sandbox)
    expect(words(sandbox.command)).toEqual(["npx", "sipay-sandbox", "--config", sandbox.file, "--data", ".sipay-sandbox.json"])
    const [merchant] = JSON.parse(sandbox.content).merchants
    // The config leaves the credentials to the sandbox (it prints them; .env takes them from there).
    expect(Object.keys(merchant).filter((key) => ["merchant_id", "merchant_key", "app_id", "app_secret"].includes(key))).toEqual([])
    expect(Object.keys(merchant.sale_webhooks)).toEqual([envValue(regions.env, "SIPAY_SALE_WEBHOOK_KEY")])
    expect(Object.keys(merchant.recurring_webhooks)).toEqual([envValue(regions.env, "SIPAY_RECURRING_WEBHOOK_KEY")])
    const backend = envValue(regions.env, "MEDUSA_BACKEND_URL")
    expect(Object.values(merchant.sale_webhooks)).toEqual([`${backend}/hooks/payment/sipay_sipay`])
    expect(Object.values(merchant.recurring_webhooks)).toEqual([`${backend}/sipay/hooks/recurring`])
    // README's config reads both keys.
    expect(regions.config).toContain("saleWebhookKey: process.env.SIPAY_SALE_WEBHOOK_KEY")
    expect(regions.config).toContain("recurringWebhookKey: process.env.SIPAY_RECURRING_WEBHOOK_KEY")

    expect(commandLines(regions.run).some((line) => line.startsWith("npx sipay-sandbox"))).toBe(false)
    expect(commandLines(regions["test-order"])).toEqual(["npx sipay-setup --test-order"])
  })
})
