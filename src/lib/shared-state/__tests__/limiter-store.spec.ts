import { Limiter, MemoryLimiterStore, resolveRateLimits } from "../../limiter"
import { findOptionProblems } from "../../options"
import { attemptStatusesIn, limiterFor, PostgresAttemptLog, PostgresLimiterStore } from "../limiter-store"
import { scratchDatabase } from "./scratch-database"

jest.setTimeout(20000)

let scratch: Awaited<ReturnType<typeof scratchDatabase>>

beforeAll(async () => {
  scratch = await scratchDatabase()
  // The columns of the plugin's attempt records the limits read (the module's migrations make the whole table).
  await scratch.db.raw(`create table "sipay_payment_attempt" ("id" text primary key, "invoice_id" text unique not null, "status" text not null, "deleted_at" timestamptz null)`)
})
afterAll(() => scratch?.drop())
beforeEach(async () => {
  await scratch.db.raw(`delete from "sipay_rate_limit"`)
  await scratch.db.raw(`delete from "sipay_rate_limit_attempt"`)
  await scratch.db.raw(`delete from "sipay_payment_attempt"`)
})

async function recordAttempt(invoiceId: string, status: string) {
  await scratch.db.raw(`insert into "sipay_payment_attempt" ("id", "invoice_id", "status") values (?, ?, ?) on conflict ("invoice_id") do update set "status" = excluded."status"`, [`spatt_${invoiceId}`, invoiceId, status])
}

const MINUTE = 60_000
const T0 = 1_800_000_000_000 // a window start (a multiple of a minute)

describe("PostgresLimiterStore: fixed windows shared by every instance", () => {
  it("a gateway check of an attempt is admitted once per 10 s across two instances (a sliding gap, not a window), in memory too", async () => {
    const stores = [new PostgresLimiterStore(() => scratch.connect()), new PostgresLimiterStore(() => scratch.connect())]
    const limiters = stores.map((store, i) => new Limiter(resolveRateLimits({}), store, undefined, undefined, () => [T0 + 9_000, T0 + 9_000][i]))
    const racing = await Promise.all(Array.from({ length: 20 }, (_, i) => limiters[i % 2].admitGatewayCheck("payses_A_1")))
    expect(racing.filter(Boolean)).toHaveLength(1)
    // Across a 10 s window boundary (T0 + 10 s) still refused until 10 s after the admitted check; another attempt is apart.
    await expect(stores[1].claim("gateway-check:payses_A_1", 10_000, T0 + 18_999)).resolves.toBe(false)
    await expect(stores[0].claim("gateway-check:payses_B_1", 10_000, T0 + 18_999)).resolves.toBe(true)
    await expect(stores[1].claim("gateway-check:payses_A_1", 10_000, T0 + 19_000)).resolves.toBe(true)
    await expect(stores[0].claim("gateway-check:payses_A_1", 10_000, T0 + 19_001)).resolves.toBe(false)
    const memory = new MemoryLimiterStore()
    await expect(memory.claim("k", 10_000, T0)).resolves.toBe(true)
    await expect(memory.claim("k", 10_000, T0 + 9_999)).resolves.toBe(false)
    await expect(memory.claim("k", 10_000, T0 + 10_000)).resolves.toBe(true)
  })

  it("counts 40 concurrent hits from two instances exactly once each", async () => {
    const instances = [new PostgresLimiterStore(() => scratch.connect()), new PostgresLimiterStore(() => scratch.connect())]
    const counts = await Promise.all(Array.from({ length: 40 }, (_, i) => instances[i % 2].hit("address:203.0.113.7", MINUTE, T0 + 1000)))
    expect(counts.map((c) => c.count).sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1))
    expect(new Set(counts.map((c) => c.resetAtMs))).toEqual(new Set([T0 + MINUTE]))
    await expect(instances[1].peek("address:203.0.113.7", MINUTE, T0 + 2000)).resolves.toEqual({ count: 40, resetAtMs: T0 + MINUTE })
  })

  it("starts a new window at the window boundary, and peek does not count", async () => {
    const store = new PostgresLimiterStore(() => scratch.db)
    await store.hit("k", MINUTE, T0)
    await store.hit("k", MINUTE, T0 + MINUTE - 1)
    await expect(store.peek("k", MINUTE, T0 + MINUTE - 1)).resolves.toEqual({ count: 2, resetAtMs: T0 + MINUTE })
    await expect(store.peek("k", MINUTE, T0 + MINUTE)).resolves.toEqual({ count: 0, resetAtMs: T0 + 2 * MINUTE })
    await expect(store.hit("k", MINUTE, T0 + MINUTE)).resolves.toEqual({ count: 1, resetAtMs: T0 + 2 * MINUTE })
  })

  it("keeps the window lengths of one key apart, and counts a lagging clock in the newer window", async () => {
    const store = new PostgresLimiterStore(() => scratch.db)
    await store.hit("declines", MINUTE, T0 + MINUTE)
    await expect(store.hit("declines", 10 * MINUTE, T0 + MINUTE)).resolves.toMatchObject({ count: 1 })
    await expect(store.hit("declines", MINUTE, T0 + 5)).resolves.toEqual({ count: 2, resetAtMs: T0 + 2 * MINUTE })
  })
})

