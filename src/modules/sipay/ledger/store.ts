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

const TOTALS_COLUMNS = `currency_code, count(*)::int AS count, sum(gross)::text AS gross, sum(net)::text AS net,
  sum(merchant_commission)::text AS commission, sum(total_refunded_amount)::text AS refunded`

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

export class LedgerStore {
  constructor(private readonly db: LedgerDatabase) {}

  /** Inserts new sales, updates those whose record changed, leaves the others untouched. */
  async upsert(rows: readonly LedgerRow[], syncedAt: Date): Promise<{ inserted: number; updated: number }> {
    if (!rows.length) return { inserted: 0, updated: 0 }
    // One row per sale id per statement (Postgres refuses to update a row twice in one upsert).
    const unique = new Map<string, LedgerRow>()
    for (const row of rows) unique.set(row.sale_id, row)
    const result = rowsOf(await this.db.raw(UPSERT_SQL, [syncedAt.toISOString(), JSON.stringify([...unique.values()])]))
    const inserted = result.filter((row) => row.inserted).length
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
    if (status.error === null) await this.refreshDayTotals(day)
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

  /** One page of a day's sales (records as the gateway gave them), sorted by the database (an index for the default order). */
  async page(filters: LedgerFilters, options: { sort: LedgerSort; direction: "asc" | "desc"; limit: number; offset: number }): Promise<any[]> {
    const where = this.where(filters)
    const column = SORT_COLUMNS[options.sort]
    const direction = options.direction === "asc" ? "ASC" : "DESC"
    const page = await this.db.raw(
      `SELECT record FROM sipay_ledger_sale WHERE ${where.sql} ORDER BY ${column} ${direction}, id ${direction} LIMIT ? OFFSET ?`,
      [...where.bindings, options.limit, options.offset]
    )
    return rowsOf(page).map((row) => row.record)
  }

  /**
   * How many sales match, and their sums per currency (not only the page's). A day without other
   * filters is answered from the sums kept at its last sync (no scan of a busy day); filters sum in the database.
   */
  async summary(filters: LedgerFilters): Promise<{ count: number; totals: LedgerTotal[] }> {
    const unfiltered = Object.entries(filters).every(([name, value]) => name === "day" || value === undefined || value === null || value === "")
    if (unfiltered) {
      const kept = rowsOf(await this.db.raw(`SELECT totals FROM sipay_ledger_day WHERE deleted_at IS NULL AND day = ?`, [filters.day]))[0]?.totals
      if (Array.isArray(kept)) return summaryOf(kept)
    }
    const where = this.where(filters)
    return summaryOf(rowsOf(await this.db.raw(`SELECT ${TOTALS_COLUMNS} FROM sipay_ledger_sale WHERE ${where.sql} GROUP BY currency_code ORDER BY currency_code`, where.bindings)))
  }

  /** Recomputes the day's kept sums (after anything wrote its sales). */
  async refreshDayTotals(day: string): Promise<void> {
    await this.db.raw(
      `UPDATE sipay_ledger_day SET totals = (
         SELECT coalesce(jsonb_agg(to_jsonb(t) ORDER BY t.currency_code), '[]'::jsonb)
         FROM (SELECT ${TOTALS_COLUMNS} FROM sipay_ledger_sale WHERE deleted_at IS NULL AND day = ? GROUP BY currency_code) t
       ), updated_at = now()
       WHERE deleted_at IS NULL AND day = ?`,
      [day, day]
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
        `SELECT sale_id, invoice_id, transaction_state_id, total_refunded_amount, gross, currency_code, acted_on
         FROM sipay_ledger_sale
         WHERE deleted_at IS NULL AND day = ANY(?::text[]) AND (total_refunded_amount > 0 OR transaction_state_id = 11)`,
        [`{${days.join(",")}}`]
      )
    )
    return rows.map((row) => ({
      sale_id: row.sale_id,
      invoice_id: row.invoice_id,
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
