import type { TokenInfo } from "./types"

/** Tokens live 2 hours; one is reused until 5 minutes before its expiry. */
const REFRESH_MARGIN_MS = 5 * 60_000
const DEFAULT_LIFETIME_MS = 2 * 3600_000
const ISTANBUL_OFFSET_HOURS = 3

/**
 * 'YYYY-MM-DD HH:MM:SS' in Europe/Istanbul time (UTC+3, no DST); 2 hours from now when it does not parse,
 * or when a freshly issued token would already be expired (a skewed clock; a rejected token is replaced anyway).
 */
export function parseExpiresAt(value: unknown, now: number = Date.now()): Date {
  const match = typeof value === "string" ? /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})$/.exec(value.trim()) : null
  if (match) {
    const [year, month, day, hour, minute, second] = match.slice(1).map(Number)
    const time = Date.UTC(year, month - 1, day, hour - ISTANBUL_OFFSET_HOURS, minute, second)
    const check = new Date(time + ISTANBUL_OFFSET_HOURS * 3600_000)
    if (!Number.isNaN(time) && check.getUTCDate() === day && check.getUTCMonth() === month - 1 && time > now) {
      return new Date(time)
    }
  }
  return new Date(now + DEFAULT_LIFETIME_MS)
}

/**
 * Where several processes share one token per credential set (a cluster): the token, its expiry and a
 * refresh lock, so one fetch per validity period serves every process. The store decides how the token
 * is kept (encrypted, say); the client only reads, writes and locks.
 */
export interface SharedTokenStore {
  /** The token every process shares, or null when none was stored (or it cannot be read). */
  read(): Promise<TokenInfo | null>
  /** Stores `token` until its expiry. */
  write(token: TokenInfo): Promise<void>
  /** Runs `refresh` while no other process refreshes the same credential set's token. */
  withRefreshLock<T>(refresh: () => Promise<T>): Promise<T>
}

/**
 * One cached token for a client. Concurrent callers share one in-flight request (single flight), and a
 * token rejected by the gateway is replaced once however many calls saw it rejected. With a shared
 * store, a process first takes the token another process stored, and fetches one under the store's
 * refresh lock only when none is usable, so a cluster makes one fetch per validity period.
 */
export class TokenCache {
  private current: TokenInfo | null = null
  private inFlight: Promise<TokenInfo> | null = null
  private generation = 0
  /** After invalidate(): the next fetch goes to the gateway, whatever the shared store holds. */
  private bypassStore = false

  constructor(
    private readonly fetchToken: () => Promise<TokenInfo>,
    private readonly now: () => number = Date.now,
    private readonly store?: SharedTokenStore
  ) {}

  /** The token in use (for masking in logs), or null. */
  get latestToken(): string | null {
    return this.current?.token ?? null
  }

  /** The cached token while it has more than 5 minutes left, else a new one. */
  get(): Promise<TokenInfo> {
    if (this.usable(this.current)) {
      return Promise.resolve(this.current as TokenInfo)
    }
    return this.fetchShared(null)
  }

  /** A token other than `rejected`: the one another caller already fetched, or a new one. */
  replace(rejected: string): Promise<TokenInfo> {
    if (this.current && this.current.token !== rejected) {
      return this.get()
    }
    if (this.current?.token === rejected) {
      this.current = null
    }
    return this.fetchShared(rejected)
  }

  invalidate(): void {
    this.current = null
    // A request already under way must not repopulate the cache after an invalidation.
    this.generation += 1
    this.inFlight = null
    this.bypassStore = true
  }

  private usable(token: TokenInfo | null): token is TokenInfo {
    return token !== null && token.expiresAt.getTime() - REFRESH_MARGIN_MS > this.now()
  }

  private fetchShared(rejected: string | null): Promise<TokenInfo> {
    if (this.inFlight) {
      return this.inFlight
    }
    const generation = this.generation
    const bypassStore = this.bypassStore
    this.bypassStore = false
    const request = this.obtain(rejected, bypassStore).then(
      (token) => {
        if (generation === this.generation) {
          this.current = token
          this.inFlight = null
        }
        return token
      },
      (error: unknown) => {
        if (generation === this.generation) {
          this.inFlight = null
        }
        throw error
      }
    )
    this.inFlight = request
    return request
  }

  /** From the shared store when it holds a usable token other than `rejected`, else from the gateway. */
  private async obtain(rejected: string | null, bypassStore: boolean): Promise<TokenInfo> {
    const store = this.store
    if (!store) {
      return this.fetchToken()
    }
    const shared = (): Promise<TokenInfo | null> =>
      store.read().then(
        (token) => (this.usable(token) && token.token !== rejected ? token : null),
        () => null
      )
    if (!bypassStore) {
      const stored = await shared()
      if (stored) {
        return stored
      }
    }
    const fetchAndShare = async (): Promise<TokenInfo> => {
      const fresh = await this.fetchToken()
      // A store that cannot be written costs other processes a fetch of their own, nothing more.
      await store.write(fresh).catch(() => undefined)
      return fresh
    }
    let fetchFailure: { error: unknown } | null = null
    const locked = await store
      .withRefreshLock(async () => {
        const stored = bypassStore ? null : await shared()
        return stored ?? fetchAndShare().catch((error: unknown) => {
          fetchFailure = { error }
          throw error
        })
      })
      .catch(() => null)
    if (fetchFailure) {
      throw (fetchFailure as { error: unknown }).error
    }
    // The lock could not be had (store down, lock timed out): this process fetches its own.
    return locked ?? fetchAndShare()
  }
}
