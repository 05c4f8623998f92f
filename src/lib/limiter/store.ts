/**
 * Where the limiter counts. One fixed window per (key, window length): the window containing `nowMs`
 * starts at a multiple of `windowMs`, so every instance sharing a store agrees on it.
 */
export interface LimiterStore {
  /** Counts one hit for `key` in the fixed window of `windowMs` that contains `nowMs`; answers the
   *  window's count including this hit and when the window ends. Atomic for every caller sharing the store. */
  hit(key: string, windowMs: number, nowMs: number): Promise<{ count: number; resetAtMs: number }>
  /** The window's count without counting (for budgets checked before a decision). */
  peek(key: string, windowMs: number, nowMs: number): Promise<{ count: number; resetAtMs: number }>
  /** Takes `key` for `intervalMs` from `nowMs` when no earlier take of it is younger than that (a sliding
   *  gap, not a fixed window); answers whether it was taken. Atomic for every caller sharing the store. */
  claim(key: string, intervalMs: number, nowMs: number): Promise<boolean>
}

export function windowOf(windowMs: number, nowMs: number): { startMs: number; resetAtMs: number } {
  const startMs = Math.floor(nowMs / windowMs) * windowMs
  return { startMs, resetAtMs: startMs + windowMs }
}

/**
 * The in-process store (the default): one counter per key and window, in a Map bounded to `maxKeys`.
 * Past the bound, ended windows are dropped first, then the oldest counters; a flood of distinct keys
 * can therefore only forget old counters, never grow the process.
 */
export class MemoryLimiterStore implements LimiterStore {
  private readonly counters = new Map<string, { count: number; resetAtMs: number }>()

  constructor(private readonly maxKeys = 50_000) {}

  get size(): number {
    return this.counters.size
  }

  async hit(key: string, windowMs: number, nowMs: number) {
    const { resetAtMs } = windowOf(windowMs, nowMs)
    const id = `${windowMs}:${key}`
    const current = this.counters.get(id)
    if (current && current.resetAtMs === resetAtMs) {
      current.count += 1
      return { count: current.count, resetAtMs }
    }
    this.counters.delete(id)
    this.counters.set(id, { count: 1, resetAtMs })
    if (this.counters.size > this.maxKeys) {
      this.prune(nowMs)
    }
    return { count: 1, resetAtMs }
  }

  async peek(key: string, windowMs: number, nowMs: number) {
    const { resetAtMs } = windowOf(windowMs, nowMs)
    const current = this.counters.get(`${windowMs}:${key}`)
    return { count: current && current.resetAtMs === resetAtMs ? current.count : 0, resetAtMs }
  }

  async claim(key: string, intervalMs: number, nowMs: number): Promise<boolean> {
    const id = `claim:${key}`
    const current = this.counters.get(id)
    if (current && current.resetAtMs > nowMs) {
      return false
    }
    this.counters.delete(id)
    this.counters.set(id, { count: 1, resetAtMs: nowMs + intervalMs })
    if (this.counters.size > this.maxKeys) {
      this.prune(nowMs)
    }
    return true
  }

  private prune(nowMs: number): void {
    for (const [id, counter] of this.counters) {
      if (counter.resetAtMs <= nowMs) {
        this.counters.delete(id)
      }
    }
    // Still full of live counters: forget the oldest (Map keeps insertion order).
    for (const id of this.counters.keys()) {
      if (this.counters.size <= this.maxKeys) {
        break
      }
      this.counters.delete(id)
    }
  }
}