describe("PostgresAttemptLog: the attempts of each client, with their outcome, shared by every instance", () => {
  it("lists a key's entries in the window joined with their attempt's status, and forgets", async () => {
    const log = new PostgresAttemptLog(() => scratch.db)
    await log.add("address:203.0.113.7", "e1", T0)
    await log.add("address:203.0.113.7", "e2", T0 + 10)
    await log.add("address:203.0.113.7", "e-old", T0 - MINUTE)
    await log.add("address:198.51.100.1", "e3", T0)
    await log.bind("e1", "payses_a_1")
    await log.markEndedUnpaid("e2")
    await recordAttempt("payses_a_1", "failed")
    const listed = await new PostgresAttemptLog(() => scratch.connect()).list("address:203.0.113.7", T0)
    expect(listed.sort((a, b) => a.startedMs - b.startedMs)).toEqual([
      { entryId: "e1", startedMs: T0, invoiceId: "payses_a_1", status: "failed", endedUnpaid: false },
      { entryId: "e2", startedMs: T0 + 10, invoiceId: null, status: null, endedUnpaid: true },
    ])
    await log.forget(["e1", "e2"])
    await expect(log.list("address:203.0.113.7", T0)).resolves.toEqual([])
  })

  it("refuses the 31st attempt of a client whose 30 attempts were declined, whichever instance counts it, and takes paid ones back", async () => {
    // A century-long window (its next boundary in 2069): the default 10-minute fixed window could end
    // between the 30th attempt and the 31st on a slow run and start the count again.
    const rateLimits = { windowSeconds: 100 * 365 * 86400 }
    const shared = { baseUrl: "http://127.0.0.1:1", appId: "a", appSecret: "s3cret", merchantKey: "$k", rateLimitStore: "postgres" as const, rateLimits }
    const pools = [scratch.connect(), scratch.connect()]
    const instances = [limiterFor(shared, () => pools[0]), limiterFor(shared, () => pools[1])]
    for (let i = 0; i < 30; i++) {
      const admission = await instances[i % 2].admitAttempt({ address: `2001:db8:31:7::${i + 1}` })
      expect(admission.refusal).toBeNull()
      await instances[i % 2].attemptStarted(admission.ticket, `payses_t${i}_1`)
      await recordAttempt(`payses_t${i}_1`, "failed")
    }
    await expect(instances[0].admitAttempt({ address: "2001:db8:31:7:ffff::1" })).resolves.toMatchObject({ refusal: { code: "address_limit" } })
    await recordAttempt("payses_t3_1", "paid")
    await expect(instances[1].admitAttempt({ address: "2001:DB8:31:7::abc" })).resolves.toMatchObject({ refusal: null })
  })

  it("reads the statuses of attempts for the in-process log", async () => {
    await recordAttempt("payses_b_1", "paid")
    await recordAttempt("payses_b_2", "pending")
    await expect(attemptStatusesIn(() => scratch.db)(["payses_b_1", "payses_b_2", "payses_none"])).resolves.toEqual(new Map([["payses_b_1", "paid"], ["payses_b_2", "pending"]]))
    await expect(attemptStatusesIn(() => undefined)(["payses_b_1"])).resolves.toEqual(new Map())
  })
})

describe("limiterFor", () => {
  const options = { baseUrl: "http://127.0.0.1:1", appId: "a", appSecret: "s3cret", merchantKey: "$k" }

  it("counts in process by default", async () => {
    const [one, two] = [limiterFor(options, () => scratch.db), limiterFor(options, () => scratch.db)]
    await one.admitAttempt({ sessionId: "payses_1" })
    await two.admitAttempt({ sessionId: "payses_1" })
    expect(await scratch.db.raw(`select count(*)::int as n from "sipay_rate_limit"`)).toMatchObject({ rows: [{ n: 0 }] })
  })

  it("with rateLimitStore postgres, refuses the attempt past the limit whichever instance counts it, card numbers included", async () => {
    const shared = { ...options, rateLimitStore: "postgres" as const, rateLimits: { perSession: 100, perCart: 100, perCard: 3, perAddress: 100 } }
    const pools = [scratch.connect(), scratch.connect()]
    const instances = [limiterFor(shared, () => pools[0]), limiterFor(shared, () => pools[1])]
    const answers = []
    for (let i = 0; i < 4; i++) {
      answers.push((await instances[i % 2].admitAttempt({ sessionId: `payses_${i}`, cardNumber: "4155650100416111" })).refusal)
    }
    expect(answers.slice(0, 3)).toEqual([null, null, null])
    expect(answers[3]).toMatchObject({ code: "card_limit" })
    const rows = JSON.stringify((await scratch.db.raw(`select * from "sipay_rate_limit"`)) as unknown)
    expect(rows).not.toContain("4155650100416111")
    // Per-process limiters (each its own random fingerprint key) would not have refused the fourth.
    const alone = [new Limiter(resolveRateLimits(shared.rateLimits)), new Limiter(resolveRateLimits(shared.rateLimits))]
    for (let i = 0; i < 3; i++) await alone[i % 2].admitAttempt({ cardNumber: "4155650100416112" })
    await expect(alone[1].admitAttempt({ cardNumber: "4155650100416112" })).resolves.toMatchObject({ refusal: null })
  })
})

describe("the rateLimitStore option", () => {
  it("accepts memory and postgres, and names anything else", () => {
    const options = { baseUrl: "http://127.0.0.1:1", appId: "a", appSecret: "s", merchantKey: "$k" }
    expect(findOptionProblems({ ...options, rateLimitStore: "postgres" })).toEqual([])
    expect(findOptionProblems({ ...options, rateLimitStore: "memory" })).toEqual([])
    expect(findOptionProblems({ ...options, rateLimitStore: "redis" as never })).toEqual([`option "rateLimitStore" must be "memory" or "postgres"`])
  })
})
