import { hkdfSync } from "node:crypto"
import { Limiter, MemoryLimiterStore, resolveRateLimits, windowOf, type LimiterStore } from "../limiter"
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
    const db = this.database()
    if (!db) {
      throw new Error("no database for the shared rate limits")
    }
    return db
  }
}

function rowKey(key: string, windowMs: number): string {
  return `${windowMs}:${key}`
}

/**
 * The plugin's limiter with the store its options choose (`rateLimitStore`: "memory", the default, or
 * "postgres" for a cluster). Card fingerprints are keyed from the app secret when counted in PostgreSQL,
 * so every instance counts the same card under the same key (still useless without the secret).
 */
export function limiterFor(options: SipayOptions, database: DatabaseSource): Limiter {
  const limits = resolveRateLimits(options.rateLimits)
  if ((options.rateLimitStore ?? "memory") !== "postgres") {
    return new Limiter(limits, new MemoryLimiterStore())
  }
  const fingerprintKey = Buffer.from(hkdfSync("sha256", options.appSecret, "sipay-rate-limit", "medusa-plugin-sipay card fingerprint v1", 32))
  return new Limiter(limits, new PostgresLimiterStore(database), fingerprintKey)
}
