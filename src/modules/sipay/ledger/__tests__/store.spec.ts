import knexFactory, { type Knex } from "knex"
import { randomBytes } from "node:crypto"
import type { LedgerRow } from "../../../../lib/sales-report/ledger-row"
import { Migration20261123065212 } from "../../migrations/Migration20261123065212"
import { Migration20261123065312 } from "../../migrations/Migration20261123065312"
import { Migration20261123074007 } from "../../migrations/Migration20261123074007"
import { Migration20261123113200 } from "../../migrations/Migration20261123113200"
import { Migration20261202090000 } from "../../migrations/Migration20261202090000"
import { fromTheOtherEnd, LEDGER_SORTS, LedgerStore, type LedgerFilters } from "../store"

/**
 * The ledger's reads against PostgreSQL (the migrations' tables and indexes), held to the same
 * answers computed here from the rows written: every order, filters alone and combined, first,
 * middle, far and last pages (far pages are read from the other end), and the kept per-group sums
 * against a sum of the rows.
 */

const connection = {
  host: process.env.DB_HOST || "localhost",
  port: Number(process.env.DB_PORT || 5432),
  user: process.env.DB_USERNAME || "postgres",
  password: process.env.DB_PASSWORD || undefined,
}
const DATABASE = `sipay_ledger_store_${process.pid}`
const DAY = "2026-11-20"
const OTHER_DAY = "2026-11-19"
const SALES = 12_000

let admin: Knex
let db: Knex
let store: LedgerStore
const rows: LedgerRow[] = []

async function migrate(knex: Knex) {
  for (const Migration of [Migration20261123065212, Migration20261123065312, Migration20261123074007, Migration20261123113200, Migration20261202090000]) {
    const statements: string[] = []
    const migration = Object.create(Migration.prototype)
    migration.addSql = (sql: string) => statements.push(sql)
    await migration.up()
    for (const sql of statements) await knex.raw(sql)
  }
}

/** A sale of the day: amounts, currencies, payment types and states spread, several sales per instant (ties broken by id). */
function sale(index: number, day: string): LedgerRow {
  const state = [1, 1, 1, 1, 1, 1, 4, 5, 2, 11][index % 10]
  const currency = [[1, "TRY"], [1, "TRY"], [2, "USD"], [3, "EUR"]][index % 4] as [number, string]
  const gross = ((index * 7919) % 50_000) / 100 + 1
  const at = new Date(Date.parse(`${day}T00:00:00+03:00`) + Math.floor(index / 3) * 1000).toISOString()
  const invoice = `inv_${String((index * 104_729) % 1_000_003).padStart(7, "0")}`
  return {
    sale_id: `${day}-${index}`,
    day,
    sale_created_at: at,
    invoice_id: invoice,
    gateway_order_id: null,
    transaction_state_id: state,
    transaction_state_label: String(state),
    currency_code: currency[1],
    currency_id: currency[0],
    payment_type_id: index % 7 === 0 ? 2 : 1,
    gross: String(gross),
    net: String(Math.round(gross * 97) / 100),
    merchant_commission: String(Math.round(gross * 3) / 100),
    total_refunded_amount: state === 4 ? String(gross) : state === 5 ? "1.5" : "0",
    installment: 1,
    dpl_id: null,
    recurring_id: null,
    credit_card_no: "4508 03** **** 4567",
    // About 2 KB of JSON that does not compress away, as a gateway record (the sandbox's are 1.8-1.9 KB).
    record: { id: `${day}-${index}`, invoice_id: invoice, gross, note: randomBytes(1400).toString("base64") } as any,
  }
}

const SORT_OF: Record<(typeof LEDGER_SORTS)[number], (row: LedgerRow) => number | string> = {
  created_at: (row) => Date.parse(row.sale_created_at),
  gross: (row) => Number(row.gross),
  state: (row) => row.transaction_state_id,
  invoice_id: (row) => row.invoice_id,
}

