import { hkdfSync } from "node:crypto"
import { Limiter, MemoryAttemptLog, MemoryLimiterStore, resolveRateLimits, windowOf, type AttemptLog, type AttemptStatusReader, type LimiterStore, type LoggedAttempt } from "../limiter"
import type { SipayOptions } from "../options"
import { rowsOf, type DatabaseSource } from "./database"

export type RateLimitStoreKind = "memory" | "postgres"

/** Ended windows are deleted at most this often per process. */
const SWEEP_EVERY_MS = 60_000

/**
 * Fixed windows counted in the store's PostgreSQL, so every instance of a cluster counts against the
 * same limits: one row per (window length, key), incremented atomically by an upsert. A window that has
 * ended is restarted in place; a hit whose clock lags behind counts in the newer window.
 */
export class PostgresLimiterStore implements LimiterStore {
  private lastSweepMs = 0

  constructor(private readonly database: DatabaseSource) {}

  async hit(key: string, windowMs: number, nowMs: number): Promise<{ count: number; resetAtMs: number }> {
    const { startMs } = windowOf(windowMs, nowMs)
    const answer = await this.db().raw(
      `insert into "sipay_rate_limit" as r ("key", "window_start_ms", "window_ms", "count") values (?, ?, ?, 1)
       on conflict ("key") do update set
         "count" = case when r."window_start_ms" >= excluded."window_start_ms" then r."count" + 1 else 1 end,
         "window_start_ms" = greatest(r."window_start_ms", excluded."window_start_ms")
       returning "count", "window_start_ms"`,
      [rowKey(key, windowMs), startMs, windowMs]
    )
    const [row] = rowsOf<{ count: number; window_start_ms: string }>(answer)
    this.sweep(nowMs)
    return { count: Number(row.count), resetAtMs: Number(row.window_start_ms) + windowMs }
  }

  async peek(key: string, windowMs: number, nowMs: number): Promise<{ count: number; resetAtMs: number }> {
    const { startMs, resetAtMs } = windowOf(windowMs, nowMs)
    const answer = await this.db().raw(`select "count", "window_start_ms" from "sipay_rate_limit" where "key" = ?`, [rowKey(key, windowMs)])
    const [row] = rowsOf<{ count: number; window_start_ms: string }>(answer)
    return row && Number(row.window_start_ms) >= startMs ? { count: Number(row.count), resetAtMs: Number(row.window_start_ms) + windowMs } : { count: 0, resetAtMs }
  }

  async claim(key: string, intervalMs: number, nowMs: number): Promise<boolean> {
    // One row per key: taken again only once the last take is intervalMs old (window_start_ms is that take).
    const answer = await this.db().raw(
      `insert into "sipay_rate_limit" as r ("key", "window_start_ms", "window_ms", "count") values (?, ?, ?, 1)
       on conflict ("key") do update set "window_start_ms" = excluded."window_start_ms", "window_ms" = excluded."window_ms", "count" = 1
         where r."window_start_ms" + r."window_ms" <= excluded."window_start_ms"
       returning "count"`,
      [`claim:${key}`, nowMs, intervalMs]
    )
    this.sweep(nowMs)
    return rowsOf(answer).length === 1
  }

  /** Deletes counters whose window ended (a flood of distinct addresses leaves no lasting rows). */
  private sweep(nowMs: number): void {
    if (nowMs - this.lastSweepMs < SWEEP_EVERY_MS) {
      return
    }
    this.lastSweepMs = nowMs
    this.db()
      .raw(`delete from "sipay_rate_limit" where "window_start_ms" + "window_ms" < ?`, [nowMs])
      .catch(() => undefined)
  }

  private db() {
    return required(this.database)
  }
}

function rowKey(key: string, windowMs: number): string {
  return `${windowMs}:${key}`
}

function required(database: DatabaseSource) {
  const db = database()
  if (!db) {
    throw new Error("no database for the shared rate limits")
  }
  return db
}

