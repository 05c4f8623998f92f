import type { LedgerRow } from "../../../lib/sales-report/ledger-row"

/**
 * The ledger's SQL, over the store's PostgreSQL (PG_CONNECTION, a Knex instance): a set-based upsert
 * (one statement per batch, rows passed as one JSON document) and paged, sorted, summed reads done by
 * the database. The tables are the module's models (ledger-sale, ledger-day); the generated
 * migrations create them.
 */
export type LedgerDatabase = {
  raw(sql: string, bindings?: readonly unknown[]): Promise<any> | any
}

export type LedgerFilters = {
  day: string
  invoice_id?: string
  currency_id?: number
  payment_type_id?: number
  min_amount?: string
  max_amount?: string
  transaction_state_id?: number
}

export const LEDGER_SORTS = ["created_at", "gross", "state", "invoice_id"] as const
export type LedgerSort = (typeof LEDGER_SORTS)[number]
const SORT_COLUMNS: Record<LedgerSort, string> = {
  created_at: "sale_created_at",
  gross: "gross",
  state: "transaction_state_id",
  invoice_id: "invoice_id",
}

export type LedgerTotal = { currency_code: string; count: number; gross: string; net: string; commission: string; refunded: string }
export type LedgerDayStatus = { day: string; sale_count: number; last_synced_at: string | null; last_duration_ms: number | null; last_error: string | null }
export type ActionCandidate = {
  sale_id: string
  invoice_id: string
  gateway_order_id: string | null
  dpl_id: number | null
  transaction_state_id: number
  total_refunded_amount: string
  gross: string
  currency_code: string
  acted_on: string | null
}

const UPSERT_SQL = `
INSERT INTO sipay_ledger_sale AS s (
  id, sale_id, day, sale_created_at, invoice_id, gateway_order_id, transaction_state_id, transaction_state_label,
  currency_code, currency_id, payment_type_id, gross, raw_gross, net, raw_net, merchant_commission, raw_merchant_commission,
  total_refunded_amount, raw_total_refunded_amount, installment, dpl_id, recurring_id, credit_card_no, record, synced_at)
SELECT
  'sled_' || replace(gen_random_uuid()::text, '-', ''), r.sale_id, r.day, r.sale_created_at, r.invoice_id, r.gateway_order_id,
  r.transaction_state_id, r.transaction_state_label, r.currency_code, r.currency_id, r.payment_type_id,
  r.gross, jsonb_build_object('value', r.gross::text, 'precision', 20),
  r.net, jsonb_build_object('value', r.net::text, 'precision', 20),
  r.merchant_commission, jsonb_build_object('value', r.merchant_commission::text, 'precision', 20),
  r.total_refunded_amount, jsonb_build_object('value', r.total_refunded_amount::text, 'precision', 20),
  r.installment, r.dpl_id, r.recurring_id, r.credit_card_no, r.record, ?::timestamptz
FROM jsonb_to_recordset(?::jsonb) AS r(
  sale_id text, day text, sale_created_at timestamptz, invoice_id text, gateway_order_id text, transaction_state_id int,
  transaction_state_label text, currency_code text, currency_id int, payment_type_id int, gross numeric, net numeric,
  merchant_commission numeric, total_refunded_amount numeric, installment int, dpl_id int, recurring_id int,
  credit_card_no text, record jsonb)
ON CONFLICT (sale_id) WHERE deleted_at IS NULL DO UPDATE SET
  day = excluded.day, sale_created_at = excluded.sale_created_at, invoice_id = excluded.invoice_id,
  gateway_order_id = excluded.gateway_order_id, transaction_state_id = excluded.transaction_state_id,
  transaction_state_label = excluded.transaction_state_label, currency_code = excluded.currency_code,
  currency_id = excluded.currency_id, payment_type_id = excluded.payment_type_id,
  gross = excluded.gross, raw_gross = excluded.raw_gross, net = excluded.net, raw_net = excluded.raw_net,
  merchant_commission = excluded.merchant_commission, raw_merchant_commission = excluded.raw_merchant_commission,
  total_refunded_amount = excluded.total_refunded_amount, raw_total_refunded_amount = excluded.raw_total_refunded_amount,
  installment = excluded.installment, dpl_id = excluded.dpl_id, recurring_id = excluded.recurring_id,
  credit_card_no = excluded.credit_card_no, record = excluded.record, synced_at = excluded.synced_at, updated_at = now()
WHERE s.record IS DISTINCT FROM excluded.record
RETURNING (xmax = 0) AS inserted`

