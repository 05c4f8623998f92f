#!/usr/bin/env node
// `npm run demo`: a local store with this plugin, the sandbox gateway and a demo storefront.
// Environment: DEMO_STORE_PORT (9000), DEMO_STOREFRONT_PORT (8000), DEMO_SANDBOX_PORT (4010),
// DEMO_DATA_DIR, DEMO_DB_NAME (medusa_sipay_demo), DEMO_VERBOSE=1 (show the servers' logs),
// DB_HOST / DB_PORT / DB_USERNAME / DB_PASSWORD (a PostgreSQL to use; else an embedded one).
// `--cluster` (or DEMO_CLUSTER=1): two server instances and a worker behind one address, on Medusa's Redis modules
// (MEDUSA_CLUSTER_REDIS_URL, default redis://127.0.0.1:6379; MEDUSA_CLUSTER_REDIS_PREFIX).
import { defaultDataDir, startDemoStack } from "./lib/demo-stack.mjs"


const out = (line = "") => process.stdout.write(`${line}\n`)
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`

const cluster = process.argv.slice(2).includes("--cluster") || process.env.DEMO_CLUSTER === "1"
let stepNumber = 0
const STEPS = cluster ? 9 : 8
const timings = []
async function step(name, run) {
  const label = `[${++stepNumber}/${STEPS}] ${name}`
  out(`${label} …`)
  const started = Date.now()
  const result = await run()
  const took = Date.now() - started
  timings.push({ name, ms: took })
  out(`${label}: done in ${seconds(took)}${result?.detail ? ` (${result.detail})` : ""}`)
  return result
}

async function main() {
  const startedAt = Date.now()
  out("Sipay for Medusa: demo (the first start takes a minute or two; Ctrl-C stops everything)")
  const abort = new AbortController()
  const booting = startDemoStack({ step, verbose: process.env.DEMO_VERBOSE === "1", signal: abort.signal, cluster })
  let stopping = false
  const shutdown = async (signal) => {
    if (stopping) return
    stopping = true
    out(`\n${signal}: stopping the storefront, Medusa, the sandbox and the database …`)
    abort.abort()
    const stack = await booting.catch(() => undefined)
    await stack?.stop()
    out(`Stopped. Data kept in ${stack?.dataDir ?? defaultDataDir()}`)
    process.exit(0)
  }
  process.on("SIGINT", () => shutdown("SIGINT"))
  process.on("SIGTERM", () => shutdown("SIGTERM"))

  const stack = await booting.catch((error) => {
    if (stopping) return new Promise(() => undefined) // shutdown() exits
    throw error
  })
  const { ready, sandbox } = stack
  const year = new Date().getUTCFullYear() + 3
  out()
  out(`Ready in ${seconds(Date.now() - startedAt)}.`)
  out()
  out(`  Storefront   ${ready.storefront_url}`)
  out(`  Admin        ${ready.admin_url}`)
  out(`               e-mail ${ready.admin_email}   password ${ready.admin_password}`)
  out(`  Store API    ${ready.store_url}   (publishable key ${ready.publishable_key})`)
  if (ready.cluster) {
    for (const instance of ready.cluster.instances) out(`               ${instance.name.padEnd(9)} ${instance.url}  (${instance.mode}, pid ${instance.pid})`)
    out(`               requests per instance: ${ready.cluster.proxy_url}/__cluster/requests`)
  }
  out(`  Sandbox      ${ready.sandbox_url}   (test controls ${sandbox.link_base}/__sandbox/)`)
  out(`               merchant ${sandbox.merchant.merchant_id}, app_id ${sandbox.merchant.app_id}, app_secret ${sandbox.merchant.app_secret}`)
  out(`  Data         ${stack.dataDir}   (logs in ${stack.logs})`)
  out()
  out(`  Test cards (any future expiry such as 12/${year}, any CVV; SMS code on the bank page ${sandbox.sms_code}):`)
  for (const card of sandbox.test_cards) out(`    ${card.number}  ${card.scheme.padEnd(10)} ${card.description}`)
  out()
  out(`DEMO_READY ${JSON.stringify(ready)}`)
}

main().catch((error) => {
  process.stderr.write(`\nThe demo could not start: ${error.message}\n`)
  process.exit(1)
})
