/**
 * The payment attempts each client started, for the per-address limits: an entry per attempt, bound
 * to its invoice once the attempt exists, read back with the attempt's current status from the
 * plugin's attempt records. Nothing has to report an attempt's end: a decline, a cancel, a paid
 * webhook hours later or the reconciliation job all show in the status the next time it is read.
 */
export type LoggedAttempt = {
  entryId: string
  startedMs: number
  /** Null until the attempt is started (its invoice id exists). */
  invoiceId: string | null
  /** The attempt's status in the plugin's records (pending, paid, failed, ...); null when unbound or not found. */
  status: string | null
  /** Its route saw it end unpaid (a direct payment the gateway refused) while its record may still say pending. */
  endedUnpaid: boolean
}

export interface AttemptLog {
  add(key: string, entryId: string, startedMs: number): Promise<void>
  bind(entryId: string, invoiceId: string): Promise<void>
  markEndedUnpaid(entryId: string): Promise<void>
  forget(entryIds: readonly string[]): Promise<void>
  /** The key's entries started at or after `sinceMs`, each with its attempt's status. */
  list(key: string, sinceMs: number): Promise<LoggedAttempt[]>
}

/** The statuses of the given invoices (those found). */
export type AttemptStatusReader = (invoiceIds: readonly string[]) => Promise<Map<string, string>>

/**
 * In process (the default store): entries in a Map bounded to `maxEntries` (past it the oldest keys
 * are dropped, so a flood of distinct addresses only forgets, never grows the process); statuses read
 * from the plugin's records.
 */
export class MemoryAttemptLog implements AttemptLog {
  private readonly byKey = new Map<string, Map<string, { startedMs: number; invoiceId: string | null; endedUnpaid: boolean }>>()
  private readonly keyOf = new Map<string, string>()

  constructor(
    private readonly statuses: AttemptStatusReader,
    private readonly maxEntries = 100_000
  ) {}

  get size(): number {
    return this.keyOf.size
  }

  async add(key: string, entryId: string, startedMs: number): Promise<void> {
    let entries = this.byKey.get(key)
    if (!entries) {
      entries = new Map()
      this.byKey.set(key, entries)
    }
    entries.set(entryId, { startedMs, invoiceId: null, endedUnpaid: false })
    this.keyOf.set(entryId, key)
    for (const [oldest, old] of this.byKey) {
      if (this.keyOf.size <= this.maxEntries || oldest === key) break
      for (const id of old.keys()) this.keyOf.delete(id)
      this.byKey.delete(oldest)
    }
  }

  async bind(entryId: string, invoiceId: string): Promise<void> {
    const entry = this.entry(entryId)
    if (entry) entry.invoiceId = invoiceId
  }

  async markEndedUnpaid(entryId: string): Promise<void> {
    const entry = this.entry(entryId)
    if (entry) entry.endedUnpaid = true
  }

  private entry(entryId: string) {
    const key = this.keyOf.get(entryId)
    return key ? this.byKey.get(key)?.get(entryId) : undefined
  }

  async forget(entryIds: readonly string[]): Promise<void> {
    for (const id of entryIds) {
      const key = this.keyOf.get(id)
      this.keyOf.delete(id)
      const entries = key ? this.byKey.get(key) : undefined
      entries?.delete(id)
      if (key && entries && !entries.size) this.byKey.delete(key)
    }
  }

  async list(key: string, sinceMs: number): Promise<LoggedAttempt[]> {
    const entries = this.byKey.get(key)
    if (!entries) return []
    const ended = [...entries].filter(([, entry]) => entry.startedMs < sinceMs).map(([id]) => id)
    await this.forget(ended)
    const live = [...entries]
    const invoiceIds = live.map(([, entry]) => entry.invoiceId).filter((id): id is string => Boolean(id))
    const statuses = invoiceIds.length ? await this.statuses(invoiceIds) : new Map<string, string>()
    return live.map(([entryId, entry]) => ({ entryId, ...entry, status: entry.invoiceId ? statuses.get(entry.invoiceId) ?? null : null }))
  }
}
