/**
 * A sliding-window counter against card testing on the direct payment route: so many tries per
 * key (a payment session, a client address) per window. In memory, per server process.
 */
export class AttemptLimiter {
  private readonly hits = new Map<string, number[]>()

  constructor(private readonly limit: number, private readonly windowMs: number, private readonly now: () => number = Date.now) {}

  /** Counts a try; false when the key already used its tries in the window. */
  tryAcquire(key: string): boolean {
    const now = this.now()
    const recent = (this.hits.get(key) ?? []).filter((at) => now - at < this.windowMs)
    if (recent.length >= this.limit) {
      this.hits.set(key, recent)
      return false
    }
    recent.push(now)
    this.hits.set(key, recent)
    if (this.hits.size > 10000) {
      this.prune(now)
    }
    return true
  }

  private prune(now: number): void {
    for (const [key, times] of this.hits) {
      if (times.every((at) => now - at >= this.windowMs)) {
        this.hits.delete(key)
      }
    }
  }
}
