import { createServer, Server } from "node:http"
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { Browser } from "playwright-core"
import { Client } from "pg"
import { satisfies } from "semver"
import { SMS_TEST_CODE } from "../../src/sandbox/cards"
import { gatewayDay } from "../../src/lib/sales-report/calendar"
import { launchBrowser, screenshotPath } from "../harness/browser"
import { freeListenPort } from "../harness/ports"
import { PAYING_CARD, payAtGateway, returnToStore } from "../harness/shopper"
import { commandLines, envFromReadme, envValue, escapeDollars, headingAnchors, markdownLinks, readInstallRegions, sandboxFromReadme, statedPackFigures, words } from "./readme-regions"
import { addTryPrice, adminLogin, call, cartWithSipaySession, orderPayment, prepareCatalog, StoreHttp, variantPrices } from "./store-api"
import { Background, baseEnv, installedVersion, MEDUSA_CURRENT, MEDUSA_OLDEST, run, startBackground, waitForHttp, writeStoreSkeleton } from "./store-kit"

/**
 * The plugin installed into fresh Medusa stores exactly as README's install section says (its
 * marked code blocks are what runs here): built and packed, installed from the tarball into a store
 * laid out like create-medusa-app's, configured from README's medusa-config.ts and .env lines (the
 * merchant key with its "$" written as README says, loaded by Medusa's loadEnv), migrated, set up
 * with `npx sipay-setup`, started, and paid: on the current Medusa through the hosted card page and
 * the sandbox's bank page in Chromium, with the plugin's admin pages rendered; on the oldest
 * supported Medusa a bounded smoke (install, migrate, setup, boot, one 3D checkout over HTTP).
 * Both stores install at once, from the machine's npm cache.
 */

jest.setTimeout(40 * 60 * 1000)

const ROOT = join(__dirname, "..", "..")
const PACKAGE = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"))
const ADMIN = { email: "admin@example.com", password: "change-me-now" }

type Store = {
  label: string
  version: string
  dir: string
  logs: string
  database: string
  storePort: number
  storefrontPort: number
  sandboxPort: number
  processes: Background[]
  baseInstall?: Promise<{ code: number; seconds: number; output: string }>
}

function databaseUrl(name: string): string {
  const { DB_HOST = "localhost", DB_PORT = "5432", DB_USERNAME = "postgres", DB_PASSWORD = "" } = process.env
  return `postgres://${encodeURIComponent(DB_USERNAME)}${DB_PASSWORD ? `:${encodeURIComponent(DB_PASSWORD)}` : ""}@${DB_HOST}:${DB_PORT}/${name}`
}

async function recreateDatabase(name: string) {
  const client = new Client({ connectionString: databaseUrl("postgres") })
  await client.connect()
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name}"`)
    await client.query(`CREATE DATABASE "${name}"`)
  } finally {
    await client.end()
  }
}

async function dropDatabase(name: string) {
  const client = new Client({ connectionString: databaseUrl("postgres") })
  await client.connect()
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)
  } finally {
    await client.end()
  }
}

const regions = readInstallRegions()
const work = mkdtempSync(join(tmpdir(), "sipay-install-"))
let tarball: string
let packed: { files: string[]; size: number; unpackedSize: number }

async function newStore(label: string, version: string): Promise<Store> {
  const dir = join(work, label)
  const logs = join(work, `${label}-logs`)
  mkdirSync(logs, { recursive: true })
  writeStoreSkeleton(dir, version)
  return {
    label,
    version,
    dir,
    logs,
    database: `sipay_install_${label}_${process.pid}`,
    storePort: await freeListenPort(),
    storefrontPort: await freeListenPort(),
    sandboxPort: await freeListenPort(),
    processes: [],
  }
}

/** README's `npm install` line with the package name pointing at the tarball (the package is not on the registry yet). */
function readmeInstallArgs(): string[] {
  const [line] = commandLines(regions.npm)
  const parts = words(line)
  expect(parts.slice(0, 2)).toEqual(["npm", "install"])
  expect(parts).toContain(PACKAGE.name)
  return parts.slice(1).map((part) => (part === PACKAGE.name ? tarball : part))
}

