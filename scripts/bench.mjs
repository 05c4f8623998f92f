#!/usr/bin/env node
/**
 * npm run bench [-- --rounds 5 --sizes 1000,10000,100000 --only hash,ledger,sales,checkout,latency,sync-now --latency 250
 *                   --sync-size 100000 --sync-after 1000 --write README.md,docs/performance.md]
 *
 * Prints each figure of issue 16 as a ratio against its floor measured in the same run, with
 * min / median / max over repeated rounds, and the gateway calls and token fetches counted by the
 * sandbox (GET __sandbox/calls). The sandbox runs in its own process, without a data file, at zero
 * gateway latency. Memory figures are taken in fresh child processes. Not part of `npm test`.
 *
 * Needs PostgreSQL (DB_HOST, DB_PORT, DB_USERNAME, DB_PASSWORD; default localhost:5432 postgres) for
 * the ledger figures; it creates and uses the database BENCH_DB (default medusa_sipay_bench). The
 * COPY floor uses `psql` (skipped, and said so, when it is missing).
 *
 * `--only sync-now` boots the demo stack as the cluster of docs/cluster.md (two servers, a worker,
 * Redis at BENCH_CLUSTER_REDIS_URL, default redis://127.0.0.1:6379/12, a database index the bench
 * empties first) and measures the ledger sync's RSS in the server that gets "sync now" and in the
 * worker that runs the ledger job, after --sync-after checkouts (bench-checkout.mjs).
 *
 * `--write FILE[,FILE]` also puts the printed table into each file, between `<!-- bench:<the --only
 * list> -->` and `<!-- /bench:... -->`, and its rows with a target between `<!-- bench-summary:... -->`
 * and its end marker (README.md's Performance section: `latency,sync-now`; scripts/lib/bench-blocks.mjs).
 */
import { spawn, spawnSync } from "node:child_process"
import { createRequire } from "node:module"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { request } from "node:http"
import { Writable } from "node:stream"
import { once } from "node:events"
import { writeBenchBlock } from "./lib/bench-blocks.mjs"

const require = createRequire(import.meta.url)
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..")
const SELF = fileURLToPath(import.meta.url)
const jiti = require("jiti")(SELF, { interopDefault: true, cache: true })
const load = (path) => jiti(join(ROOT, path))

const MERCHANT = {
  merchant_id: 18309,
  merchant_key: "$2y$10$benchMerchantKeyForTheSipayPluginBench000000000000",
  app_id: "bench-app-id",
  app_secret: "bench-app-secret-0001",
  is_3d: 1,
  sale_webhooks: {},
  recurring_webhooks: {},
}
const HEAP_CAP_MB = 128

function args() {
  const out = { rounds: 5, sizes: [1000, 10000, 100000], only: ["hash", "ledger", "sales", "checkout"], latency: 0, syncSize: 100000, syncAfter: 1000 }
  const argv = process.argv.slice(2)
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--rounds") out.rounds = Number(argv[++i])
    else if (argv[i] === "--sizes") out.sizes = argv[++i].split(",").map(Number)
    else if (argv[i] === "--only") out.only = argv[++i].split(",")
    else if (argv[i] === "--latency") out.latency = Number(argv[++i])
    else if (argv[i] === "--sync-size") out.syncSize = Number(argv[++i])
    else if (argv[i] === "--sync-after") out.syncAfter = Number(argv[++i])
    else if (argv[i] === "--write") out.write = argv[++i]
  }
  // `--only latency`: the real-latency checkout rows alone (250 ms per gateway call unless --latency says).
  if (out.only.includes("latency") && !(out.latency > 0)) out.latency = 250
  return out
}

const stats = (values) => {
  const sorted = [...values].sort((a, b) => a - b)
  const median = sorted.length % 2 ? sorted[(sorted.length - 1) / 2] : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2
  return { min: sorted[0], median, max: sorted[sorted.length - 1] }
}
const fmt = (n, digits = 2) => (n === undefined || n === null || Number.isNaN(n) ? "-" : Number(n).toFixed(digits))
const triple = (s, digits = 2) => `${fmt(s.min, digits)} / ${fmt(s.median, digits)} / ${fmt(s.max, digits)}`
const MB = 1024 * 1024

// ---------------------------------------------------------------- children (fresh processes)

/** Peak RSS during `work`, above the RSS right before it (samples + the kernel's high-water mark). */
async function measured(work) {
  global.gc?.()
  const before = process.memoryUsage().rss
  const hwmBefore = process.resourceUsage().maxRSS * 1024
  let peak = before
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5)
  const started = process.hrtime.bigint()
  const result = await work()
  const ms = Number(process.hrtime.bigint() - started) / 1e6
  clearInterval(timer)
  peak = Math.max(peak, process.memoryUsage().rss)
  const hwmAfter = process.resourceUsage().maxRSS * 1024
  if (hwmAfter > hwmBefore) peak = Math.max(peak, hwmAfter)
  return { ms, growth: Math.max(0, peak - before), result }
}