const SUMS = `count(*)::int AS count, sum(gross)::text AS gross, sum(net)::text AS net,
  sum(merchant_commission)::text AS commission, sum(total_refunded_amount)::text AS refunded`

/** The filters the day's kept sums are grouped by: any mix of them is answered from the kept groups. */
const GROUPED_FILTERS = { currency_id: "currency_id", payment_type_id: "payment_type_id", transaction_state_id: "transaction_state_id" } as const
const KEPT_SUMS = `currency_code text, currency_id int, payment_type_id int, transaction_state_id int, count int, gross numeric, net numeric, commission numeric, refunded numeric`
const KEPT_GROUP = `g(${KEPT_SUMS})`
const KEPT_BUCKET = `b(lo numeric, hi numeric, ${KEPT_SUMS})`
/** About how many amount ranges a day's kept sums are cut into (refreshDayTotals). */
const AMOUNT_RANGES = 50

/** Past this offset a page is read from the other end of the order (an offset walks every row it skips). */
const FAR_OFFSET = 5000

function summaryOf(rows: any[]): { count: number; totals: LedgerTotal[] } {
  const totals = rows.map((row) => ({
    currency_code: row.currency_code,
    count: Number(row.count),
    gross: Number(row.gross).toFixed(2),
    net: Number(row.net).toFixed(2),
    commission: Number(row.commission).toFixed(2),
    refunded: Number(row.refunded).toFixed(2),
  }))
  return { count: totals.reduce((sum, total) => sum + total.count, 0), totals }
}

/** The conditions of the grouped filters set, on kept groups or ranges named `alias`. */
function groupConditions(filters: LedgerFilters, alias: string): { conditions: string[]; bindings: unknown[] } {
  const conditions: string[] = []
  const bindings: unknown[] = []
  for (const [name, column] of Object.entries(GROUPED_FILTERS)) {
    const value = filters[name as keyof typeof GROUPED_FILTERS]
    if (!isSet(value)) continue
    conditions.push(`${alias}.${column} = ?`)
    bindings.push(value)
  }
  return { conditions, bindings }
}

function isSet(value: unknown): boolean {
  return value !== undefined && value !== null && value !== ""
}

/**
 * Where a page of `limit` rows at `offset` in an order of `count` rows lies when read from the
 * other end: that offset and limit, the rows then reversed. Null when reading forward is cheaper.
 */
export function fromTheOtherEnd(count: number, offset: number, limit: number): { offset: number; limit: number } | null {
  if (offset <= FAR_OFFSET || offset * 2 <= count || offset >= count) return null
  const end = Math.min(count, offset + limit)
  return { offset: count - end, limit: end - offset }
}

function rowsOf(result: any): any[] {
  return Array.isArray(result) ? result : result?.rows ?? []
}

function iso(value: unknown): string | null {
  return value === null || value === undefined ? null : new Date(value as string).toISOString()
}

/** Decimal text of a numeric column, as the gateway writes amounts ("149.9", "0"). */
function decimal(value: unknown): string {
  return String(Number(value ?? 0))
}

/**
 * Rows written since the last settle past which recording the day also vacuums the table: the pages
 * just written become all-visible (index-only scans serve the day at once) and the day gets its
 * statistics, instead of within autovacuum's next visit.
 */
const SETTLE_AFTER_ROWS = 1000

export class LedgerStore {
  private written = 0
  private serverVersion: number | undefined

  constructor(private readonly db: LedgerDatabase) {}

  /** Inserts new sales, updates those whose record changed, leaves the others untouched. */
  async upsert(rows: readonly LedgerRow[], syncedAt: Date): Promise<{ inserted: number; updated: number }> {
    if (!rows.length) return { inserted: 0, updated: 0 }
    // One row per sale id per statement (Postgres refuses to update a row twice in one upsert).
    const unique = new Map<string, LedgerRow>()
    for (const row of rows) unique.set(row.sale_id, row)
    const result = rowsOf(await this.db.raw(UPSERT_SQL, [syncedAt.toISOString(), JSON.stringify([...unique.values()])]))
    const inserted = result.filter((row) => row.inserted).length
    this.written += result.length
    return { inserted, updated: result.length - inserted }
  }

