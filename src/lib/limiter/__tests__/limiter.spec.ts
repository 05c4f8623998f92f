import { DEFAULT_RATE_LIMITS, findRateLimitProblems, Limiter, MemoryAttemptLog, MemoryLimiterStore, resolveRateLimits, type RateLimitOptions } from ".."

/**
 * A limiter on a test clock, whose attempt outcomes come from `statuses` (invoice id -> status), as
 * the plugin's attempt records would give them.
 */
function limiterAt(clock: { now: number }, limits: RateLimitOptions = {}, store = new MemoryLimiterStore()) {
  const statuses = new Map<string, string>()
  const log = new MemoryAttemptLog(async (ids) => new Map(ids.filter((id) => statuses.has(id)).map((id) => [id, statuses.get(id)!])))
  const limiter = new Limiter(resolveRateLimits({ windowSeconds: 60, openSeconds: 30, ...limits }), store, log, Buffer.alloc(32, 7), () => clock.now)
  let invoices = 0
  /** One attempt from `address`: admitted, started (as session `session`) and left with `status`; returns the refusal code or the invoice id. */
  async function attempt(address: string, status: string, session = `payses_${++invoices}`) {
    const admission = await limiter.admitAttempt({ address })
    if (admission.refusal) return admission.refusal.code
    const invoiceId = `${session}_${++invoices}`
    statuses.set(invoiceId, status)
    await limiter.attemptStarted(admission.ticket, invoiceId)
    return invoiceId
  }
  return { limiter, statuses, log, attempt }
}

describe("limiter: per session, cart and card", () => {
  it("refuses the attempt past a session's limit, with the time left in the window, and allows again in the next window", async () => {
    const clock = { now: 120_000 }
    const { limiter } = limiterAt(clock, { perSession: 2 })
    expect(await limiter.admitAttempt({ sessionId: "a" })).toEqual({ refusal: null, ticket: null })
    expect((await limiter.admitAttempt({ sessionId: "a" })).refusal).toBeNull()
    clock.now += 15_000
    expect((await limiter.admitAttempt({ sessionId: "a" })).refusal).toEqual({ code: "session_limit", retryAfterSeconds: 45 })
    expect((await limiter.admitAttempt({ sessionId: "b" })).refusal).toBeNull()
    clock.now = 180_000
    expect((await limiter.admitAttempt({ sessionId: "a" })).refusal).toBeNull()
  })

  it("counts every key of an attempt: a new session does not escape the card", async () => {
    const { limiter } = limiterAt({ now: 0 }, { perCard: 2 })
    expect((await limiter.admitAttempt({ sessionId: "s1", cardNumber: "4000 0002 0000 0000" })).refusal).toBeNull()
    expect((await limiter.admitAttempt({ sessionId: "s2", cardNumber: "4000000200000000" })).refusal).toBeNull()
    expect((await limiter.admitAttempt({ sessionId: "s3", cardNumber: "4000000200000000" })).refusal?.code).toBe("card_limit")
  })

  it("keeps card numbers only as a keyed hash", async () => {
    const { limiter } = limiterAt({ now: 0 })
    const other = new Limiter(DEFAULT_RATE_LIMITS)
    const fingerprint = limiter.cardFingerprint("4508034508034509")
    expect(fingerprint).not.toContain("4508")
    expect(fingerprint).toBe(limiter.cardFingerprint("4508 0345 0803 4509"))
    expect(other.cardFingerprint("4508034508034509")).not.toBe(fingerprint)
  })
})