function rawPost(url, body, token) {
  return new Promise((resolvePost, reject) => {
    const payload = JSON.stringify(body)
    // A connection of its own (agent: false): a kept-alive one the sandbox closed while idle answers "read ECONNRESET".
    const req = request(url, { method: "POST", agent: false, headers: { "content-type": "application/json", accept: "application/json", authorization: `Bearer ${token}`, "content-length": Buffer.byteLength(payload) } }, (res) => {
      const chunks = []
      res.on("data", (chunk) => chunks.push(chunk))
      res.on("end", () => resolvePost(Buffer.concat(chunks)))
      res.on("error", reject)
    })
    req.on("error", reject)
    req.end(payload)
  })
}

async function childTask(task, input) {
  const { SipayClient } = load("src/lib/sipay/index.ts")
  const wire = load("src/lib/sipay/wire.ts")
  const { toLedgerRow } = load("src/lib/sales-report/ledger-row.ts")
  const { pullDayIntoLedger } = load("src/lib/sales-report/ledger-pull.ts")
  const { LedgerStore } = load("src/modules/sipay/ledger/store.ts")
  const { salesCsvHeader, salesCsvLines } = load("src/lib/sales-report/csv.ts")
  const client = () => new SipayClient({ baseUrl: input.base_url, appId: MERCHANT.app_id, appSecret: MERCHANT.app_secret, merchantKey: MERCHANT.merchant_key, timeoutMs: 120000 })

  if (task === "floor-fetch") {
    const tokenAnswer = JSON.parse((await rawPost(`${input.base_url}/api/token`, { app_id: MERCHANT.app_id, app_secret: MERCHANT.app_secret }, "")).toString())
    const body = wire.transactionsBody(MERCHANT.merchant_key, { date: input.day })
    const run = await measured(async () => {
      const bytes = await rawPost(`${input.base_url}/api/getTransactions`, body, tokenAnswer.data.token)
      const parsed = JSON.parse(bytes.toString("utf8"))
      return { bytes: bytes.length, count: parsed.data.length }
    })
    return { ms: run.ms, growth: run.growth, ...run.result }
  }
  if (task === "plugin-fetch") {
    const c = client()
    await c.getToken()
    const run = await measured(async () => {
      let count = 0
      await c.streamTransactions({ date: input.day }, (sale) => {
        if (toLedgerRow(sale, input.day)) count++
      })
      return { count }
    })
    return { ms: run.ms, growth: run.growth, ...run.result }
  }
  if (task === "plugin-sync") {
    const knex = require("knex")({ client: "pg", connection: input.db, pool: { min: 1, max: 4 } })
    await knex.raw("TRUNCATE sipay_ledger_sale")
    const c = client()
    await c.getToken()
    const run = await measured(() => pullDayIntoLedger(c, new LedgerStore(knex), input.day))
    await knex.destroy()
    return { ms: run.ms, growth: run.growth, count: run.result.sales, inserted: run.result.inserted }
  }
  if (task === "plugin-sync-warm") {
    // A long-running process: a live heap of `ballast_mb` (many small objects, as an app's) and one
    // earlier sync of the same day, then the measured sync; RSS sampled every 100 ms, minus RSS just before.
    const ballast = []
    for (let mb = 0; mb < (input.ballast_mb ?? 0); mb++) ballast.push(Array.from({ length: 4000 }, (_, i) => ({ id: `obj_${mb}_${i}`, n: i, at: new Date() })))
    const knex = require("knex")({ client: "pg", connection: input.db, pool: { min: 1, max: 4 } })
    const c = client()
    await c.getToken()
    await pullDayIntoLedger(c, new LedgerStore(knex), input.day)
    const before = process.memoryUsage().rss
    let peak = before
    const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 100)
    const started = process.hrtime.bigint()
    const report = await pullDayIntoLedger(c, new LedgerStore(knex), input.day)
    const ms = Number(process.hrtime.bigint() - started) / 1e6
    clearInterval(timer)
    peak = Math.max(peak, process.memoryUsage().rss)
    await knex.destroy()
    return { ms, growth: peak - before, before, count: report.sales, heap: ballast.length }
  }
  if (task === "csv-export") {
    const knex = require("knex")({ client: "pg", connection: input.db, pool: { min: 1, max: 2 } })
    const store = new LedgerStore(knex)
    let bytes = 0
    const sink = new Writable({ highWaterMark: 64 * 1024, write(chunk, _enc, done) { bytes += chunk.length; setImmediate(done) } })
    const run = await measured(async () => {
      const write = async (text) => {
        if (!sink.write(text)) await once(sink, "drain")
      }
      await write(`\uFEFF${salesCsvHeader()}`)
      let rows = 0
      for await (const records of store.batches({ day: input.day })) {
        rows += records.length
        await write(salesCsvLines(records.map((record) => ({ ...record, medusa: { order_id: null, payment_session_id: null, attempt_number: null, payment_link_id: null } }))))
      }
      return { rows }
    })
    await knex.destroy()
    return { ms: run.ms, growth: run.growth, bytes, ...run.result }
  }
  throw new Error(`unknown child task ${task}`)
}