/** The statuses of the plugin's payment attempts, read from its records (one query). */
export function attemptStatusesIn(database: DatabaseSource): AttemptStatusReader {
  return async (invoiceIds) => {
    const db = database()
    if (!db || !invoiceIds.length) {
      return new Map()
    }
    const answer = await db.raw(`select "invoice_id", "status" from "sipay_payment_attempt" where "invoice_id" = any(?) and "deleted_at" is null`, [[...invoiceIds]])
    return new Map(rowsOf<{ invoice_id: string; status: string }>(answer).map((row) => [row.invoice_id, row.status]))
  }
}

/**
 * The attempt log in the store's PostgreSQL, shared by every instance: one row per admitted attempt,
 * read back joined with the attempt's record (its status) in one query.
 */
export class PostgresAttemptLog implements AttemptLog {
  private lastSweepMs = 0

  constructor(private readonly database: DatabaseSource) {}

  async add(key: string, entryId: string, startedMs: number): Promise<void> {
    await required(this.database).raw(`insert into "sipay_rate_limit_attempt" ("entry_id", "key", "started_ms") values (?, ?, ?)`, [entryId, key, startedMs])
  }

  async bind(entryId: string, invoiceId: string): Promise<void> {
    await required(this.database).raw(`update "sipay_rate_limit_attempt" set "invoice_id" = ? where "entry_id" = ?`, [invoiceId, entryId])
  }

  async markEndedUnpaid(entryId: string): Promise<void> {
    await required(this.database).raw(`update "sipay_rate_limit_attempt" set "ended_unpaid" = true where "entry_id" = ?`, [entryId])
  }

  async forget(entryIds: readonly string[]): Promise<void> {
    if (entryIds.length) {
      await required(this.database).raw(`delete from "sipay_rate_limit_attempt" where "entry_id" = any(?)`, [[...entryIds]])
    }
  }

  async list(key: string, sinceMs: number): Promise<LoggedAttempt[]> {
    const answer = await required(this.database).raw(
      `select l."entry_id", l."started_ms", l."invoice_id", l."ended_unpaid", a."status" from "sipay_rate_limit_attempt" l
       left join "sipay_payment_attempt" a on a."invoice_id" = l."invoice_id" and a."deleted_at" is null
       where l."key" = ? and l."started_ms" >= ?`,
      [key, sinceMs]
    )
    this.sweep(sinceMs)
    return rowsOf<{ entry_id: string; started_ms: string; invoice_id: string | null; ended_unpaid: boolean; status: string | null }>(answer).map((row) => ({
      entryId: row.entry_id,
      startedMs: Number(row.started_ms),
      invoiceId: row.invoice_id,
      status: row.status,
      endedUnpaid: Boolean(row.ended_unpaid),
    }))
  }

  /** Deletes entries older than every window (a flood of distinct addresses leaves no lasting rows). */
  private sweep(sinceMs: number): void {
    if (sinceMs - this.lastSweepMs < SWEEP_EVERY_MS) {
      return
    }
    this.lastSweepMs = sinceMs
    required(this.database)
      .raw(`delete from "sipay_rate_limit_attempt" where "started_ms" < ?`, [sinceMs])
      .catch(() => undefined)
  }
}

/**
 * The plugin's limiter with the store its options choose (`rateLimitStore`: "memory", the default, or
 * "postgres" for a cluster). Card fingerprints are keyed from the app secret when counted in PostgreSQL,
 * so every instance counts the same card under the same key (still useless without the secret). Either
 * way, attempts' outcomes are read from the plugin's records.
 */
export function limiterFor(options: SipayOptions, database: DatabaseSource): Limiter {
  const limits = resolveRateLimits(options.rateLimits)
  if ((options.rateLimitStore ?? "memory") !== "postgres") {
    return new Limiter(limits, new MemoryLimiterStore(), new MemoryAttemptLog(attemptStatusesIn(database)))
  }
  const fingerprintKey = Buffer.from(hkdfSync("sha256", options.appSecret, "sipay-rate-limit", "medusa-plugin-sipay card fingerprint v1", 32))
  return new Limiter(limits, new PostgresLimiterStore(database), new PostgresAttemptLog(database), fingerprintKey)
}