describe("limiter: per client address, by the attempts' outcomes", () => {
  it("refuses a client whose attempts ended unpaid `perAddress` times, until the first of them leaves the window", async () => {
    const clock = { now: 1_000_000 }
    const { attempt } = limiterAt(clock, { perAddress: 3 })
    for (const status of ["failed", "cancelled", "failed"]) {
      expect(await attempt("203.0.113.5", status)).toMatch(/^payses_/)
      clock.now += 5_000
    }
    expect(await attempt("203.0.113.5", "failed")).toBe("address_limit")
    expect(await attempt("203.0.113.6", "failed")).toMatch(/^payses_/)
    // The first unpaid attempt started at 1,000,000: it leaves the 60 s window at 1,060,000.
    clock.now = 1_059_999
    expect(await attempt("203.0.113.5", "failed")).toBe("address_limit")
    clock.now = 1_060_000
    expect(await attempt("203.0.113.5", "paid")).toMatch(/^payses_/)
  })

  it("tells the refused client when to come back", async () => {
    const clock = { now: 0 }
    const { limiter, attempt } = limiterAt(clock, { perAddress: 2 })
    await attempt("198.51.100.1", "failed")
    clock.now = 20_000
    await attempt("198.51.100.1", "failed")
    clock.now = 30_000
    expect((await limiter.admitAttempt({ address: "198.51.100.1" })).refusal).toEqual({ code: "address_limit", retryAfterSeconds: 30 })
  })

  it("never counts paid attempts, and a session that ended paid takes back its own earlier declines", async () => {
    const clock = { now: 0 }
    const { attempt, statuses } = limiterAt(clock, { perAddress: 3 })
    for (let i = 0; i < 20; i++) expect(await attempt("192.0.2.1", i % 2 ? "authorized" : "paid")).toMatch(/^payses_/)
    // One shopper: two declines, then a second shopper's decline: 3 unpaid.
    const first = await attempt("192.0.2.1", "failed", "payses_shopperA")
    await attempt("192.0.2.1", "failed", "payses_shopperA")
    await attempt("192.0.2.1", "failed", "payses_shopperB")
    expect(await attempt("192.0.2.1", "failed")).toBe("address_limit")
    // Shopper A pays at last (the reconciliation job, a webhook: only the record changes).
    statuses.set(first, "paid")
    expect(await attempt("192.0.2.1", "pending")).toMatch(/^payses_/)
  })

  it("lets a burst of `openPerAddress` shoppers behind one address start together, and asks the next to wait a moment", async () => {
    const clock = { now: 0 }
    const { limiter, attempt } = limiterAt(clock, { perAddress: 30, openPerAddress: 100 })
    const started = await Promise.all(Array.from({ length: 100 }, () => attempt("100.64.0.1", "pending")))
    expect(started.filter((answer) => answer.startsWith("payses_"))).toHaveLength(100)
    const next = await limiter.admitAttempt({ address: "100.64.0.1" })
    expect(next.refusal).toEqual({ code: "address_busy", retryAfterSeconds: 30 })
  })

  it("counts an attempt still pending after `openSeconds` as unpaid (expired)", async () => {
    const clock = { now: 0 }
    const { attempt } = limiterAt(clock, { perAddress: 2, openPerAddress: 10, openSeconds: 30 })
    await attempt("192.0.2.9", "pending")
    await attempt("192.0.2.9", "pending")
    clock.now = 29_999
    expect(await attempt("192.0.2.9", "paid")).toMatch(/^payses_/)
    clock.now = 30_000
    expect(await attempt("192.0.2.9", "pending")).toBe("address_limit")
  })

  it("counts a direct payment its route saw refused as unpaid at once, though its record still says pending; a later paid status wins", async () => {
    const clock = { now: 0 }
    const { limiter, statuses } = limiterAt(clock, { perAddress: 2 })
    const invoices: string[] = []
    for (let i = 0; i < 2; i++) {
      const admission = await limiter.admitAttempt({ address: "192.0.2.60" })
      invoices.push(`payses_direct${i}_1`)
      statuses.set(invoices[i], "pending")
      await limiter.attemptStarted(admission.ticket, invoices[i])
      await limiter.attemptEndedUnpaid(admission.ticket)
    }
    expect((await limiter.admitAttempt({ address: "192.0.2.60" })).refusal?.code).toBe("address_limit")
    statuses.set(invoices[0], "paid")
    expect((await limiter.admitAttempt({ address: "192.0.2.60" })).refusal).toBeNull()
  })

  it("counts every address of an IPv6 /64, in every spelling, as one client", async () => {
    const clock = { now: 0 }
    const { attempt } = limiterAt(clock, { perAddress: 30 })
    for (let i = 1; i <= 30; i++) expect(await attempt(`2001:db8:5130:1::${i.toString(16)}`, "failed")).toMatch(/^payses_/)
    for (const spelling of ["2001:db8:5130:1::ffff", "2001:0DB8:5130:0001:0:0:0:1", "[2001:db8:5130:1:abcd::1]:443"]) {
      expect(await attempt(spelling, "failed")).toBe("address_limit")
    }
    expect(await attempt("2001:db8:5130:2::1", "failed")).toMatch(/^payses_/)
  })

  it("gives back an attempt that never started, and forgets one never bound after the grace period", async () => {
    const clock = { now: 0 }
    const { limiter, log } = limiterAt(clock, { openPerAddress: 2 })
    const one = await limiter.admitAttempt({ address: "192.0.2.50" })
    await limiter.admitAttempt({ address: "192.0.2.50" })
    expect((await limiter.admitAttempt({ address: "192.0.2.50" })).refusal?.code).toBe("address_busy")
    await limiter.attemptAbandoned(one.ticket)
    expect((await limiter.admitAttempt({ address: "192.0.2.50" })).refusal).toBeNull()
    clock.now = 120_000 // beyond the grace of unbound entries and the window
    expect((await limiter.admitAttempt({ address: "192.0.2.50" })).refusal).toBeNull()
    expect(log.size).toBeLessThanOrEqual(1)
  })

  it("stays within its bound under a flood of distinct addresses", async () => {
    const log = new MemoryAttemptLog(async () => new Map(), 100)
    for (let i = 0; i < 1000; i++) await log.add(`address:10.0.${i >> 8}.${i & 255}`, `e${i}`, 1)
    expect(log.size).toBeLessThanOrEqual(100)
    expect(await log.list("address:10.0.3.231", 0)).toHaveLength(1)
  })
})