  async recordDay(day: string, status: { sale_count: number; synced_at: Date; duration_ms: number; error: string | null }): Promise<void> {
    await this.db.raw(
      `INSERT INTO sipay_ledger_day (id, day, sale_count, last_synced_at, last_duration_ms, last_error)
       VALUES ('slday_' || replace(gen_random_uuid()::text, '-', ''), ?, ?, ?::timestamptz, ?, ?)
       ON CONFLICT (day) WHERE deleted_at IS NULL DO UPDATE SET
         sale_count = CASE WHEN excluded.last_error IS NULL THEN excluded.sale_count ELSE sipay_ledger_day.sale_count END,
         last_synced_at = CASE WHEN excluded.last_error IS NULL THEN excluded.last_synced_at ELSE sipay_ledger_day.last_synced_at END,
         last_duration_ms = excluded.last_duration_ms, last_error = excluded.last_error, updated_at = now()`,
      [day, status.sale_count, status.error === null ? status.synced_at.toISOString() : null, status.duration_ms, status.error]
    )
    // Also after a failed pull: the batches written before the failure are in the ledger's rows.
    await this.refreshDayTotals(day)
    if (this.written >= SETTLE_AFTER_ROWS) await this.settle()
  }

  /**
   * VACUUM (ANALYZE) of the ledger's table after a bulk write. Skipped, for autovacuum to do later,
   * when another vacuum holds the table, when the database user may not (not the owner: a warning)
   * or cannot (inside a transaction).
   */
  async settle(): Promise<void> {
    this.written = 0
    try {
      this.serverVersion ??= Number(rowsOf(await this.db.raw("SHOW server_version_num"))[0]?.server_version_num ?? 0)
      // The records' TOAST table needs no visibility map for the page's reads.
      const options = ["SKIP_LOCKED", "ANALYZE", ...(this.serverVersion >= 140000 ? ["PROCESS_TOAST FALSE"] : [])]
      await this.db.raw(`VACUUM (${options.join(", ")}) sipay_ledger_sale`)
    } catch {
      // autovacuum (its thresholds lowered for this table) will visit it
    }
  }

  async days(days: readonly string[]): Promise<Map<string, LedgerDayStatus>> {
    if (!days.length) return new Map()
    const rows = rowsOf(
      await this.db.raw(
        `SELECT day, sale_count, last_synced_at, last_duration_ms, last_error FROM sipay_ledger_day WHERE deleted_at IS NULL AND day = ANY(?::text[])`,
        [`{${days.join(",")}}`]
      )
    )
    return new Map(
      rows.map((row) => [row.day, { day: row.day, sale_count: Number(row.sale_count), last_synced_at: iso(row.last_synced_at), last_duration_ms: row.last_duration_ms, last_error: row.last_error }])
    )
  }

  private where(filters: LedgerFilters): { sql: string; bindings: unknown[] } {
    const parts = ["deleted_at IS NULL", "day = ?"]
    const bindings: unknown[] = [filters.day]
    const add = (sql: string, value: unknown) => {
      if (value === undefined || value === null || value === "") return
      parts.push(sql)
      bindings.push(value)
    }
    add("invoice_id = ?", filters.invoice_id)
    add("currency_id = ?", filters.currency_id)
    add("payment_type_id = ?", filters.payment_type_id)
    add("gross >= ?::numeric", filters.min_amount)
    add("gross <= ?::numeric", filters.max_amount)
    add("transaction_state_id = ?", filters.transaction_state_id)
    return { sql: parts.join(" AND "), bindings }
  }

  /**
   * One page of a day's sales (records as the gateway gave them), sorted by the database. The sort
   * and the offset run over the narrow key columns only (an index per sort, id as tie-breaker); the
   * records, kept out of line, are read for the page's rows alone. With the matching count known, a
   * far page is read from the other end of the order.
   */
  async page(filters: LedgerFilters, options: { sort: LedgerSort; direction: "asc" | "desc"; limit: number; offset: number; count?: number }): Promise<any[]> {
    const reversed = options.count === undefined ? null : fromTheOtherEnd(options.count, options.offset, options.limit)
    const descending = (options.direction === "desc") !== (reversed !== null)
    const direction = descending ? "DESC" : "ASC"
    const where = this.where(filters)
    const column = SORT_COLUMNS[options.sort]
    const rows = rowsOf(
      await this.db.raw(
        `SELECT s.record FROM (
           SELECT id, ${column} AS sort_key FROM sipay_ledger_sale WHERE ${where.sql} ORDER BY ${column} ${direction}, id ${direction} LIMIT ? OFFSET ?
         ) p JOIN sipay_ledger_sale s ON s.id = p.id
         ORDER BY p.sort_key ${direction}, p.id ${direction}`,
        [...where.bindings, reversed?.limit ?? options.limit, reversed?.offset ?? options.offset]
      )
    ).map((row) => row.record)
    return reversed ? rows.reverse() : rows
  }