function matches(row: LedgerRow, filters: LedgerFilters): boolean {
  return (
    row.day === filters.day &&
    (filters.invoice_id === undefined || row.invoice_id === filters.invoice_id) &&
    (filters.currency_id === undefined || row.currency_id === filters.currency_id) &&
    (filters.payment_type_id === undefined || row.payment_type_id === filters.payment_type_id) &&
    (filters.transaction_state_id === undefined || row.transaction_state_id === filters.transaction_state_id) &&
    (filters.min_amount === undefined || Number(row.gross) >= Number(filters.min_amount)) &&
    (filters.max_amount === undefined || Number(row.gross) <= Number(filters.max_amount))
  )
}

/** The expected order: the key, then the row id (the database's tie-breaker), in one direction. */
function expectedOrder(filters: LedgerFilters, sort: (typeof LEDGER_SORTS)[number], direction: "asc" | "desc", ids: Map<string, string>): LedgerRow[] {
  const key = SORT_OF[sort]
  const sign = direction === "asc" ? 1 : -1
  const compare = (a: string | number, b: string | number) => (a < b ? -1 : a > b ? 1 : 0)
  return rows.filter((row) => matches(row, filters)).sort((a, b) => sign * (compare(key(a), key(b)) || compare(ids.get(a.sale_id)!, ids.get(b.sale_id)!)))
}

function expectedSummary(filters: LedgerFilters) {
  const byCurrency = new Map<string, { count: number; gross: number; net: number; commission: number; refunded: number }>()
  for (const row of rows.filter((r) => matches(r, filters))) {
    const sum = byCurrency.get(row.currency_code) ?? { count: 0, gross: 0, net: 0, commission: 0, refunded: 0 }
    sum.count++
    sum.gross += Math.round(Number(row.gross) * 100)
    sum.net += Math.round(Number(row.net) * 100)
    sum.commission += Math.round(Number(row.merchant_commission) * 100)
    sum.refunded += Math.round(Number(row.total_refunded_amount) * 100)
    byCurrency.set(row.currency_code, sum)
  }
  const totals = [...byCurrency.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([currency_code, s]) => ({ currency_code, count: s.count, gross: (s.gross / 100).toFixed(2), net: (s.net / 100).toFixed(2), commission: (s.commission / 100).toFixed(2), refunded: (s.refunded / 100).toFixed(2) }))
  return { count: totals.reduce((n, t) => n + t.count, 0), totals }
}

beforeAll(async () => {
  admin = knexFactory({ client: "pg", connection: { ...connection, database: "postgres" } })
  await admin.raw(`DROP DATABASE IF EXISTS "${DATABASE}"`)
  await admin.raw(`CREATE DATABASE "${DATABASE}"`)
  db = knexFactory({ client: "pg", connection: { ...connection, database: DATABASE }, pool: { min: 1, max: 4 } })
  await migrate(db)
  store = new LedgerStore(db)
  for (let index = 0; index < SALES; index++) rows.push(sale(index, DAY))
  for (let index = 0; index < 500; index++) rows.push(sale(index, OTHER_DAY))
  for (let at = 0; at < rows.length; at += 1000) await store.upsert(rows.slice(at, at + 1000), new Date())
  for (const day of [DAY, OTHER_DAY]) await store.recordDay(day, { sale_count: 0, synced_at: new Date(), duration_ms: 0, error: null })
  await db.raw("ANALYZE sipay_ledger_sale")
}, 300_000) // 12,500 rows written and summed: about 30 s alone, past 120 s beside a bench or a busy CI neighbour

afterAll(async () => {
  await db?.destroy()
  await admin?.raw(`DROP DATABASE IF EXISTS "${DATABASE}"`)
  await admin?.destroy()
})