describe("limiter: decline budgets of direct payments", () => {
  it("refuses a BIN, an address prefix and a cart past their own budgets, and nobody else", async () => {
    const clock = { now: 0 }
    const { limiter } = limiterAt(clock, { declinesPerBin: 2, declinesPerPrefix: 3, declinesPerCart: 2, invalidCardsPerPrefix: 100, declineBudget: 1000, declineWindowSeconds: 900 })
    await limiter.recordDecline({ bin: "411111", address: "203.0.113.1", cartId: "cart_1" })
    await limiter.recordDecline({ bin: "411111", address: "203.0.113.2", cartId: "cart_2" })
    expect(await limiter.checkDeclineBudgets({ bin: "411111" })).toMatchObject({ code: "decline_budget", retryAfterSeconds: 900 })
    expect(await limiter.checkDeclineBudgets({ bin: "450803", address: "203.0.113.77", cartId: "cart_3" })).toBeNull()
    await limiter.recordDecline({ bin: "450803", address: "203.0.113.200", cartId: "cart_2" })
    expect(await limiter.checkDeclineBudgets({ address: "203.0.113.99" })).toMatchObject({ code: "decline_budget" })
    expect(await limiter.checkDeclineBudgets({ cartId: "cart_2" })).toMatchObject({ code: "decline_budget" })
    expect(await limiter.checkDeclineBudgets({ bin: "540667", address: "203.0.114.1", cartId: "cart_9" })).toBeNull()
    clock.now = 900_000
    expect(await limiter.checkDeclineBudgets({ bin: "411111", address: "203.0.113.99", cartId: "cart_2" })).toBeNull()
  })

  it("gives a prefix a smaller budget for cards the gateway called not valid (random numbers)", async () => {
    const { limiter } = limiterAt({ now: 0 }, { declinesPerPrefix: 10, invalidCardsPerPrefix: 3 })
    for (let i = 0; i < 3; i++) await limiter.recordDecline({ bin: `4${i}0000`, address: `2001:db8:77:${i}::1`, invalid: true })
    expect(await limiter.checkDeclineBudgets({ address: "2001:db8:77:ffff::9" })).toMatchObject({ code: "decline_budget" })
    for (let i = 0; i < 3; i++) await limiter.recordDecline({ bin: `4${i}0000`, address: `198.18.1.${i}` })
    expect(await limiter.checkDeclineBudgets({ address: "198.18.1.50" })).toBeNull()
  })

  it("keeps the store-wide budget out of one tester's reach: each prefix adds at most its own budget", async () => {
    const { limiter } = limiterAt({ now: 0 }, { declinesPerPrefix: 10, invalidCardsPerPrefix: 1000, declinesPerBin: 1000, declineBudget: 150 })
    // One tester: 12 prefixes (11 IPv4 /24s and an IPv6 /64), 50 declines from each.
    const prefixes = [...Array.from({ length: 11 }, (_, i) => (n: number) => `198.${18 + i}.7.${n % 250}`), (n: number) => `2001:db8:99:1::${n.toString(16)}`]
    for (const address of prefixes) for (let n = 0; n < 50; n++) await limiter.recordDecline({ bin: "411111", address: address(n), invalid: true })
    expect(await limiter.checkDeclineBudgets({ address: "192.0.2.1" })).toBeNull()
    // Declines from 15 more prefixes (a store-wide attack, or a very bad day): the last resort.
    for (let p = 0; p < 3; p++) for (let n = 0; n < 10; n++) await limiter.recordDecline({ address: `100.${p}.0.${n}` })
    expect(await limiter.checkDeclineBudgets({ address: "192.0.2.1" })).toMatchObject({ code: "decline_budget" })
  })

  it("counts nothing when turned off", async () => {
    const { limiter } = limiterAt({ now: 0 }, { enabled: false, perSession: 1, perAddress: 1, declineBudget: 1 })
    for (let i = 0; i < 5; i++) expect((await limiter.admitAttempt({ sessionId: "a", address: "192.0.2.1" })).refusal).toBeNull()
    await limiter.recordDecline({ address: "192.0.2.1" })
    expect(await limiter.checkDeclineBudgets({})).toBeNull()
  })
})