  /** A page and the matching count and sums, as the Sales page shows them. */
  async view(filters: LedgerFilters, options: { sort: LedgerSort; direction: "asc" | "desc"; limit: number; offset: number }) {
    if (options.offset <= FAR_OFFSET) {
      const [records, summary] = await Promise.all([this.page(filters, options), this.summary(filters)])
      return { records, ...summary }
    }
    const summary = await this.summary(filters)
    return { records: await this.page(filters, { ...options, count: summary.count }), ...summary }
  }

  /**
   * How many sales match, and their sums per currency (not only the page's). Without filters, or with
   * only currency, payment type and state, it is answered from the sums kept per group at the day's
   * last write (no scan of a busy day). An amount filter adds up the kept amount ranges it holds whole
   * and sums only the rows between its bounds and those ranges; an invoice filter sums its rows. Kept
   * sums are those of the day's last recording: while a sync of the day runs, they lag its rows.
   */
  async summary(filters: LedgerFilters): Promise<{ count: number; totals: LedgerTotal[] }> {
    const other = Object.entries(filters).some(([name, value]) => name !== "day" && !(name in GROUPED_FILTERS) && isSet(value))
    if (!other) {
      const { conditions, bindings } = groupConditions(filters, "g")
      const rows = rowsOf(
        await this.db.raw(
          `SELECT d.kept, t.currency_code, t.count, t.gross, t.net, t.commission, t.refunded
           FROM (SELECT count(*) > 0 AS kept FROM sipay_ledger_day WHERE deleted_at IS NULL AND day = ? AND totals -> 'groups' IS NOT NULL) d
           LEFT JOIN LATERAL (
             SELECT g.currency_code, sum(g.count)::int AS count, sum(g.gross)::text AS gross, sum(g.net)::text AS net,
               sum(g.commission)::text AS commission, sum(g.refunded)::text AS refunded
             FROM sipay_ledger_day x CROSS JOIN LATERAL jsonb_to_recordset(x.totals -> 'groups') AS ${KEPT_GROUP}
             WHERE x.deleted_at IS NULL AND x.day = ?${conditions.map((condition) => ` AND ${condition}`).join("")}
             GROUP BY g.currency_code
           ) t ON true
           ORDER BY t.currency_code`,
          [filters.day, filters.day, ...bindings]
        )
      )
      if (rows[0]?.kept) return summaryOf(rows.filter((row) => row.currency_code !== null))
    }
    const where = this.where(filters)
    if (!isSet(filters.invoice_id) && (isSet(filters.min_amount) || isSet(filters.max_amount))) {
      const kept = await this.keptAmountRanges(filters)
      if (kept) {
        // The rows inside [low, high] are the whole ranges' (a range never splits an amount): only the
        // rows between a bound and the first whole range are read.
        const part = (bound: string) =>
          `SELECT currency_code, count(*) AS count, sum(gross) AS gross, sum(net) AS net, sum(merchant_commission) AS commission,
             sum(total_refunded_amount) AS refunded FROM sipay_ledger_sale WHERE ${where.sql} AND ${bound} GROUP BY currency_code`
        return summaryOf(
          rowsOf(
            await this.db.raw(
              `SELECT currency_code, sum(count)::int AS count, sum(gross)::text AS gross, sum(net)::text AS net,
                 sum(commission)::text AS commission, sum(refunded)::text AS refunded
               FROM (${part("gross < ?::numeric")} UNION ALL ${part("gross > ?::numeric")}
                 UNION ALL SELECT k.* FROM jsonb_to_recordset(?::jsonb) AS k(currency_code text, count bigint, gross numeric, net numeric, commission numeric, refunded numeric)) u
               GROUP BY currency_code ORDER BY currency_code`,
              [...where.bindings, kept.low, ...where.bindings, kept.high, JSON.stringify(kept.sums)]
            )
          )
        )
      }
    }
    return summaryOf(rowsOf(await this.db.raw(`SELECT currency_code, ${SUMS} FROM sipay_ledger_sale WHERE ${where.sql} GROUP BY currency_code ORDER BY currency_code`, where.bindings)))
  }

