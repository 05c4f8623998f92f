/**
 * A lock that holds across every process sharing the store's PostgreSQL (server instances, the
 * worker, the payment module's provider): a transaction-scoped advisory lock on a hash of the key.
 * Reachable from any container through PG_CONNECTION (a Knex instance), unlike Medusa's locking
 * module, which the isolated payment module cannot resolve.
 */
export type AdvisoryLockDatabase = {
  transaction<T>(run: (trx: { raw(sql: string, bindings?: readonly unknown[]): Promise<unknown> }) => Promise<T>): Promise<T>
}

export class AdvisoryLockTimeout extends Error {
  constructor(readonly key: string, timeoutMs: number) {
    super(`Timed out after ${timeoutMs} ms waiting for the lock "${key}"`)
    this.name = "AdvisoryLockTimeout"
  }
}

const LOCK_NOT_AVAILABLE = "55P03"

/**
 * Runs `work` while holding the lock named `key`; waits at most `timeoutMs` for it (then throws
 * AdvisoryLockTimeout). The lock is released when `work` settles, or when the holder's connection
 * dies (a killed process never leaves it held).
 */
export async function withAdvisoryLock<T>(db: AdvisoryLockDatabase, key: string, work: () => Promise<T>, options: { timeoutMs?: number } = {}): Promise<T> {
  const timeoutMs = Math.max(1, Math.floor(options.timeoutMs ?? 30000))
  return db.transaction(async (trx) => {
    await trx.raw(`SET LOCAL lock_timeout = '${timeoutMs}ms'`)
    try {
      await trx.raw("SELECT pg_advisory_xact_lock(hashtextextended(?, 0))", [key])
    } catch (error) {
      if ((error as { code?: string }).code === LOCK_NOT_AVAILABLE) {
        throw new AdvisoryLockTimeout(key, timeoutMs)
      }
      throw error
    }
    return work()
  })
}

/** Runs `work` only if nobody holds `key` now; answers `{ ran: false }` at once otherwise. */
export async function tryWithAdvisoryLock<T>(db: AdvisoryLockDatabase, key: string, work: () => Promise<T>): Promise<{ ran: true; value: T } | { ran: false }> {
  return db.transaction(async (trx) => {
    const answer = (await trx.raw("SELECT pg_try_advisory_xact_lock(hashtextextended(?, 0)) AS locked", [key])) as { rows: Array<{ locked: boolean }> }
    if (!answer.rows[0]?.locked) {
      return { ran: false as const }
    }
    return { ran: true as const, value: await work() }
  })
}
