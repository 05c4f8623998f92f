import { DEFAULT_RATE_LIMITS, findRateLimitProblems, Limiter, MemoryLimiterStore, resolveRateLimits } from ".."

function limiterAt(clock: { now: number }, limits = {}, store = new MemoryLimiterStore()) {
  return new Limiter(resolveRateLimits({ windowSeconds: 60, ...limits }), store, Buffer.alloc(32, 7), () => clock.now)
}

describe("limiter", () => {
  it("refuses the attempt past a session's limit, with the time left in the window, and allows again in the next window", async () => {
    const clock = { now: 120_000 }
    const limiter = limiterAt(clock, { perSession: 2 })
    expect(await limiter.countAttempt({ sessionId: "a" })).toBeNull()
    expect(await limiter.countAttempt({ sessionId: "a" })).toBeNull()
    clock.now += 15_000
    expect(await limiter.countAttempt({ sessionId: "a" })).toEqual({ code: "session_limit", message: expect.any(String), retryAfterSeconds: 45 })
    expect(await limiter.countAttempt({ sessionId: "b" })).toBeNull()
    clock.now = 180_000
    expect(await limiter.countAttempt({ sessionId: "a" })).toBeNull()
  })

  it("counts every key of an attempt: a new session does not escape the address or the card", async () => {
    const clock = { now: 0 }
    const limiter = limiterAt(clock, { perAddress: 2, perCard: 2 })
    expect(await limiter.countAttempt({ sessionId: "s1", address: "203.0.113.9", cardNumber: "4000 0002 0000 0000" })).toBeNull()
    expect(await limiter.countAttempt({ sessionId: "s2", address: "198.51.100.1", cardNumber: "4000000200000000" })).toBeNull()
    expect((await limiter.countAttempt({ sessionId: "s3", address: "198.51.100.2", cardNumber: "4000000200000000" }))?.code).toBe("card_limit")
    expect(await limiter.countAttempt({ sessionId: "s4", address: "203.0.113.9" })).toBeNull()
    expect((await limiter.countAttempt({ sessionId: "s5", address: "203.0.113.9" }))?.code).toBe("address_limit")
  })

  it("keeps card numbers only as a keyed hash", async () => {
    const limiter = limiterAt({ now: 0 })
    const other = new Limiter(DEFAULT_RATE_LIMITS)
    const fingerprint = limiter.cardFingerprint("4508034508034509")
    expect(fingerprint).not.toContain("4508")
    expect(fingerprint).toBe(limiter.cardFingerprint("4508 0345 0803 4509"))
    expect(other.cardFingerprint("4508034508034509")).not.toBe(fingerprint)
  })

  it("spends the store-wide decline budget and refuses everyone until its window ends", async () => {
    const clock = { now: 0 }
    const limiter = limiterAt(clock, { declineBudget: 2, declineWindowSeconds: 30 })
    expect(await limiter.checkDeclineBudget()).toBeNull()
    await limiter.recordDecline()
    expect(await limiter.checkDeclineBudget()).toBeNull()
    await limiter.recordDecline()
    expect(await limiter.checkDeclineBudget()).toMatchObject({ code: "decline_budget", retryAfterSeconds: 30 })
    clock.now = 30_000
    expect(await limiter.checkDeclineBudget()).toBeNull()
  })

  it("counts nothing when turned off", async () => {
    const limiter = limiterAt({ now: 0 }, { enabled: false, perSession: 1 })
    for (let i = 0; i < 5; i++) expect(await limiter.countAttempt({ sessionId: "a" })).toBeNull()
  })

  it("stays within its bound under a flood of distinct keys", async () => {
    const store = new MemoryLimiterStore(100)
    for (let i = 0; i < 1000; i++) await store.hit(`k${i}`, 60_000, 1)
    expect(store.size).toBeLessThanOrEqual(100)
    expect((await store.peek("k999", 60_000, 1)).count).toBe(1)
  })

  it("names a mistyped or invalid limit option", () => {
    expect(findRateLimitProblems({ perSesion: 3 })).toEqual([expect.stringContaining('"rateLimits.perSesion" is not a rate limit')])
    expect(findRateLimitProblems({ perCard: 0, enabled: "yes" })).toHaveLength(2)
    expect(findRateLimitProblems(undefined)).toEqual([])
  })
})