describe("far pages are read from the other end", () => {
  it("only past the far offset and the middle of the order, and then the same rows", () => {
    expect(fromTheOtherEnd(100_000, 0, 50)).toBeNull()
    expect(fromTheOtherEnd(100_000, 5_000, 50)).toBeNull()
    expect(fromTheOtherEnd(100_000, 50_000, 50)).toBeNull()
    expect(fromTheOtherEnd(100_000, 50_050, 50)).toEqual({ offset: 49_900, limit: 50 })
    expect(fromTheOtherEnd(100_000, 99_950, 50)).toEqual({ offset: 0, limit: 50 })
    expect(fromTheOtherEnd(100_010, 99_950, 50)).toEqual({ offset: 10, limit: 50 })
    expect(fromTheOtherEnd(99_990, 99_950, 50)).toEqual({ offset: 0, limit: 40 })
    expect(fromTheOtherEnd(100_000, 100_000, 50)).toBeNull()
    // Every position of a small order, against reading forward.
    for (let count = 1; count < 40; count++) {
      for (let offset = 0; offset < count + 3; offset++) {
        const forward = Array.from({ length: count }, (_, i) => i).slice(offset, offset + 7)
        const other = fromTheOtherEnd(count + 10_000, offset + 10_000, 7)
        if (!other) continue
        const reversed = Array.from({ length: count + 10_000 }, (_, i) => i).reverse().slice(other.offset, other.offset + other.limit).reverse()
        expect(reversed).toEqual(forward.map((i) => i + 10_000))
      }
    }
  })
})