const npx = (store: Store, args: string[], logName: string, env?: Record<string, string>) =>
  run("npx", ["--no-install", ...args], { cwd: store.dir, log: join(store.logs, logName), env })

/**
 * Everything README's install section says, in its order, up to a started store: the one npm
 * install, the sandbox (on a free port: the only thing added to README's command), the config, the
 * .env lines, then README's commands. Returns the sandbox's merchant and what sipay-setup printed.
 */
async function installAsReadmeSays(store: Store) {
  const installed = await run("npm", readmeInstallArgs(), { cwd: store.dir, log: join(store.logs, "npm.log") })
  expect(installed.code).toBe(0)
  // npm links both bins and keeps them executable: README runs them through npx.
  for (const bin of Object.keys(PACKAGE.bin)) {
    expect(statSync(join(store.dir, "node_modules", ".bin", bin)).mode & 0o111).toBeTruthy()
  }

  // README's sandbox block: its config file (the store's webhooks at this store's port, the only
  // change), then its command with a free --port.
  const sandboxBlock = sandboxFromReadme(regions.sandbox)
  const readmeBackend = envValue(regions.env, "MEDUSA_BACKEND_URL")!
  writeFileSync(join(store.dir, sandboxBlock.file), sandboxBlock.content.split(readmeBackend).join(`http://localhost:${store.storePort}`))
  const sandbox = startBackground("npx", ["--no-install", ...words(sandboxBlock.command).slice(1), "--port", String(store.sandboxPort)], {
    cwd: store.dir,
    log: join(store.logs, "sandbox.log"),
  })
  store.processes.push(sandbox)
  const ready = JSON.parse((await sandbox.waitFor(/SANDBOX_READY (\{.*\})/, 60_000))[1]) as { base_url: string; merchant: Record<string, string | number> }
  // What it printed for a person holds the credentials .env takes.
  expect(sandbox.output()).toContain(`merchant_key  ${ready.merchant.merchant_key}`)
  const commands = commandLines(regions.run)
  const merchantKey = String(ready.merchant.merchant_key)
  expect(merchantKey).toMatch(/^\$2y\$10\$/)

  writeFileSync(join(store.dir, "medusa-config.ts"), regions.config)
  // README's example key shows the rule; the test writes the sandbox's key by the same rule.
  expect(/^SIPAY_MERCHANT_KEY=(.*)$/m.exec(regions.env)?.[1]).toMatch(/^\\\$2y\\\$10\\\$/)
  const sipayEnv = envFromReadme(regions.env, {
    SIPAY_BASE_URL: ready.base_url,
    SIPAY_APP_ID: String(ready.merchant.app_id),
    SIPAY_APP_SECRET: String(ready.merchant.app_secret),
    SIPAY_MERCHANT_KEY: escapeDollars(merchantKey),
    SIPAY_MERCHANT_ID: String(ready.merchant.merchant_id),
    MEDUSA_BACKEND_URL: `http://localhost:${store.storePort}`,
    STOREFRONT_URL: `http://localhost:${store.storefrontPort}`,
  })
  writeFileSync(
    join(store.dir, ".env"),
    baseEnv({ databaseUrl: databaseUrl(store.database), storePort: store.storePort, storefrontPort: store.storefrontPort }) + sipayEnv + "\n"
  )
  // Medusa's own loadEnv, from the store's node_modules, gives the key back whole.
  const loaded = await run(
    "node",
    ["-e", "require('@medusajs/framework/utils').loadEnv('development', process.cwd()); process.stdout.write('KEY=' + JSON.stringify(process.env.SIPAY_MERCHANT_KEY))"],
    { cwd: store.dir, log: join(store.logs, "load-env.log") }
  )
  expect(loaded.output).toContain(`KEY=${JSON.stringify(merchantKey)}`)

  await recreateDatabase(store.database)
  const setupOutputs: string[] = []
  let develop: Background | undefined
  for (const line of commands) {
    const parts = words(line)
    if (line.startsWith("npx sipay-sandbox")) continue
    expect(parts[0]).toBe("npx")
    if (parts[1] === "medusa" && parts[2] === "develop") {
      develop = startBackground("npx", ["--no-install", ...parts.slice(1)], { cwd: store.dir, log: join(work, `${store.label}-develop.log`), env: { PORT: String(store.storePort) } })
      store.processes.push(develop)
      continue
    }
    const done = await npx(store, parts.slice(1), `${parts[1]}-${parts[2] ?? ""}.log`)
    if (parts[1] === "sipay-setup") {
      setupOutputs.push(done.output)
      const router = /Fix: (npm install --legacy-peer-deps react-router-dom@\S+)/.exec(done.output)
      if (router) {
        // README: run the command sipay-setup prints for the admin's router, then go on.
        expect(done.code).toBe(3)
        const fix = await run("npm", words(router[1]).slice(1), { cwd: store.dir, log: join(store.logs, "npm-router.log") })
        expect(fix.code).toBe(0)
        continue
      }
    }
    expect({ line, code: done.code, tail: done.code ? done.output.slice(-3000) : "" }).toEqual({ line, code: 0, tail: "" })
  }
  expect(develop).toBeDefined()
  await waitForHttp(`http://localhost:${store.storePort}/health`, 180_000)
  return { merchantKey, sandboxUrl: ready.base_url, setupOutputs }
}