  /**
   * The kept amount ranges wholly inside an amount filter: their lowest and highest amount and their
   * sums per currency (the other filters applied). Null when the day has no kept ranges or none fits.
   */
  private async keptAmountRanges(filters: LedgerFilters): Promise<{ low: string; high: string; sums: unknown[] } | null> {
    const inside: string[] = []
    const bindings: unknown[] = [filters.day]
    if (isSet(filters.min_amount)) {
      inside.push("b.lo >= ?::numeric")
      bindings.push(filters.min_amount)
    }
    if (isSet(filters.max_amount)) {
      inside.push("b.hi <= ?::numeric")
      bindings.push(filters.max_amount)
    }
    const { conditions: groups, bindings: groupBindings } = groupConditions(filters, "b")
    bindings.push(...groupBindings)
    const rows = rowsOf(
      await this.db.raw(
        `WITH inside AS (
           SELECT b.* FROM sipay_ledger_day x CROSS JOIN LATERAL jsonb_to_recordset(x.amount_buckets) AS ${KEPT_BUCKET}
           WHERE x.deleted_at IS NULL AND x.day = ? AND ${inside.join(" AND ")}
         )
         SELECT (SELECT min(lo)::text FROM inside) AS low, (SELECT max(hi)::text FROM inside) AS high, coalesce((
           SELECT jsonb_agg(t) FROM (
             SELECT b.currency_code, sum(b.count) AS count, sum(b.gross) AS gross, sum(b.net) AS net, sum(b.commission) AS commission, sum(b.refunded) AS refunded
             FROM inside b${groups.length ? ` WHERE ${groups.join(" AND ")}` : ""} GROUP BY b.currency_code
           ) t), '[]'::jsonb) AS sums`,
        bindings
      )
    )
    const row = rows[0]
    return row?.low === null || row?.low === undefined ? null : { low: row.low, high: row.high, sums: row.sums }
  }

  /**
   * Recomputes the day's kept sums (after anything wrote its sales), in one statement: per amount
   * range, currency, payment type and state, and from those the sums per group. The ranges follow the day's amounts in
   * order, a new one starting every 1/AMOUNT_RANGES of the day's sales, at an amount held by that many
   * sales or more (it has a range of its own) and after one; a range never splits one amount.
   */
  async refreshDayTotals(day: string): Promise<void> {
    await this.db.raw(
      `WITH amounts AS (
         SELECT gross, count(*) AS n FROM sipay_ledger_sale WHERE deleted_at IS NULL AND day = ? GROUP BY gross
       ), walked AS (
         SELECT gross, n, sum(n) OVER w - n AS before, lag(n) OVER w AS previous,
           greatest(ceil(sum(n) OVER () / ${AMOUNT_RANGES}.0), 1) AS size
         FROM amounts WINDOW w AS (ORDER BY gross)
       ), ranged AS (
         SELECT gross, sum((previous IS NULL OR n >= size OR previous >= size
           OR floor(before / size) <> floor((before - previous) / size))::int) OVER (ORDER BY gross) AS range
         FROM walked
       ), bounds AS (
         SELECT gross AS amount, min(gross) OVER (PARTITION BY range) AS lo, max(gross) OVER (PARTITION BY range) AS hi FROM ranged
       ), buckets AS (
         SELECT b.lo, b.hi, s.currency_code, s.currency_id, s.payment_type_id, s.transaction_state_id, ${SUMS}
         FROM sipay_ledger_sale s JOIN bounds b ON b.amount = s.gross
         WHERE s.deleted_at IS NULL AND s.day = ?
         GROUP BY b.lo, b.hi, s.currency_code, s.currency_id, s.payment_type_id, s.transaction_state_id
       )
       UPDATE sipay_ledger_day SET totals = jsonb_build_object('groups', (
         SELECT coalesce(jsonb_agg(to_jsonb(t) ORDER BY t.currency_code, t.currency_id, t.payment_type_id, t.transaction_state_id), '[]'::jsonb)
         FROM (SELECT currency_code, currency_id, payment_type_id, transaction_state_id, sum(count)::int AS count,
                 sum(gross::numeric)::text AS gross, sum(net::numeric)::text AS net,
                 sum(commission::numeric)::text AS commission, sum(refunded::numeric)::text AS refunded
               FROM buckets GROUP BY currency_code, currency_id, payment_type_id, transaction_state_id) t
       )), amount_buckets = (
         SELECT coalesce(jsonb_agg(to_jsonb(b) ORDER BY b.lo, b.currency_code, b.currency_id, b.payment_type_id, b.transaction_state_id), '[]'::jsonb) FROM buckets b
       ), updated_at = now()
       WHERE deleted_at IS NULL AND day = ?`,
      [day, day, day]
    )
  }

