#!/usr/bin/env node
/**
 * node scripts/bench-installment-table.mjs [--rounds 5 --requests 200]
 *
 * The product page's installment table (GET /store/sipay/installment-table) against a plain store
 * route (GET /store/regions/:id) on the same store in the same run: the demo stack (admin off, its own
 * data folder and database), sequential requests, rounds in alternating order. Prints each round's
 * median latency and the ratio (target: at most 1.2x) and the gateway calls the table made (the
 * commission table once per process, then none). Not part of `npm test`.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { startDemoStack } from "./lib/demo-stack.mjs"
import { benchDemoEnv } from "./bench-checkout.mjs"

const argv = process.argv.slice(2)
const option = (name, fallback) => (argv.includes(name) ? Number(argv[argv.indexOf(name) + 1]) : fallback)
const ROUNDS = option("--rounds", 5)
const REQUESTS = option("--requests", 200)

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted.length % 2 ? sorted[(sorted.length - 1) / 2] : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2
}

async function series(url, headers) {
  const times = []
  for (let i = 0; i < REQUESTS; i++) {
    const started = process.hrtime.bigint()
    const response = await fetch(url, { headers })
    await response.arrayBuffer()
    if (!response.ok) throw new Error(`${url}: ${response.status}`)
    times.push(Number(process.hrtime.bigint() - started) / 1e6)
  }
  return median(times)
}

const dataDir = mkdtempSync(join(tmpdir(), "sipay-bench-table-"))
const env = await benchDemoEnv("medusa_sipay_bench_table")
const stack = await startDemoStack({ env, dataDir })
try {
  const { ready } = stack
  const headers = { "x-publishable-api-key": ready.publishable_key }
  const sandboxBase = ready.sandbox_url.replace(/\/ccpayment$/, "")
  const table = `${ready.store_url}/store/sipay/installment-table?amount=325.40&currency_code=TRY`
  const plain = `${ready.store_url}/store/regions/${ready.region_id}`
  // Warm both (the first table request fetches the commission table).
  await series(table, headers)
  await series(plain, headers)
  const before = await (await fetch(`${sandboxBase}/__sandbox/calls`)).json()
  const ratios = []
  for (let round = 0; round < ROUNDS; round++) {
    const [a, b] = round % 2 ? [await series(plain, headers), await series(table, headers)].reverse() : [await series(table, headers), await series(plain, headers)]
    ratios.push(a / b)
    console.log(`round ${round + 1}: installment-table ${a.toFixed(2)} ms, /store/regions/:id ${b.toFixed(2)} ms (medians of ${REQUESTS}), ratio ${(a / b).toFixed(2)}x`)
  }
  const after = await (await fetch(`${sandboxBase}/__sandbox/calls`)).json()
  const ratio = median(ratios)
  console.log(`installment-table vs a plain store route: median ratio ${ratio.toFixed(2)}x (target <= 1.2x: ${ratio <= 1.2 ? "met" : "NOT met"}); gateway calls during the rounds: ${JSON.stringify(after.commissions ?? 0)} commissions (before ${JSON.stringify(before.commissions ?? 0)})`)
} finally {
  await stack.stop()
  rmSync(dataDir, { recursive: true, force: true })
}