/** The dry run names each missing piece and changes nothing; --apply makes them; the region then lists the 3D provider. */
function expectSetupRan(outputs: string[]) {
  const [dryRun, applied] = outputs
  expect(dryRun).toContain("dry run, nothing changed")
  expect(dryRun).toContain("add TRY to the store's currencies")
  expect(dryRun).toMatch(/create the region "Türkiye" \(TRY, country TR, providers pp_sipay_sipay\)/)
  expect(dryRun).toContain("create a tax region for TR")
  expect(dryRun).toContain('create the shipping option "Kargo (TR)"')
  expect(applied).toContain("Sipay setup: done.")
  expect(applied).toContain('+ created the region "Türkiye"')
  expect(applied).toContain('+ created the shipping option "Kargo (TR)"')
}

/** Owner's catalog, setup again (idempotent, lists the product without a TRY price, never changes a price), then the TRY price set in the admin. */
async function priceCatalog(store: Store, http: StoreHttp) {
  const admin = await adminLogin(http, ADMIN.email, ADMIN.password)
  const catalog = await prepareCatalog(http, admin)
  const again = await npx(store, ["sipay-setup", "--apply"], "sipay-setup-again.log")
  expect(again.code === 0 || again.code === 3).toBe(true)
  expect(again.output).toContain("nothing to do")
  expect(again.output).toContain("Products without a TRY price")
  expect(again.output).toContain(`Kahve Fincanı (${catalog.productId})`)
  expect(await variantPrices(http, admin, catalog.productId, catalog.variantId)).toEqual([{ currency_code: "eur", amount: 12 }])
  await addTryPrice(http, admin, catalog.productId, catalog.variantId, 450)
  return { admin, catalog }
}

/** `quantity` × 450 TRY, KDV 20 % from the setup's tax region, shipping 0 TRY; one captured Sipay payment of it. */
function expectCaptured(order: Awaited<ReturnType<typeof orderPayment>>, quantity: number) {
  const total = quantity * 450 * 1.2
  expect(order.currency_code).toBe("try")
  expect(order.payment_status).toBe("captured")
  expect(order.total).toBe(total)
  expect(order.payment_collections[0].payments.map((payment) => [payment.provider_id, payment.amount])).toEqual([["pp_sipay_sipay", total]])
}

/**
 * README's first test order: its command (`npx sipay-setup --test-order`, with the store running)
 * makes a cart over the store's API and prints the hosted card page's link, which is returned.
 */