describe("rate limit options", () => {
  it("stays within its bound under a flood of distinct keys", async () => {
    const store = new MemoryLimiterStore(100)
    for (let i = 0; i < 1000; i++) await store.hit(`k${i}`, 60_000, 1)
    expect(store.size).toBeLessThanOrEqual(100)
    expect((await store.peek("k999", 60_000, 1)).count).toBe(1)
  })

  it("names a mistyped or invalid limit option, and an open time that would never expire an attempt", () => {
    expect(findRateLimitProblems({ perSesion: 3 })).toEqual([expect.stringContaining('"rateLimits.perSesion" is not a rate limit')])
    expect(findRateLimitProblems({ perCard: 0, enabled: "yes" })).toHaveLength(2)
    expect(findRateLimitProblems({ windowSeconds: 300, openSeconds: 300 })).toEqual([expect.stringContaining('"rateLimits.openSeconds" (300) must be shorter')])
    expect(findRateLimitProblems({ windowSeconds: 60 })).toEqual([])
    expect(resolveRateLimits({ windowSeconds: 60 }).openSeconds).toBe(30)
    expect(findRateLimitProblems(undefined)).toEqual([])
    expect(DEFAULT_RATE_LIMITS.openPerAddress).toBeGreaterThanOrEqual(100)
  })
})