function runChild(task, input, nodeArgs = []) {
  const child = spawnSync(process.execPath, ["--expose-gc", ...nodeArgs, SELF, "--child", task, JSON.stringify(input)], { encoding: "utf8", maxBuffer: 64 * MB })
  const line = (child.stdout || "").trim().split("\n").pop()
  if (child.status !== 0 || !line?.startsWith("{")) throw new Error(`child ${task} failed: ${child.stderr || child.stdout}`)
  return JSON.parse(line)
}

// ---------------------------------------------------------------- sandbox process

async function startSandboxProcess() {
  const child = spawn(process.execPath, ["--max-old-space-size=8192", SELF, "--sandbox"], { stdio: ["pipe", "pipe", "inherit"] })
  let text = ""
  for await (const chunk of child.stdout) {
    text += chunk
    if (text.includes("\n")) break
  }
  const handle = JSON.parse(text.split("\n")[0])
  // A fresh connection per control call: the parent blocks on child processes for seconds, longer
  // than the sandbox keeps an idle keep-alive socket, and a reused dead socket fails the call.
  const control = (path, method = "GET", body) =>
    new Promise((resolveCall, reject) => {
      const payload = body ? JSON.stringify(body) : ""
      const req = request(`${handle.link_base}/__sandbox/${path}`, { method, agent: false, headers: { "content-type": "application/json", "content-length": Buffer.byteLength(payload) } }, (res) => {
        const chunks = []
        res.on("data", (chunk) => chunks.push(chunk))
        res.on("end", () => {
          try {
            resolveCall(JSON.parse(Buffer.concat(chunks).toString("utf8")))
          } catch (error) {
            reject(new Error(`sandbox control ${path}: ${error.message}`))
          }
        })
      })
      req.on("error", (error) => reject(new Error(`sandbox control ${path}: ${error.message}`)))
      req.end(payload)
    })
  return { ...handle, control, stop: () => child.kill() }
}

async function sandboxMain() {
  const { startSandbox } = load("src/sandbox/index.ts")
  // No data file (nothing is written per change), zero latency, test controls for seeding and counting.
  const sandbox = await startSandbox({ port: 0, testControls: true, merchants: [MERCHANT] })
  process.stdout.write(`${JSON.stringify({ base_url: sandbox.base_url, link_base: sandbox.link_base })}\n`)
}

// ---------------------------------------------------------------- database

function dbConfig() {
  return {
    host: process.env.DB_HOST || "localhost",
    port: Number(process.env.DB_PORT || 5432),
    user: process.env.DB_USERNAME || "postgres",
    password: process.env.DB_PASSWORD || undefined,
    database: process.env.BENCH_DB || "medusa_sipay_bench",
  }
}

/** The plugin's migrations that make the ledger's tables, indexes and storage settings, in order. */
const LEDGER_MIGRATIONS = ["Migration20261123065212", "Migration20261123065312", "Migration20261123074007", "Migration20261123113200", "Migration20261202090000"]

/** A fresh database with the ledger table made by the plugin's own migrations. */
async function prepareDatabase() {
  const config = dbConfig()
  const admin = require("knex")({ client: "pg", connection: { ...config, database: "postgres" } })
  const exists = await admin.raw("SELECT 1 FROM pg_database WHERE datname = ?", [config.database])
  if (!exists.rows.length) await admin.raw(`CREATE DATABASE "${config.database}"`)
  await admin.destroy()
  const knex = require("knex")({ client: "pg", connection: config })
  await knex.raw("DROP TABLE IF EXISTS sipay_ledger_sale, sipay_ledger_day, sipay_chargeback, ledger_copy_floor CASCADE")
  for (const file of LEDGER_MIGRATIONS) {
    const Migration = load(`src/modules/sipay/migrations/${file}.ts`)[file]
    const statements = []
    const migration = Object.create(Migration.prototype)
    migration.addSql = (sql) => statements.push(sql)
    await migration.up()
    for (const sql of statements) await knex.raw(sql)
  }
  return { knex, config }
}

const COPY_COLUMNS = [
  "id", "sale_id", "day", "sale_created_at", "invoice_id", "gateway_order_id", "transaction_state_id", "transaction_state_label", "currency_code",
  "currency_id", "payment_type_id", "gross", "raw_gross", "net", "raw_net", "merchant_commission", "raw_merchant_commission",
  "total_refunded_amount", "raw_total_refunded_amount", "installment", "dpl_id", "recurring_id", "credit_card_no", "record", "synced_at",
]