async function testOrderAsReadmeSays(store: Store): Promise<{ url: string; output: string }> {
  const [line] = commandLines(regions["test-order"])
  const parts = words(line)
  expect(parts.slice(0, 2)).toEqual(["npx", "sipay-setup"])
  const done = await npx(store, parts.slice(1), "sipay-setup-test-order.log")
  expect({ code: done.code, tail: done.code ? done.output.slice(-3000) : "" }).toEqual({ code: 0, tail: "" })
  const link = new RegExp(`^\\s+(http://localhost:${store.storePort}/sipay/checkout/payses_\\w+\\?lang=tr#token=\\S+)$`, "m").exec(done.output)
  expect(link).not.toBeNull()
  return { url: link![1], output: done.output }
}

async function stopStore(store: Store | undefined) {
  if (!store) return
  for (const process of store.processes.reverse()) {
    await process.stop()
  }
  await dropDatabase(store.database).catch(() => undefined)
}

const LANDING = /^(\/[a-z]{2})?\/order\/(order_[A-Za-z0-9]+)\/confirmed$/

/** The bounded smoke on the oldest supported Medusa: README's path, then one 3D checkout over HTTP (no browser). */
async function smokeOldest(oldest: Store) {
  await installAsReadmeSays(oldest).then(({ setupOutputs }) => expectSetupRan(setupOutputs))
  const http = { baseUrl: `http://localhost:${oldest.storePort}` }
  const { admin, catalog } = await priceCatalog(oldest, http)
  const session = await cartWithSipaySession(http, catalog.publishableKey, catalog.variantId)
  const form = await call(http, "POST", `/store/sipay/payment-sessions/${session.sessionId}/3d-form`, {
    headers: session.headers,
    body: { cart_id: session.cartId, installments_number: 1 },
  })
  const landed = await returnToStore(await payAtGateway(form))
  // The default success URL: the Next.js storefront's /{country_code}/order/{order_id}/confirmed.
  expect(landed.pathname).toMatch(LANDING)
  expectCaptured(await orderPayment(http, admin, LANDING.exec(landed.pathname)![2]), 2)
}