  /**
   * Every matching sale, oldest first, in batches read by key (never an OFFSET scan, never the whole
   * day at once): for the CSV export.
   */
  async *batches(filters: LedgerFilters, size = 2000): AsyncGenerator<any[]> {
    const where = this.where(filters)
    let after: { at: string; id: string } | null = null
    for (;;) {
      const keyset: { sql: string; bindings: unknown[] } = after
        ? { sql: " AND (sale_created_at, id) > (?::timestamptz, ?)", bindings: [after.at, after.id] }
        : { sql: "", bindings: [] }
      const rows = rowsOf(
        await this.db.raw(
          `SELECT id, sale_created_at, record FROM sipay_ledger_sale WHERE ${where.sql}${keyset.sql} ORDER BY sale_created_at ASC, id ASC LIMIT ?`,
          [...where.bindings, ...keyset.bindings, size]
        )
      )
      if (!rows.length) return
      yield rows.map((row) => row.record)
      const last = rows[rows.length - 1]
      after = { at: new Date(last.sale_created_at).toISOString(), id: last.id }
      if (rows.length < size) return
    }
  }

  /** Sales of these invoice ids (newest first), for an order's view. */
  async byInvoices(invoiceIds: readonly string[]): Promise<{ record: any; synced_at: string; day: string }[]> {
    if (!invoiceIds.length) return []
    const rows = rowsOf(
      await this.db.raw(
        `SELECT record, synced_at, day FROM sipay_ledger_sale WHERE deleted_at IS NULL AND invoice_id = ANY(?::text[]) ORDER BY sale_created_at DESC`,
        [`{${invoiceIds.map((id) => JSON.stringify(id)).join(",")}}`]
      )
    )
    return rows.map((row) => ({ record: row.record, synced_at: iso(row.synced_at)!, day: row.day }))
  }

  /** Paid sales through a payment link (dpl id), as the ledger has them. */
  async linkSales(dplId: number): Promise<{ invoice_id: string; transaction_state_id: number; sale_created_at: string }[]> {
    const rows = rowsOf(
      await this.db.raw(
        `SELECT invoice_id, transaction_state_id, sale_created_at FROM sipay_ledger_sale WHERE deleted_at IS NULL AND dpl_id = ? ORDER BY sale_created_at ASC`,
        [dplId]
      )
    )
    return rows.map((row) => ({ invoice_id: row.invoice_id, transaction_state_id: Number(row.transaction_state_id), sale_created_at: iso(row.sale_created_at)! }))
  }

  /** Sales of the days with a refund or a chargeback whose state the plugin has not acted on yet. */
  async actionCandidates(days: readonly string[]): Promise<ActionCandidate[]> {
    if (!days.length) return []
    const rows = rowsOf(
      await this.db.raw(
        `SELECT sale_id, invoice_id, gateway_order_id, dpl_id, transaction_state_id, total_refunded_amount, gross, currency_code, acted_on
         FROM sipay_ledger_sale
         WHERE deleted_at IS NULL AND day = ANY(?::text[]) AND (total_refunded_amount > 0 OR transaction_state_id = 11)`,
        [`{${days.join(",")}}`]
      )
    )
    return rows.map((row) => ({
      sale_id: row.sale_id,
      invoice_id: row.invoice_id,
      gateway_order_id: row.gateway_order_id ?? null,
      dpl_id: row.dpl_id === null || row.dpl_id === undefined ? null : Number(row.dpl_id),
      transaction_state_id: Number(row.transaction_state_id),
      total_refunded_amount: decimal(row.total_refunded_amount),
      gross: decimal(row.gross),
      currency_code: row.currency_code,
      acted_on: row.acted_on,
    }))
  }

  async markActedOn(saleId: string, signature: string): Promise<void> {
    await this.db.raw(`UPDATE sipay_ledger_sale SET acted_on = ?, updated_at = now() WHERE sale_id = ? AND deleted_at IS NULL`, [signature, saleId])
  }
}