describe("ledger store on PostgreSQL", () => {
  let ids: Map<string, string>

  beforeAll(async () => {
    const result = await db.raw("SELECT sale_id, id FROM sipay_ledger_sale")
    ids = new Map(result.rows.map((row: any) => [row.sale_id, row.id]))
  })

  const FILTERS: [string, Omit<LedgerFilters, "day">][] = [
    ["none", {}],
    ["currency", { currency_id: 3 }],
    ["payment type", { payment_type_id: 2 }],
    ["state", { transaction_state_id: 1 }],
    ["currency, type and state", { currency_id: 1, payment_type_id: 1, transaction_state_id: 4 }],
    ["amount range", { min_amount: "100", max_amount: "250.5" }],
    ["amount and state", { min_amount: "400", transaction_state_id: 1 }],
    ["invoice", { invoice_id: sale(4321, DAY).invoice_id }],
    ["nothing matches", { transaction_state_id: 6 }],
  ]

  it.each(FILTERS)("every order, first, middle, far and last pages match the rows written: %s", async (_name, extra) => {
    const filters = { day: DAY, ...extra }
    for (const sort of LEDGER_SORTS) {
      for (const direction of ["asc", "desc"] as const) {
        const expected = expectedOrder(filters, sort, direction, ids)
        const count = expected.length
        const offsets = [...new Set([0, 50, Math.floor(count / 2), 5_050, count - 120, Math.max(0, count - 50), Math.max(0, count - 17)])].filter((o) => o >= 0 && (o < count || o === 0))
        for (const offset of offsets) {
          const view = await store.view(filters, { sort, direction, limit: 50, offset })
          expect({ sort, direction, offset, count: view.count }).toEqual({ sort, direction, offset, count })
          expect({ sort, direction, offset, ids: view.records.map((r: any) => r.id) }).toEqual({ sort, direction, offset, ids: expected.slice(offset, offset + 50).map((r) => r.sale_id) })
        }
      }
    }
  })

  it.each(FILTERS)("count and sums per currency match the rows, from the kept groups or summed: %s", async (_name, extra) => {
    const filters = { day: DAY, ...extra }
    expect(await store.summary(filters)).toEqual(expectedSummary(filters))
  })

  it("keeps the day's sums per currency, payment type and state, refreshed by every write of the day", async () => {
    const kept = (await db.raw("SELECT totals FROM sipay_ledger_day WHERE day = ?", [DAY])).rows[0].totals
    expect(kept.groups.length).toBeGreaterThan(4)
    expect(kept.groups.reduce((n: number, g: any) => n + g.count, 0)).toBe(SALES)
    // A refund seen on the next sync: the kept sums follow the rows once the day is recorded again.
    const changed = { ...sale(10, DAY), transaction_state_id: 4, total_refunded_amount: sale(10, DAY).gross, record: { ...sale(10, DAY).record, refunded: true } }
    rows[10] = changed
    await store.upsert([changed], new Date())
    await store.recordDay(DAY, { sale_count: SALES, synced_at: new Date(), duration_ms: 0, error: null })
    for (const [, extra] of FILTERS) expect(await store.summary({ day: DAY, ...extra })).toEqual(expectedSummary({ day: DAY, ...extra }))
  })

  it("answers amount filters from the kept amount ranges and the rows beside them, whatever the bounds", async () => {
    const kept = (await db.raw("SELECT amount_buckets FROM sipay_ledger_day WHERE day = ?", [DAY])).rows[0].amount_buckets
    // About 50 ranges in amount order, none splitting an amount, together every sale of the day.
    expect(kept.length).toBeGreaterThan(50)
    const ranges = [...new Map(kept.map((b: any) => [b.lo, Number(b.hi)])).entries()].map(([lo, hi]) => [Number(lo), hi])
    expect(ranges.length).toBeGreaterThanOrEqual(45)
    expect(ranges.length).toBeLessThanOrEqual(101)
    for (let i = 1; i < ranges.length; i++) expect(ranges[i][0]).toBeGreaterThan(ranges[i - 1][1])
    expect(kept.reduce((n: number, b: any) => n + b.count, 0)).toBe(SALES)
    const amounts = [...new Set(rows.filter((row) => row.day === DAY).map((row) => row.gross))].sort((a, b) => Number(a) - Number(b))
    // Bounds on a range's edges, on amounts inside ranges, between amounts, outside the day, inverted.
    const bounds = [
      ...ranges.slice(0, 6).flatMap(([lo, hi]) => [String(lo), String(hi)]),
      amounts[1], amounts[777], amounts[3001], amounts[amounts.length - 2], "0", "0.5", "1.005", "250.555", "333.3", "100000", "-5",
    ]
    const cases: Omit<LedgerFilters, "day">[] = []
    for (let i = 0; i < bounds.length; i++) {
      cases.push({ min_amount: bounds[i] }, { max_amount: bounds[i] })
      for (let j = i % 4; j < bounds.length; j += 4) cases.push({ min_amount: bounds[i], max_amount: bounds[j] })
    }
    cases.push(
      { min_amount: "20", currency_id: 1, payment_type_id: 1, transaction_state_id: 1 },
      { min_amount: "100", max_amount: "300", transaction_state_id: 4 },
      { max_amount: "77.77", currency_id: 2 },
      { min_amount: "1", max_amount: "501", payment_type_id: 2 },
      { min_amount: "100", max_amount: "300", invoice_id: sale(4321, DAY).invoice_id }
    )
    for (const extra of cases) expect({ extra, summary: await store.summary({ day: DAY, ...extra }) }).toEqual({ extra, summary: expectedSummary({ day: DAY, ...extra }) })
  })

  it("keeps an amount held by many sales in a range of its own, and reads no row of a range an amount filter holds whole", async () => {
    const HEAVY_DAY = "2026-11-18"
    const heavy = Array.from({ length: 900 }, (_, index) => ({ ...sale(index, HEAVY_DAY), sale_id: `heavy-${index}`, gross: index % 3 === 0 ? String(10 + (index % 40)) : "49.9" }))
    rows.push(...heavy)
    await store.upsert(heavy, new Date())
    await store.recordDay(HEAVY_DAY, { sale_count: heavy.length, synced_at: new Date(), duration_ms: 0, error: null })
    const kept = (await db.raw("SELECT amount_buckets FROM sipay_ledger_day WHERE day = ?", [HEAVY_DAY])).rows[0].amount_buckets
    const own = kept.filter((b: any) => Number(b.lo) === 49.9)
    expect(own.length).toBeGreaterThan(0)
    expect(own.every((b: any) => Number(b.hi) === 49.9)).toBe(true)
    expect(own.reduce((n: number, b: any) => n + b.count, 0)).toBe(600)
    for (const extra of [{ min_amount: "49.9" }, { max_amount: "49.9" }, { min_amount: "49.9", max_amount: "49.9" }, { min_amount: "20", max_amount: "49.89" }, { min_amount: "11.5" }]) {
      expect(await store.summary({ day: HEAVY_DAY, ...extra })).toEqual(expectedSummary({ day: HEAVY_DAY, ...extra }))
    }
    // The kept ranges are what is summed: changed in the database alone, the answer follows them.
    await db.raw(
      `UPDATE sipay_ledger_day SET amount_buckets = (SELECT jsonb_agg(CASE WHEN (b->>'lo')::numeric = 49.9 THEN jsonb_set(b, '{count}', to_jsonb((b->>'count')::int + 1000)) ELSE b END) FROM jsonb_array_elements(amount_buckets) b) WHERE day = ?`,
      [HEAVY_DAY]
    )
    expect((await store.summary({ day: HEAVY_DAY, min_amount: "49.9", max_amount: "49.9" })).count).toBe(600 + 1000 * own.length)
    await store.recordDay(HEAVY_DAY, { sale_count: heavy.length, synced_at: new Date(), duration_ms: 0, error: null })
    expect((await store.summary({ day: HEAVY_DAY, min_amount: "49.9", max_amount: "49.9" })).count).toBe(600)
  })

  it("sums the rows when the day has no kept groups (never synced, or kept in the earlier shape)", async () => {
    await db.raw(`UPDATE sipay_ledger_day SET totals = '[{"currency_code":"TRY","count":1,"gross":"1","net":"1","commission":"0","refunded":"0"}]'::jsonb, amount_buckets = NULL WHERE day = ?`, [OTHER_DAY])
    for (const [, extra] of FILTERS) expect(await store.summary({ day: OTHER_DAY, ...extra })).toEqual(expectedSummary({ day: OTHER_DAY, ...extra }))
    expect(await store.summary({ day: "2026-01-01" })).toEqual({ count: 0, totals: [] })
    await store.recordDay(OTHER_DAY, { sale_count: 500, synced_at: new Date(), duration_ms: 0, error: null })
    expect((await db.raw("SELECT totals FROM sipay_ledger_day WHERE day = ?", [OTHER_DAY])).rows[0].totals.groups.length).toBeGreaterThan(0)
  })

  it("recording a day after a bulk write vacuums the ledger: the pages just written are all-visible for index-only scans", async () => {
    const pages = (await db.raw("SELECT relpages, relallvisible FROM pg_class WHERE relname = 'sipay_ledger_sale'")).rows[0]
    expect(pages.relpages).toBeGreaterThan(100)
    expect(pages.relallvisible).toBeGreaterThanOrEqual(pages.relpages * 0.95)
    const lastVacuum = async () => (await db.raw("SELECT vacuum_count + autovacuum_count AS n FROM pg_stat_user_tables WHERE relname = 'sipay_ledger_sale'")).rows[0].n
    // A few changed rows (a routine re-sync) leave the table to autovacuum.
    const before = Number(await lastVacuum())
    const quiet = new LedgerStore(db)
    await quiet.upsert([{ ...sale(11, DAY), record: { ...sale(11, DAY).record, touched: 1 } as any }], new Date())
    rows[11] = { ...sale(11, DAY), record: { ...sale(11, DAY).record, touched: 1 } as any }
    await quiet.recordDay(DAY, { sale_count: SALES, synced_at: new Date(), duration_ms: 0, error: null })
    expect(Number(await lastVacuum())).toBe(before)
  })

  it("keeps the record out of line and the table's indexes per sort, as the migration sets them", async () => {
    const options = (await db.raw("SELECT reloptions FROM pg_class WHERE relname = 'sipay_ledger_sale'")).rows[0].reloptions
    expect(options).toEqual(expect.arrayContaining(["toast_tuple_target=1024"]))
    const indexes = (await db.raw("SELECT indexname FROM pg_indexes WHERE tablename = 'sipay_ledger_sale'")).rows.map((r: any) => r.indexname)
    expect(indexes).toEqual(expect.arrayContaining(["IDX_sipay_ledger_sale_day_sale_created_at_id", "IDX_sipay_ledger_sale_day_gross_id", "IDX_sipay_ledger_sale_day_transaction_state_id_id", "IDX_sipay_ledger_sale_day_invoice_id_id"]))
    expect(indexes).not.toContain("IDX_sipay_ledger_sale_day_sale_created_at")
    const sizes = (await db.raw(`SELECT pg_relation_size('sipay_ledger_sale') AS heap, pg_relation_size(reltoastrelid) AS toast FROM pg_class WHERE relname = 'sipay_ledger_sale'`)).rows[0]
    expect(Number(sizes.toast)).toBeGreaterThan(2 * Number(sizes.heap))
  })
})
