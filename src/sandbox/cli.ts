#!/usr/bin/env node
import { readFileSync } from "node:fs"
import { resolve } from "node:path"
import { SMS_TEST_CODE, TEST_CARDS } from "./cards"
import { startSandbox, type StartSandboxOptions } from "./index"
import type { MerchantConfig } from "./types"

const USAGE = `Usage: sipay-sandbox [--port 4010] [--host 127.0.0.1] [--config sandbox.json] [--data FILE] [--test-controls] [--public-url URL]
                     [--redirect-names service|sipay] [--checkstatus-codes published|reference] [--checkstatus-array]`

function parseArgs(argv: string[]): StartSandboxOptions {
  const options: StartSandboxOptions = { port: 4010 }
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
    else if (arg === "--config") options.merchants = readConfig(resolve(value()))
    else if (arg === "--redirect-names") options.redirectNames = oneOf(arg, value(), ["service", "sipay"] as const)
    else if (arg === "--checkstatus-codes") options.checkstatusCodes = oneOf(arg, value(), ["published", "reference"] as const)
    else if (arg === "--checkstatus-array") options.checkstatusArray = true
    else if (arg === "--help" || arg === "-h") {
      console.log(USAGE)
      process.exit(0)
    } else throw new Error(`unknown option ${arg}`)
  }
  if (!Number.isInteger(options.port) || options.port! < 0) throw new Error("--port must be a port number")
  return options
}

function oneOf<T extends string>(option: string, value: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(value)) throw new Error(`${option} must be one of ${allowed.join(", ")}`)
  return value as T
}

function readConfig(file: string): MerchantConfig[] {
  const config = JSON.parse(readFileSync(file, "utf8")) as { merchants?: MerchantConfig[] }
  if (!Array.isArray(config.merchants) || config.merchants.length === 0) throw new Error(`${file}: "merchants" must be a non-empty array`)
  return config.merchants
}

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2))
  const sandbox = await startSandbox(options)
  const { merchant } = sandbox
  const lines = [
    "Sipay sandbox gateway",
    `  base_url   ${sandbox.base_url}`,
    `  link_base  ${sandbox.link_base}   (payment links: ${sandbox.link_base}/dplLink/<token>)`,
    `  controls   ${options.testControls ? `${sandbox.link_base}/__sandbox/` : "off (--test-controls)"}`,
    `  data       ${options.dataFile ?? "in memory"}`,
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
