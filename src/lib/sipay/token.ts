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
 * One cached token for a client. Concurrent callers share one in-flight request (single flight), and a
 * token rejected by the gateway is replaced once however many calls saw it rejected.
 */
export class TokenCache {
  private current: TokenInfo | null = null
  private inFlight: Promise<TokenInfo> | null = null
  private generation = 0

  constructor(
    private readonly fetchToken: () => Promise<TokenInfo>,
    private readonly now: () => number = Date.now
  ) {}

  /** The cached token while it has more than 5 minutes left, else a new one. */
  get(): Promise<TokenInfo> {
    if (this.current && this.current.expiresAt.getTime() - REFRESH_MARGIN_MS > this.now()) {
      return Promise.resolve(this.current)
    }
    return this.fetchShared()
  }

  /** A token other than `rejected`: the one another caller already fetched, or a new one. */
  replace(rejected: string): Promise<TokenInfo> {
    if (this.current && this.current.token !== rejected) {
      return this.get()
    }
    if (this.current?.token === rejected) {
      this.current = null
    }
    return this.fetchShared()
  }

  invalidate(): void {
    this.current = null
    // A request already under way must not repopulate the cache after an invalidation.
    this.generation += 1
    this.inFlight = null
  }

  private fetchShared(): Promise<TokenInfo> {
    if (this.inFlight) {
      return this.inFlight
    }
    const generation = this.generation
    const request = this.fetchToken().then(
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
}