describe("installing the plugin into a new Medusa store as README says", () => {
  let current: Store
  let oldest: Store
  let browser: Browser | undefined
  let storefront: Server | undefined
  let oldestSmoke: Promise<void>
  const started = Date.now()

  beforeAll(async () => {
    // Both stores' base installs run while the plugin is built and packed.
    current = await newStore("current", MEDUSA_CURRENT)
    oldest = await newStore("oldest", MEDUSA_OLDEST)
    for (const store of [current, oldest]) {
      store.baseInstall = run("npm", ["install", "--legacy-peer-deps"], { cwd: store.dir, log: join(store.logs, "npm-base.log"), timeoutMs: 15 * 60_000 })
    }
    // Where several builds share one checkout (flock present), they take turns.
    const build = existsSync("/usr/bin/flock")
      ? await run("flock", ["/tmp/build.lock", "npm", "run", "build"], { cwd: ROOT, log: join(work, "build.log") })
      : await run("npm", ["run", "build"], { cwd: ROOT, log: join(work, "build.log") })
    expect(build.code).toBe(0)
    const pack = await run("npm", ["pack", "--json", "--pack-destination", work], { cwd: ROOT, log: join(work, "pack.log") })
    expect(pack.code).toBe(0)
    const [info] = JSON.parse(pack.output.slice(pack.output.search(/^\[/m)))
    tarball = join(work, info.filename)
    packed = { files: (info.files as { path: string }[]).map((file) => file.path), size: info.size, unpackedSize: info.unpackedSize }
    for (const store of [current, oldest]) {
      const base = await store.baseInstall!
      expect({ store: store.label, code: base.code }).toEqual({ store: store.label, code: 0 })
    }
    oldestSmoke = smokeOldest(oldest)
    oldestSmoke.catch(() => undefined) // awaited (and reported) by its own test
  })

  afterAll(async () => {
    await oldestSmoke?.catch(() => undefined)
    await browser?.close()
    storefront?.close()
    await stopStore(current)
    await stopStore(oldest)
    process.stdout.write(`[install test] ${((Date.now() - started) / 1000).toFixed(0)} s; logs and stores in ${work}\n`)
    if (!process.env.KEEP_INSTALL_STORES) {
      rmSync(work, { recursive: true, force: true })
    }
  })

  it("the tarball ships code, type declarations, LICENSE and docs; no demo config or seed, no source maps; the bins are executable after the build", () => {
    expect(packed.files).toContain("LICENSE")
    expect(packed.files).toContain("docs/sandbox.md")
    expect(packed.files).toContain(".medusa/server/src/lib/sipay/index.d.ts")
    expect(packed.files.filter((file) => /medusa-config|demo-seed|scripts\/catalog|\.map$/.test(file))).toEqual([])
    const inline = packed.files.filter((file) => file.endsWith(".js")).filter((file) => readFileSync(join(ROOT, file), "utf8").includes("sourceMappingURL=data:"))
    expect(inline).toEqual([])
    for (const file of Object.values(PACKAGE.bin) as string[]) {
      expect(packed.files).toContain(file)
      expect(statSync(join(ROOT, file)).mode & 0o111).toBeTruthy()
    }
  })

  it("every relative link of README resolves to a file in the tarball, with the heading it names; docs/install.md's package figures are this tarball's", () => {
    const readme = readFileSync(join(ROOT, "README.md"), "utf8")
    const relative = markdownLinks(readme).filter((target) => !/^[a-z]+:/i.test(target) && !target.startsWith("#"))
    expect(relative.length).toBeGreaterThan(10)
    const unresolved = relative.filter((target) => {
      const [path, anchor] = target.split("#", 2)
      if (!packed.files.includes(path)) return true
      return anchor !== undefined && !headingAnchors(readFileSync(join(ROOT, path), "utf8")).has(anchor)
    })
    expect(unresolved).toEqual([])

    const stated = statedPackFigures(readFileSync(join(ROOT, "docs", "install.md"), "utf8"))
    const actual = {
      files: packed.files.length,
      declarations: packed.files.filter((file) => file.endsWith(".d.ts")).length,
      packedKb: packed.size / 1000,
      unpackedMb: packed.unpackedSize / 1e6,
    }
    const stale = `docs/install.md states ${JSON.stringify(stated)}, the tarball is ${JSON.stringify(actual)}: run \`npm run build && npm run docs:figures\``
    expect({ files: stated.files, declarations: stated.declarations, stale }).toEqual({ files: actual.files, declarations: actual.declarations, stale })
    expect({ packed: Math.abs(stated.packedKb / actual.packedKb - 1) <= 0.02, unpacked: Math.abs(stated.unpackedMb / actual.unpackedMb - 1) <= 0.02, stale }).toEqual({ packed: true, unpacked: true, stale })
  })

  it("the peer ranges accept the versions a create-medusa-app store has, and the plugin adds no install failure of its own", async () => {
    for (const store of [current, oldest]) {
      for (const [name, range] of Object.entries(PACKAGE.peerDependencies as Record<string, string>)) {
        const version = installedVersion(store.dir, name)
        expect({ store: store.label, name, version, accepted: satisfies(version, range) }).toEqual({ store: store.label, name, version, accepted: true })
      }
    }
    expect(PACKAGE.peerDependencies["@medusajs/test-utils"]).toBeUndefined()
    // In this layout a plain `npm install` fails with or without the plugin (Medusa's draft-order
    // wants @medusajs/ui 4.2.6 beside the starter's 4.2.0): the plugin must add nothing to that.
    const control = await run("npm", ["install", "--dry-run"], { cwd: current.dir, log: join(current.logs, "npm-control.log") })
    const withPlugin = await run("npm", ["install", "--dry-run", tarball], { cwd: current.dir, log: join(current.logs, "npm-strict.log") })
    // npm names the edge it could not satisfy (the line after "Could not resolve dependency:") and the
    // conflicting peer; the plugin may only appear among the dependents the store's version satisfies.
    const conflict = (output: string) => {
      const lines = output.split("\n").map((line) => line.replace(/^npm error\s*/, ""))
      const unmet = lines[lines.findIndex((line) => line.startsWith("Could not resolve dependency")) + 1]
      return { unmet, conflicting: lines.find((line) => line.startsWith("Conflicting peer dependency")) }
    }
    expect(withPlugin.code).toBe(control.code)
    expect(conflict(withPlugin.output)).toEqual(conflict(control.output))
    expect(JSON.stringify(conflict(withPlugin.output))).not.toContain("medusa-plugin-sipay")
    expect(withPlugin.output).not.toContain("While resolving: medusa-plugin-sipay")
    if (withPlugin.output.includes("medusa-plugin-sipay@")) {
      expect(withPlugin.output).toMatch(/peer @medusajs\/ui@"\^4\.2\.0" from medusa-plugin-sipay/)
    }
  })

  it(`Medusa ${MEDUSA_CURRENT}: README's path to a paid 3D order in Chromium, and the plugin's admin pages render`, async () => {
    const timeline: Record<string, number> = {}
    const from = Date.now()
    await installAsReadmeSays(current).then(({ setupOutputs }) => expectSetupRan(setupOutputs))
    timeline.started = (Date.now() - from) / 1000
    const http = { baseUrl: `http://localhost:${current.storePort}` }
    const { admin } = await priceCatalog(current, http)
    // README's first test order: no storefront; the cart from `npx sipay-setup --test-order`.
    const testOrder = await testOrderAsReadmeSays(current)
    expect(testOrder.output).toContain('in the region "Türkiye": 1 × Kahve Fincanı, 540.00 TRY with tax and shipping.')

    // The storefront the gateway's return lands on: a stand-in page, as the store's own storefront would be.
    storefront = createServer((_, response) => response.writeHead(200, { "content-type": "text/html" }).end("<h1>Order confirmed</h1>"))
    await new Promise<void>((resolve) => storefront!.listen(current.storefrontPort, () => resolve()))
    browser = await launchBrowser()
    const context = await browser.newContext({ locale: "en-US", viewport: { width: 1280, height: 900 } })
    const page = await context.newPage()
    page.setDefaultTimeout(120_000)
    const test = "install current"
    await page.goto(testOrder.url)
    await page.fill("#cc_holder_name", PAYING_CARD.cc_holder_name)
    await page.fill("#cc_no", PAYING_CARD.cc_no)
    await page.selectOption("#expiry_month", PAYING_CARD.expiry_month).catch(() => page.fill("#expiry_month", PAYING_CARD.expiry_month))
    await page.selectOption("#expiry_year", PAYING_CARD.expiry_year).catch(() => page.fill("#expiry_year", PAYING_CARD.expiry_year))
    await page.fill("#cvv", PAYING_CARD.cvv)
    await page.screenshot({ path: screenshotPath(test, "1-hosted-page") })
    await Promise.all([page.waitForURL(/\/ccpayment\//), page.click("#pay-button")])
    await page.waitForSelector("#sms_code")
    await page.fill("#sms_code", SMS_TEST_CODE)
    await page.screenshot({ path: screenshotPath(test, "2-bank-page") })
    await Promise.all([page.waitForURL(`http://localhost:${current.storefrontPort}/**`, { waitUntil: "commit" }), page.click("button.confirm")])
    const landed = new URL(page.url())
    expect(landed.pathname).toMatch(LANDING)
    const order = await orderPayment(http, admin, LANDING.exec(landed.pathname)![2])
    expectCaptured(order, 1)
    timeline.paid = (Date.now() - from) / 1000
    process.stdout.write(`[install test] ${MEDUSA_CURRENT}: README's npm install to a paid test order ${timeline.paid.toFixed(0)} s (store started at ${timeline.started.toFixed(0)} s)\n`)

    // The merchant's audit of today, as README says (`npx sipay-audit`): the ledger never had the day, so it is
    // pulled; the paid order's sale agrees (exit 0). A bad day is bad usage (exit 2).
    const today = gatewayDay(new Date())
    const audited = await npx(current, ["sipay-audit", "--day", today, "--json"], "sipay-audit.log")
    expect({ code: audited.code, tail: audited.code ? audited.output.slice(-3000) : "" }).toEqual({ code: 0, tail: "" })
    const report = JSON.parse(audited.output.slice(audited.output.indexOf("{"), audited.output.lastIndexOf("}") + 1))
    expect(report).toMatchObject({ day: today, agrees: true, ledger: { pulled_now: true }, summary: { differences: 0 } })
    expect(report.lines).toEqual(expect.arrayContaining([expect.objectContaining({ sale_kind: "payment", order_id: order.id, findings: [] })]))
    const inWords = await npx(current, ["sipay-audit", "--day", today, "--lang", "tr"], "sipay-audit.log")
    expect(inWords.code).toBe(0)
    expect(inWords.output).toContain("Bu gün için mağazanın kayıtları ile ödeme kuruluşu uyuşuyor.")
    expect((await npx(current, ["sipay-audit", "--day", "2026-13-01"], "sipay-audit.log")).code).toBe(2)

    // The admin in the same browser: the plugin's pages render (not only the login page, not Medusa's error page).
    const errors: string[] = []
    page.on("pageerror", (error) => errors.push(error.message))
    await page.goto(`${http.baseUrl}/app/login`)
    await page.fill('input[name="email"]', ADMIN.email)
    await page.fill('input[name="password"]', ADMIN.password)
    await Promise.all([page.waitForURL(/\/app\/orders/, { timeout: 180_000 }), page.click('button[type="submit"]')])
    await page.goto(`${http.baseUrl}/app/sales`)
    await page.getByRole("heading", { name: "Sales" }).first().waitFor()
    // A day with sales (the audit above pulled the test order's) offers the CSV as a download link.
    await page.locator("a#sales-export", { hasText: "Export CSV" }).waitFor()
    await page.screenshot({ path: screenshotPath(test, "3-admin-sales"), fullPage: true })
    await page.goto(`${http.baseUrl}/app/payment-links`)
    await page.getByRole("button", { name: "Create link" }).first().waitFor()
    await page.screenshot({ path: screenshotPath(test, "4-admin-payment-links"), fullPage: true })
    await page.goto(`${http.baseUrl}/app/settings/sipay`)
    await page.getByTestId("direct-payment-status").waitFor()
    expect(await page.getByTestId("direct-payment-status").innerText()).toContain("Off")
    await page.screenshot({ path: screenshotPath(test, "5-admin-settings-sipay"), fullPage: true })
    expect(await page.locator("body").innerText()).not.toMatch(/useLocation\(\) may be used only/)
    expect(errors.filter((message) => /useLocation|Router/.test(message))).toEqual([])

    // README's client example type-checks in a strict TypeScript store.
    writeFileSync(
      join(current.dir, "src", "sipay-client-check.ts"),
      'import { SipayClient } from "medusa-plugin-sipay/client"\n' +
        'import { startSandbox } from "medusa-plugin-sipay/sandbox"\n' +
        'export async function status(appId: string, appSecret: string, merchantKey: string) {\n' +
        '  const sipay = new SipayClient({ brand: "sandbox", appId, appSecret, merchantKey })\n' +
        '  return { status: await sipay.checkStatus("INV_1"), start: startSandbox }\n' +
        "}\n"
    )
    const types = await run("npx", ["--no-install", "tsc", "--noEmit", "--strict", "-p", "tsconfig.json"], { cwd: current.dir, log: join(current.logs, "tsc.log") })
    expect(types.output.split("\n").filter((line) => line.includes("sipay-client-check"))).toEqual([])
  })

  it(`Medusa ${MEDUSA_OLDEST} (oldest supported): install, migrate, setup, boot and one 3D checkout over HTTP`, async () => {
    // Started in beforeAll, beside the current store's run: the two stores share nothing but the npm cache.
    await oldestSmoke
  })
})
