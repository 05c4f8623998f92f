#!/usr/bin/env node
import { readFileSync } from "node:fs"
import { resolve } from "node:path"
import { isLoopbackHost } from "../lib/loopback"
import { SMS_TEST_CODE, TEST_CARDS } from "./cards"
import { startSandbox, type StartSandboxOptions } from "./index"
import type { MerchantSetting } from "./types"

const USAGE = `Usage: sipay-sandbox [--port 4010] [--host 127.0.0.1] [--config sandbox.json] [--data FILE] [--test-controls [--force-test-controls]]
                     [--sale-webhook KEY=URL] [--recurring-webhook KEY=URL]
                     [--public-url URL] [--redirect-names service|sipay] [--checkstatus-codes published|reference] [--checkstatus-array]`

type CliOptions = StartSandboxOptions & { forceTestControls?: boolean }

function parseArgs(argv: string[]): CliOptions {
  const options: CliOptions = { port: 4010 }
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]
    const value = () => {
      const next = argv[++i]
      if (next === undefined) throw new Error(`${arg} needs a value`)
      return next
    }
    if (arg === "--port") options.port = Number(value())
    else if (arg === "--host") options.host = value()
    else if (arg === "--data") options.dataFile = resolve(value())
    else if (arg === "--public-url") options.publicUrl = value()
    else if (arg === "--test-controls") options.testControls = true
    else if (arg === "--force-test-controls") options.forceTestControls = true
    else if (arg === "--config") options.merchants = readConfig(resolve(value()))
    else if (arg === "--sale-webhook" || arg === "--recurring-webhook") {
      // The demo merchant's webhook keys, as a merchant panel maps them (repeatable; a --config sets its own).
      const [key, ...url] = value().split("=")
      if (!key || !/^https?:\/\//.test(url.join("="))) throw new Error(`${arg} takes KEY=URL, e.g. ${arg} medusa=http://localhost:9000/...`)
      const kind = arg === "--sale-webhook" ? "sale" : "recurring"
      options.demoWebhooks = { ...options.demoWebhooks, [kind]: { ...options.demoWebhooks?.[kind], [key]: url.join("=") } }
    } else if (arg === "--redirect-names") options.redirectNames = oneOf(arg, value(), ["service", "sipay"] as const)
    else if (arg === "--checkstatus-codes") options.checkstatusCodes = oneOf(arg, value(), ["published", "reference"] as const)
    else if (arg === "--checkstatus-array") options.checkstatusArray = true
    else if (arg === "--help" || arg === "-h") {
      console.log(USAGE)
      process.exit(0)
    } else throw new Error(`unknown option ${arg}`)
  }
  if (!Number.isInteger(options.port) || options.port! < 0) throw new Error("--port must be a port number")
  if (options.testControls && !isLoopbackHost(options.host ?? "127.0.0.1") && !options.forceTestControls) {
    // The controls move the clock, fake charge-backs and read the webhook log: for the machine's own tests only.
    throw new Error(
      `--test-controls refused on --host ${options.host}: anyone who reaches it could drive the sandbox's clock, faults and charge-backs. ` +
        "Bind a loopback address (the default 127.0.0.1), or add --force-test-controls if this network is yours alone."
    )
  }
  return options
}

/** Said at start, to stderr, when the sandbox could be mistaken for a real gateway. */
function warnings(options: CliOptions): string[] {
  const lines: string[] = []
  if (["production", "prod"].includes(String(process.env.NODE_ENV ?? ""))) {
    lines.push(
      "!!! NODE_ENV=production, but this is the Sipay SANDBOX, a test gateway: it takes test cards as paid and moves no money.",
      "!!! Never point a live store at it (the plugin refuses to start on it in production unless allowSandboxInProduction is set)."
    )
  }
  if (options.testControls && !isLoopbackHost(options.host ?? "127.0.0.1")) {
    lines.push(`!!! Test controls are open on ${options.host} (--force-test-controls): anyone who reaches this test gateway can drive it.`)
  }
  return lines
}

function oneOf<T extends string>(option: string, value: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(value)) throw new Error(`${option} must be one of ${allowed.join(", ")}`)
  return value as T
}

function readConfig(file: string): MerchantSetting[] {
  const config = JSON.parse(readFileSync(file, "utf8")) as { merchants?: MerchantSetting[] }
  if (!Array.isArray(config.merchants) || config.merchants.length === 0) throw new Error(`${file}: "merchants" must be a non-empty array`)
  return config.merchants
}

/** The merchant's webhook keys as the panel maps them (the store's Settings -> Sipay names the same keys). */
function webhookLines(merchant: { sale_webhooks?: Record<string, string>; recurring_webhooks?: Record<string, string> }): string[] {
  const lines = [
    ...Object.entries(merchant.sale_webhooks ?? {}).map(([key, url]) => `  sale webhook key       ${key} -> ${url}`),
    ...Object.entries(merchant.recurring_webhooks ?? {}).map(([key, url]) => `  recurring webhook key  ${key} -> ${url}`),
  ]
  return lines.length ? lines : ["  webhook keys none (--sale-webhook / --recurring-webhook KEY=URL, or --config)"]
}

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2))
  const warned = warnings(options)
  if (warned.length) console.error(warned.join("\n"))
  const sandbox = await startSandbox(options)
  const { merchant } = sandbox
  const lines = [
    "Sipay sandbox gateway",
    `  base_url   ${sandbox.base_url}`,
    `  link_base  ${sandbox.link_base}   (payment links: ${sandbox.link_base}/dplLink/<token>)`,
    `  controls   ${options.testControls ? `${sandbox.link_base}/__sandbox/` : "off (--test-controls)"}`,
    `  data       ${options.dataFile ?? "in memory"}`,
    ...webhookLines(sandbox.merchants[0]),
    "Merchant",
    `  merchant_id   ${merchant.merchant_id}`,
    `  merchant_key  ${merchant.merchant_key}`,
    `  app_id        ${merchant.app_id}`,
    `  app_secret    ${merchant.app_secret}`,
    `Test cards (any future expiry, any CVV; SMS code ${SMS_TEST_CODE})`,
    ...TEST_CARDS.map((card) => `  ${card.number}  ${card.scheme.padEnd(10)} ${card.description}`),
  ]
  console.log(lines.join("\n"))
  const ready = { base_url: sandbox.base_url, panel_url: sandbox.panel_url, link_base: sandbox.link_base, merchant }
  console.log(`SANDBOX_READY ${JSON.stringify(ready)}`)
  const stop = () => {
    sandbox.close().then(() => process.exit(0), () => process.exit(1))
  }
  process.once("SIGINT", stop)
  process.once("SIGTERM", stop)
}

main().catch((error: Error) => {
  console.error(`sipay-sandbox: ${error.message}`)
  console.error(USAGE)
  process.exit(1)
})