function csvCell(value) {
  if (value === null || value === undefined) return ""
  const text = typeof value === "object" ? JSON.stringify(value) : String(value)
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

/** The plain COPY floor: the same rows, as CSV, into an empty copy of the table through psql. */
function copyRows(config, rows) {
  const raw = (value) => ({ value: String(value), precision: 20 })
  const syncedAt = new Date().toISOString()
  let csv = ""
  rows.forEach((row, index) => {
    csv += [
      `sled_copy_${index}`, row.sale_id, row.day, row.sale_created_at, row.invoice_id, row.gateway_order_id, row.transaction_state_id, row.transaction_state_label,
      row.currency_code, row.currency_id, row.payment_type_id, row.gross, raw(row.gross), row.net, raw(row.net), row.merchant_commission, raw(row.merchant_commission),
      row.total_refunded_amount, raw(row.total_refunded_amount), row.installment, row.dpl_id, row.recurring_id, row.credit_card_no, row.record, syncedAt,
    ].map(csvCell).join(",") + "\n"
  })
  const started = process.hrtime.bigint()
  const result = spawnSync("psql", ["-h", config.host, "-p", String(config.port), "-U", config.user, "-d", config.database, "-v", "ON_ERROR_STOP=1", "-q",
    "-c", `\\copy ledger_copy_floor (${COPY_COLUMNS.join(", ")}) FROM STDIN WITH (FORMAT csv)`], { input: csv, env: { ...process.env, PGPASSWORD: config.password ?? "" }, maxBuffer: 64 * MB })
  const ms = Number(process.hrtime.bigint() - started) / 1e6
  if (result.status !== 0) throw new Error(`psql COPY failed: ${result.stderr}`)
  return ms
}

// ---------------------------------------------------------------- figures

const table = []
const notes = []
function row(figure, value, floor, ratio, target, met) {
  table.push({ figure, value, floor, ratio, target, met: met === undefined ? "" : met ? "yes" : "**no**" })
}

/** A day with several amounts and currencies (seed-sales makes one amount and currency per call). */
function seedBatches(size) {
  const amounts = [4.5, 9.9, 19.9, 24.5, 39.9, 49.9, 74.9, 99, 129.9, 149.9, 199.9, 249.9, 349, 499.9, 750, 999, 1499.9, 2499, 4999, 9999]
  const currencies = ["TRY", "TRY", "TRY", "TRY", "TRY", "TRY", "TRY", "USD", "TRY", "EUR"]
  const batches = amounts.map((amount, i) => ({ count: Math.floor(size / amounts.length), amount, currency: currencies[i % currencies.length] }))
  batches[0].count += size - batches.reduce((sum, b) => sum + b.count, 0)
  return batches.filter((b) => b.count > 0)
}

/**
 * Seeded sales are all completed 2D sales: give the day the states a real one has (refunded, partly
 * refunded, failed, chargebacked) and a second payment type, in the rows and their records, as the
 * gateway would report them (a stable choice per sale id).
 */
function variedSales(rows) {
  const LABELS = { 1: "Completed", 2: "Failed", 4: "Refunded", 5: "Partially Refunded", 11: "Chargebacked" }
  const hash = (text) => [...text].reduce((h, c) => (Math.imul(h, 31) + c.charCodeAt(0)) >>> 0, 7)
  return rows.map((row) => {
    const h = hash(row.sale_id) % 100
    const state = h < 5 ? 4 : h < 8 ? 5 : h < 10 ? 2 : h < 11 ? 11 : 1
    const paymentType = hash(`${row.sale_id}p`) % 100 < 15 ? 2 : 1
    const refunded = state === 4 ? row.gross : state === 5 ? String(Math.round(Number(row.gross) * 50) / 100) : "0"
    const record = { ...row.record, transaction_state_id: state, transaction_state_label: LABELS[state], payment_type_id: paymentType, total_refunded_amount: refunded }
    return { ...row, transaction_state_id: state, transaction_state_label: LABELS[state], payment_type_id: paymentType, total_refunded_amount: refunded, record }
  })
}

/**
 * The Sales page's database work (day status, page, count and totals, as the route does it) for
 * every filter the page offers, alone and combined, x the 8 orders x the first, a middle and the
 * last page; the median of `rounds` per combination.
 */
async function salesCombinations(store, db, day, rounds) {
  const some = (await db.raw("SELECT invoice_id FROM sipay_ledger_sale WHERE day = ? ORDER BY sale_created_at OFFSET 777 LIMIT 1", [day])).rows[0].invoice_id
  const filters = {
    none: {},
    "invoice id": { invoice_id: some },
    "invoice id (none)": { invoice_id: "no-such-invoice" },
    "currency TRY": { currency_id: 1 },
    "currency EUR": { currency_id: 3 },
    "payment type 1": { payment_type_id: 1 },
    "payment type 2": { payment_type_id: 2 },
    "state completed": { transaction_state_id: 1 },
    "state chargebacked": { transaction_state_id: 11 },
    "state pre-authorized (none)": { transaction_state_id: 6 },
    "min 100": { min_amount: "100" },
    "min 4000": { min_amount: "4000" },
    "max 10": { max_amount: "10" },
    "100 to 500": { min_amount: "100", max_amount: "500" },
    "TRY, type 1, completed, min 20": { currency_id: 1, payment_type_id: 1, transaction_state_id: 1, min_amount: "20" },
    "EUR, refunded, min 1000": { currency_id: 3, transaction_state_id: 4, min_amount: "1000" },
  }
  const orders = ["created_at", "gross", "state", "invoice_id"].flatMap((sort) => [[sort, "desc"], [sort, "asc"]])
  const combos = []
  for (const [name, filter] of Object.entries(filters)) {
    const query = { day, ...filter }
    const count = (await store.summary(query)).count
    const pages = [["first", 0], ["middle", Math.floor(count / 100) * 50], ["last", Math.max(0, Math.floor((count - 1) / 50) * 50)]].filter(([page, offset]) => page === "first" || offset > 0)
    for (const [sort, direction] of orders) {
      for (const [page, offset] of pages) {
        const times = []
        for (let round = 0; round < rounds; round++) {
          const started = process.hrtime.bigint()
          const [, view] = await Promise.all([store.days([day]), store.view(query, { sort, direction, limit: 50, offset })])
          times.push(Number(process.hrtime.bigint() - started) / 1e6)
          if (view.count !== count || view.records.length !== Math.min(50, Math.max(0, count - offset))) throw new Error(`sales ${name} ${sort} ${direction} ${offset}: ${view.records.length} rows of ${view.count}`)
        }
        combos.push({ filter: name, order: `${direction === "desc" ? "-" : ""}${sort}`, page, count, ms: stats(times) })
      }
    }
  }
  return combos
}

function benchHash(rounds) {
  const { generateHashKey, validateHashKey } = load("src/lib/sipay/hash.ts")
  const { createCipheriv, createDecipheriv, createHash, randomBytes } = require("node:crypto")
  const secret = MERCHANT.app_secret
  const parts = ["150.75", "1", "TRY", MERCHANT.merchant_key, "inv_0123456789abcdef"]
  // The floor: the same work (key derivation, random iv and salt, AES-256-CBC both ways) in raw node:crypto.
  const floor = () => {
    const random = randomBytes(10).toString("hex")
    const iv = random.slice(0, 16)
    const salt = random.slice(16, 20)
    const key = Buffer.from(createHash("sha256").update(createHash("sha1").update(secret).digest("hex") + salt).digest("hex").slice(0, 32), "ascii")
    const cipher = createCipheriv("aes-256-cbc", key, Buffer.from(iv, "ascii"))
    const encrypted = Buffer.concat([cipher.update(parts.join("|")), cipher.final()]).toString("base64")
    const key2 = Buffer.from(createHash("sha256").update(createHash("sha1").update(secret).digest("hex") + salt).digest("hex").slice(0, 32), "ascii")
    const decipher = createDecipheriv("aes-256-cbc", key2, Buffer.from(iv, "ascii"))
    return Buffer.concat([decipher.update(Buffer.from(encrypted, "base64")), decipher.final()]).toString("utf8").split("|")
  }
  const plugin = () => validateHashKey(generateHashKey(parts, secret), secret)
  if (plugin()?.join("|") !== parts.join("|") || floor().join("|") !== parts.join("|")) throw new Error("hash: a variant does not round-trip")
  const ops = 5000
  const time = (fn) => {
    const started = process.hrtime.bigint()
    for (let i = 0; i < ops; i++) fn()
    return Number(process.hrtime.bigint() - started) / 1e6
  }
  time(plugin), time(floor)
  const ratios = []
  const pluginOps = []
  const floorOps = []
  for (let round = 0; round < rounds * 3; round++) {
    const [a, b] = round % 2 ? [time(floor), time(plugin)] : [time(plugin), time(floor)].reverse()
    // a: floor ms, b: plugin ms (order alternates per round)
    ratios.push(a / b)
    pluginOps.push((ops / b) * 1000)
    floorOps.push((ops / a) * 1000)
  }
  row("hash_key generate+validate, ops/s", triple(stats(pluginOps), 0), triple(stats(floorOps), 0) + " (raw node:crypto)", `throughput ${triple(stats(ratios))}`, ">= 0.9x", stats(ratios).median >= 0.9)
}

async function benchLedger(options) {
  const { knex, config } = await prepareDatabase()
  await knex.destroy()
  const sandbox = await startSandboxProcess()
  const hasPsql = spawnSync("psql", ["--version"]).status === 0
  const { SipayClient } = load("src/lib/sipay/index.ts")
  const { toLedgerRow } = load("src/lib/sales-report/ledger-row.ts")
  const { LedgerStore } = load("src/modules/sipay/ledger/store.ts")
  try {
    let seeded = 0
    const csvBySize = []
    for (const size of options.sizes) {
      // One day per size: the sandbox holds all of them, each day asked alone.
      const day = `2026-10-${String(10 + options.sizes.indexOf(size)).padStart(2, "0")}`
      let seededNow = 0
      for (const batch of seedBatches(size)) {
        const seed = await sandbox.control("seed-sales", "POST", { ...batch, date: day })
        if (seed.seeded !== batch.count) throw new Error(`seeding failed: ${JSON.stringify(seed)}`)
        seededNow += seed.seeded
      }
      if (seededNow !== size) throw new Error(`seeding failed: ${seededNow} of ${size}`)
      seeded += size
      const input = { base_url: sandbox.base_url, day, db: config }
      const rounds = size >= 100000 ? Math.min(options.rounds, 3) : options.rounds
      const floor = []
      const fetchRuns = []
      const syncRuns = []
      await sandbox.control("calls", "DELETE")
      for (let round = 0; round < rounds; round++) {
        const order = round % 2 ? ["plugin", "floor"] : ["floor", "plugin"]
        for (const which of order) (which === "floor" ? floor : fetchRuns).push(runChild(which === "floor" ? "floor-fetch" : "plugin-fetch", input))
        syncRuns.push(runChild("plugin-sync", input))
      }
      const calls = await sandbox.control("calls")
      const bytes = floor[0].bytes
      const timeRatio = stats(fetchRuns.map((run, i) => run.ms / floor[i].ms))
      const syncRatio = stats(syncRuns.map((run, i) => run.ms / floor[i].ms))
      const memory = stats(fetchRuns.map((run) => run.growth / bytes))
      const syncMemory = stats(syncRuns.map((run) => run.growth / bytes))
      const label = `${size.toLocaleString("en")} sales (${fmt(bytes / MB, 1)} MB)`
      row(`getTransactions stream + parse, ${label}, ms`, triple(stats(fetchRuns.map((r) => r.ms)), 0), `${triple(stats(floor.map((r) => r.ms)), 0)} (download + JSON.parse)`, triple(timeRatio), "<= 1.5x", timeRatio.median <= 1.5)
      row(`  peak RSS growth, ${label}, MB`, triple(stats(fetchRuns.map((r) => r.growth / MB)), 1), `payload ${fmt(bytes / MB, 1)} MB (floor grew ${triple(stats(floor.map((r) => r.growth / MB)), 1)})`, `${triple(memory)} of payload`, "<= 0.5x payload", memory.median <= 0.5)
      row(`ledger sync (stream + upsert into PostgreSQL), ${label}, ms`, triple(stats(syncRuns.map((r) => r.ms)), 0), "download + JSON.parse (above)", triple(syncRatio), "-", undefined)
      row(`  ledger sync peak RSS growth, ${label}, MB`, triple(stats(syncRuns.map((r) => r.growth / MB)), 1), `payload ${fmt(bytes / MB, 1)} MB`, `${triple(syncMemory)} of payload`, "- (the 0.5x target is on fetch and parse)", undefined)
      if (size === Math.max(...options.sizes)) {
        // Bounded memory, shown plainly: each streamed path runs to its end inside a small V8 heap that the floor cannot fit in.
        const capped = (task) => {
          try {
            return runChild(task, input, [`--max-old-space-size=${HEAP_CAP_MB}`]).count === size ? "completes" : "wrong count"
          } catch {
            return "runs out of memory"
          }
        }
        row(`in a ${HEAP_CAP_MB} MB V8 heap, ${label}: stream + parse / ledger sync`, `${capped("plugin-fetch")} / ${capped("plugin-sync")}`, `download + JSON.parse: ${capped("floor-fetch")}`, "-", "flat memory", undefined)
      }
      const fetches = fetchRuns.length + floor.length + syncRuns.length
      notes.push(`${label}: ${rounds} rounds; sandbox calls ${JSON.stringify(calls)} for ${fetches} fetches (one getTransactions and one token per fresh process, ${fetches} processes)`)

      // Upsert vs plain COPY of the same rows (parent process; rows fetched once).
      const client = new SipayClient({ baseUrl: sandbox.base_url, appId: MERCHANT.app_id, appSecret: MERCHANT.app_secret, merchantKey: MERCHANT.merchant_key, timeoutMs: 120000 })
      const rows = []
      await client.streamTransactions({ date: day }, (sale) => {
        const mapped = toLedgerRow(sale, day)
        if (mapped) rows.push(mapped)
      })
      const db = require("knex")({ client: "pg", connection: config, pool: { min: 1, max: 2 } })
      const store = new LedgerStore(db)
      await db.raw("DROP TABLE IF EXISTS ledger_copy_floor")
      // The same table: columns, indexes and storage parameters (LIKE does not copy the latter).
      const reloptions = (await db.raw("SELECT coalesce(array_to_string(reloptions, ', '), '') AS options FROM pg_class WHERE relname = 'sipay_ledger_sale'")).rows[0].options
      await db.raw(`CREATE TABLE ledger_copy_floor (LIKE sipay_ledger_sale INCLUDING ALL)${reloptions ? ` WITH (${reloptions})` : ""}`)
      const upserts = []
      const noops = []
      const copies = []
      for (let round = 0; round < rounds; round++) {
        await db.raw("TRUNCATE sipay_ledger_sale")
        let started = process.hrtime.bigint()
        for (let at = 0; at < rows.length; at += 1000) await store.upsert(rows.slice(at, at + 1000), new Date())
        upserts.push(Number(process.hrtime.bigint() - started) / 1e6)
        started = process.hrtime.bigint()
        for (let at = 0; at < rows.length; at += 1000) await store.upsert(rows.slice(at, at + 1000), new Date())
        noops.push(Number(process.hrtime.bigint() - started) / 1e6)
        if (hasPsql) {
          await db.raw("TRUNCATE ledger_copy_floor")
          copies.push(copyRows(config, rows))
        }
      }
      if (hasPsql) {
        const ratio = stats(upserts.map((ms, i) => ms / copies[i]))
        row(`upsert of new rows, ${label}, ms`, triple(stats(upserts), 0), `${triple(stats(copies), 0)} (plain COPY via psql, same rows)`, triple(ratio), "<= 3x", ratio.median <= 3)
        row(`  upsert of unchanged rows (a re-sync), ${label}, ms`, triple(stats(noops), 0), "plain COPY (above)", triple(stats(noops.map((ms, i) => ms / copies[i]))), "-", undefined)
      } else {
        row(`upsert of new rows, ${label}, ms`, triple(stats(upserts), 0), "psql missing: COPY floor not measured", "-", "<= 3x", undefined)
      }

      if (options.only.includes("sales")) {
        // The day as the sync leaves it: upserted, recorded (kept sums refreshed, the sync's own VACUUM).
        const sales = variedSales(rows)
        await db.raw("TRUNCATE sipay_ledger_sale")
        const syncStore = new LedgerStore(db)
        for (let at = 0; at < sales.length; at += 1000) await syncStore.upsert(sales.slice(at, at + 1000), new Date())
        const recordStarted = process.hrtime.bigint()
        await syncStore.recordDay(day, { sale_count: sales.length, synced_at: new Date(), duration_ms: 0, error: null })
        row(`  recording the synced day (kept sums per group + VACUUM ANALYZE of the ledger), ${label}, ms`, fmt(Number(process.hrtime.bigint() - recordStarted) / 1e6, 0), "-", "-", "-", undefined)
        if (size === Math.max(...options.sizes)) {
          const states = [
            ["as synced", null],
            // The worst moment: a quarter of the day rewritten and not vacuumed yet (the sync's VACUUM
            // skipped, e.g. the user does not own the table, and autovacuum not there yet).
            ["25 % rewritten, not vacuumed", () => db.raw("UPDATE sipay_ledger_sale SET synced_at = now() WHERE day = ? AND abs(hashtext(sale_id)) % 4 = 0", [day]).then(() => db.raw("ANALYZE sipay_ledger_sale"))],
          ]
          for (const [when, prepare] of states) {
            if (prepare) await prepare()
            const combos = await salesCombinations(store, db, day, options.rounds)
            const worst = combos.reduce((a, b) => (b.ms.median > a.ms.median ? b : a))
            const over = combos.filter((c) => c.ms.median >= 200).length
            row(`Sales page (50 rows + count + totals), ${label}, ${when}: worst of ${combos.length} filter x sort x page combinations, ms`, triple(worst.ms, 1), "target 200 ms", `${fmt(worst.ms.median / 200)} (${worst.filter}, order ${worst.order}, ${worst.page} page, ${worst.count} matching)`, "< 200 ms", worst.ms.median < 200)
            row(`  ${when}: combinations at or over 200 ms / median of all combinations, ms`, `${over} / ${fmt(stats(combos.map((c) => c.ms.median)).median, 1)}`, "-", "-", "0 over", over === 0)
            for (const filter of [...new Set(combos.map((c) => c.filter))]) {
              const mine = combos.filter((c) => c.filter === filter)
              const slowest = mine.reduce((a, b) => (b.ms.median > a.ms.median ? b : a))
              const first = mine.find((c) => c.order === "-created_at" && c.page === "first")
              row(`    ${when}: ${filter} (${slowest.count} matching): first page newest first / slowest of ${mine.length}, ms`, `${fmt(first.ms.median, 1)} / ${fmt(slowest.ms.median, 1)} (order ${slowest.order}, ${slowest.page} page)`, "-", "-", "< 200 ms", slowest.ms.median < 200)
            }
          }
        }
        const csvRuns = []
        for (let round = 0; round < Math.min(options.rounds, 3); round++) csvRuns.push(runChild("csv-export", { day, db: config }))
        let cappedCsv = "-"
        if (size === Math.max(...options.sizes)) {
          try {
            cappedCsv = runChild("csv-export", { day, db: config }, [`--max-old-space-size=${HEAP_CAP_MB}`]).rows === size ? "completes" : "wrong count"
          } catch {
            cappedCsv = "runs out of memory"
          }
        }
        csvBySize.push({ size, label, runs: csvRuns, capped: cappedCsv })
      }
      await db.destroy()
    }
    // Flat memory: the export's peak RSS growth does not follow the day's size.
    const smallest = csvBySize[0]
    for (const entry of csvBySize) {
      const growth = stats(entry.runs.map((r) => r.growth / MB))
      const bytes = entry.runs[0].bytes
      row(`CSV export streamed, ${entry.label}: ${fmt(bytes / MB, 1)} MB of CSV, ms`, triple(stats(entry.runs.map((r) => r.ms)), 0), "-", "-", "streamed, all rows", entry.runs.every((r) => r.rows === entry.size))
      if (entry.capped !== "-") row(`  CSV export in a ${HEAP_CAP_MB} MB V8 heap, ${entry.label}`, entry.capped, "-", "-", "flat memory", entry.capped === "completes")
      row(`  CSV export peak RSS growth, MB`, triple(growth, 1), entry === smallest ? "(reference: smallest day)" : `smallest day: ${fmt(stats(smallest.runs.map((r) => r.growth / MB)).median, 1)} MB`, `${fmt(growth.median / Math.max(1, stats(smallest.runs.map((r) => r.growth / MB)).median))}x the smallest day's for ${fmt(entry.size / smallest.size, 0)}x the sales`, "- (V8 grows its heap lazily; the heap cap row shows the bound)", undefined)
    }
    notes.push(`sandbox held ${seeded.toLocaleString("en")} seeded sales (seed-sales control, no data file)`)
  } finally {
    sandbox.stop()
  }
}

const LOAD_AT_START = require("node:os").loadavg()

/** The machine, as the table's first line prints it. */
function machine() {
  const os = require("node:os")
  const cpus = os.cpus()
  return `${cpus.length} CPUs (${cpus[0]?.model?.trim() ?? "unknown"}), ${Math.round(os.totalmem() / 1024 ** 3)} GB RAM`
}

function printTable(options) {
  const lines = [
    `Bench of ${new Date().toISOString()} (node ${process.version}, ${machine()}, load average at start ${LOAD_AT_START.map((n) => n.toFixed(2)).join(" ")}, at end ${require("node:os").loadavg().map((n) => n.toFixed(2)).join(" ")}); rounds ${options.rounds}; sandbox without data file, zero gateway latency${options.latency > 0 ? ` except the rows "at ${options.latency} ms gateway latency"` : ""}.`,
    "",
    "| figure | this plugin (min / median / max) | floor, same run | ratio (min / median / max) | target | met |",
    "|---|---|---|---|---|---|",
    ...table.map((r) => `| ${r.figure} | ${r.value} | ${r.floor} | ${r.ratio} | ${r.target} | ${r.met} |`),
    "",
    ...notes.map((note) => `- ${note}`),
  ]
  process.stdout.write(`${lines.join("\n")}\n`)
  // The blocks of the --only list in those documents (README.md's Performance section: the rows with a
  // target; docs/performance.md: the whole table), rewritten with this table.
  for (const file of options.write ? options.write.split(",") : []) {
    writeBenchBlock(file, options.only.join(","), lines.join("\n"))
    process.stdout.write(`(written to ${file}, blocks of ${options.only.join(",")})\n`)
  }
}

async function main() {
  if (process.argv[2] === "--child") {
    const result = await childTask(process.argv[3], JSON.parse(process.argv[4]))
    process.stdout.write(`${JSON.stringify(result)}\n`)
    process.exit(0)
  }
  if (process.argv[2] === "--sandbox") return sandboxMain()
  const options = args()
  if (options.only.includes("hash")) benchHash(options.rounds)
  if (options.only.includes("ledger") || options.only.includes("sales")) await benchLedger(options)
  // The size of one day's getTransactions answer, as the floor downloads it (the "payload" of the sync-now rows).
  options.payloadBytes = async (baseUrl, merchant, day) => {
    const wire = load("src/lib/sipay/wire.ts")
    const tokenAnswer = JSON.parse((await rawPost(`${baseUrl}/api/token`, { app_id: merchant.app_id, app_secret: merchant.app_secret }, "")).toString())
    return (await rawPost(`${baseUrl}/api/getTransactions`, wire.transactionsBody(merchant.merchant_key, { date: day }), tokenAnswer.data.token)).length
  }
  if (options.only.includes("checkout") || options.only.includes("latency") || options.only.includes("sync-now")) {
    const { benchCheckout } = await import("./bench-checkout.mjs").catch(() => ({}))
    if (benchCheckout) await benchCheckout({ options, row, notes, triple, stats, fmt })
    else notes.push("checkout figures: scripts/bench-checkout.mjs not present in this tree")
  }
  printTable(options)
  process.exit(0)
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`)
  process.exit(1)
})
