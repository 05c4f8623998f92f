import knexFactory, { type Knex } from "knex"
import { answerThroughNotices, askThroughNotices, NoAnswererError, NOTICE_LIMIT, type NoticeDatabase } from "../pg-requests"

/** A request handed between two processes' connections through PostgreSQL's LISTEN/NOTIFY (real server). */

const connection = {
  host: process.env.DB_HOST || "localhost",
  port: Number(process.env.DB_PORT || 5432),
  user: process.env.DB_USERNAME || "postgres",
  password: process.env.DB_PASSWORD || undefined,
  database: "postgres",
}
const CHANNEL = `sipay_test_${process.pid}`

let asker: Knex
let answerer: Knex
const db = (knex: Knex) => knex as unknown as NoticeDatabase

beforeAll(() => {
  // One connection for the asker: a listening connection not given back would make the next ask wait forever.
  asker = knexFactory({ client: "pg", connection, pool: { min: 0, max: 1 }, acquireConnectionTimeout: 5000 })
  answerer = knexFactory({ client: "pg", connection, pool: { min: 0, max: 2 } })
})

afterAll(async () => {
  await asker.destroy()
  await answerer.destroy()
})

describe("a request handed to another process through PostgreSQL notices", () => {
  it("the answer of the process that took the request comes back to the asker", async () => {
    const seen: string[] = []
    const answer = await askThroughNotices<{ days: number[] }>(
      db(asker),
      CHANNEL,
      async (requestId) => {
        seen.push(requestId)
        // The other process, later, on its own connection.
        setTimeout(() => void answerThroughNotices(db(answerer), CHANNEL, requestId, async () => ({ days: [1, 2, 3] })), 50)
      },
      { startMs: 2000, doneMs: 2000 }
    )
    expect(answer).toEqual({ days: [1, 2, 3] })
    expect(seen).toHaveLength(1)
  })

  it("nothing takes the request: NoAnswererError after the wait, and the listening connection is given back", async () => {
    for (let i = 0; i < 3; i++) {
      const started = Date.now()
      await expect(askThroughNotices(db(asker), CHANNEL, async () => undefined, { startMs: 200, doneMs: 2000 })).rejects.toBeInstanceOf(NoAnswererError)
      expect(Date.now() - started).toBeGreaterThanOrEqual(190)
    }
    // The one pooled connection is free again and no longer listening.
    const listening = await asker.raw("SELECT count(*)::int AS n FROM pg_listening_channels()")
    expect(listening.rows[0].n).toBe(0)
  })

  it("each asker gets the answer to its own request, not another's", async () => {
    const second = knexFactory({ client: "pg", connection, pool: { min: 0, max: 1 } })
    try {
      const ids: Record<string, string> = {}
      const ask = (knex: Knex, name: string) =>
        askThroughNotices<string>(
          db(knex),
          CHANNEL,
          async (requestId) => {
            ids[name] = requestId
            if (Object.keys(ids).length === 2) {
              // Answered in the other order, each with the other's request still open.
              await answerThroughNotices(db(answerer), CHANNEL, ids.b, async () => "for b")
              await answerThroughNotices(db(answerer), CHANNEL, ids.a, async () => "for a")
            }
          },
          { startMs: 3000, doneMs: 3000 }
        )
      const a = ask(asker, "a")
      await new Promise((resolve) => setTimeout(resolve, 100))
      expect(await Promise.all([a, ask(second, "b")])).toEqual(["for a", "for b"])
    } finally {
      await second.destroy()
    }
  })

  it("the work fails: the asker gets its message; the answerer's caller gets the error itself", async () => {
    let answered: Promise<unknown> | null = null
    const asked = askThroughNotices(db(asker), CHANNEL, async (requestId) => {
      answered = answerThroughNotices(db(answerer), CHANNEL, requestId, async () => {
        throw new Error("the gateway answered 503")
      }).catch((error) => error)
    }, { startMs: 2000, doneMs: 2000 })
    await expect(asked).rejects.toThrow("the gateway answered 503")
    expect(await answered).toBeInstanceOf(Error)
  })

  it("an answer too large for a notice comes back compacted; one that cannot be compacted enough is a failure", async () => {
    const big = { lines: Array.from({ length: 2000 }, (_, i) => `line ${i}`) }
    expect(JSON.stringify(big).length).toBeGreaterThan(NOTICE_LIMIT)
    const compact = (answer: typeof big) => ({ lines: answer.lines.slice(0, 3), cut: true })
    const ask = (compactor: (answer: typeof big) => unknown) =>
      askThroughNotices(db(asker), CHANNEL, async (requestId) => {
        void answerThroughNotices(db(answerer), CHANNEL, requestId, async () => big, compactor)
      }, { startMs: 2000, doneMs: 2000 })
    expect(await ask(compact)).toEqual({ lines: ["line 0", "line 1", "line 2"], cut: true })
    await expect(ask((answer) => answer)).rejects.toThrow("too large")
  })

  it("refuses a channel name that is not a plain identifier (it is written into LISTEN)", async () => {
    await expect(askThroughNotices(db(asker), "x; DROP TABLE y", async () => undefined, { startMs: 10, doneMs: 10 })).rejects.toThrow("not a channel name")
  })
})
