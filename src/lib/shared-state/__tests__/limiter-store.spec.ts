import { Limiter, resolveRateLimits } from "../../limiter"
import { findOptionProblems } from "../../options"
import { limiterFor, PostgresLimiterStore } from "../limiter-store"
import { scratchDatabase } from "./scratch-database"

jest.setTimeout(20000)

let scratch: Awaited<ReturnType<typeof scratchDatabase>>

beforeAll(async () => {
  scratch = await scratchDatabase()
})
afterAll(() => scratch?.drop())
beforeEach(() => scratch.db.raw(`delete from "sipay_rate_limit"`))

const MINUTE = 60_000
const T0 = 1_800_000_000_000 // a window start (a multiple of a minute)

describe("PostgresLimiterStore: fixed windows shared by every instance", () => {
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

describe("limiterFor", () => {
  const options = { baseUrl: "http://127.0.0.1:1", appId: "a", appSecret: "s3cret", merchantKey: "$k" }

  it("counts in process by default", async () => {
    const [one, two] = [limiterFor(options, () => scratch.db), limiterFor(options, () => scratch.db)]
    await one.countAttempt({ sessionId: "payses_1" })
    await two.countAttempt({ sessionId: "payses_1" })
    expect(await scratch.db.raw(`select count(*)::int as n from "sipay_rate_limit"`)).toMatchObject({ rows: [{ n: 0 }] })
  })

  it("with rateLimitStore postgres, refuses the attempt past the limit whichever instance counts it, card numbers included", async () => {
    const shared = { ...options, rateLimitStore: "postgres" as const, rateLimits: { perSession: 100, perCart: 100, perCard: 3, perAddress: 100 } }
    const instances = [limiterFor(shared, () => scratch.connect()), limiterFor(shared, () => scratch.connect())]
    const answers = []
    for (let i = 0; i < 4; i++) {
      answers.push(await instances[i % 2].countAttempt({ sessionId: `payses_${i}`, cardNumber: "4155650100416111" }))
    }
    expect(answers.slice(0, 3)).toEqual([null, null, null])
    expect(answers[3]).toMatchObject({ code: "card_limit" })
    const rows = JSON.stringify((await scratch.db.raw(`select * from "sipay_rate_limit"`)) as unknown)
    expect(rows).not.toContain("4155650100416111")
    // Per-process limiters (each its own random fingerprint key) would not have refused the fourth.
    const alone = [new Limiter(resolveRateLimits(shared.rateLimits)), new Limiter(resolveRateLimits(shared.rateLimits))]
    for (let i = 0; i < 3; i++) await alone[i % 2].countAttempt({ cardNumber: "4155650100416112" })
    await expect(alone[1].countAttempt({ cardNumber: "4155650100416112" })).resolves.toBeNull()
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
