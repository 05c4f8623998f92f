import { AdvisoryLockTimeout, tryWithAdvisoryLock, withAdvisoryLock } from "../advisory-lock"
import { rowsOf } from "../database"
import { Client } from "pg"
import { scratchDatabase } from "./scratch-database"

jest.setTimeout(20000)

// Two pools on one database stand for two processes of a cluster.
let scratch: Awaited<ReturnType<typeof scratchDatabase>>

beforeAll(async () => {
  scratch = await scratchDatabase()
})
afterAll(() => scratch?.drop())

function gate() {
  let open!: () => void
  const opened = new Promise<void>((resolve) => (open = resolve))
  return { open, opened }
}

describe("withAdvisoryLock across two pools (two processes)", () => {
  it("runs the second holder's work only after the first one's work has ended", async () => {
    const other = scratch.connect()
    const events: string[] = []
    const release = gate()
    const entered = gate()
    const first = withAdvisoryLock(scratch.db, "attempt:a", async () => {
      events.push("first in")
      entered.open()
      await release.opened
      events.push("first out")
    })
    await entered.opened
    const second = withAdvisoryLock(other, "attempt:a", async () => {
      events.push("second in")
    })
    // The second is waiting on the lock in PostgreSQL, not merely queued in this process.
    await waitFor(async () => (await lockWaiters(scratch.db)) === 1)
    release.open()
    await Promise.all([first, second])
    expect(events).toEqual(["first in", "first out", "second in"])
  })

  it("does not make different keys wait for each other", async () => {
    const other = scratch.connect()
    const release = gate()
    const entered = gate()
    const holder = withAdvisoryLock(scratch.db, "attempt:b", async () => {
      entered.open()
      await release.opened
    })
    await entered.opened
    await expect(withAdvisoryLock(other, "attempt:c", async () => "ran", { timeoutMs: 1000 })).resolves.toBe("ran")
    release.open()
    await holder
  })

  it("gives up with AdvisoryLockTimeout when the lock stays held past the timeout, and the work never runs", async () => {
    const other = scratch.connect()
    const release = gate()
    const entered = gate()
    const holder = withAdvisoryLock(scratch.db, "attempt:d", async () => {
      entered.open()
      await release.opened
    })
    await entered.opened
    let ran = false
    const error = await withAdvisoryLock(other, "attempt:d", async () => (ran = true), { timeoutMs: 150 }).catch((e) => e)
    expect(error).toBeInstanceOf(AdvisoryLockTimeout)
    expect(error.message).toContain("attempt:d")
    expect(ran).toBe(false)
    release.open()
    await holder
    // The lock is free again once the holder ended.
    await expect(withAdvisoryLock(other, "attempt:d", async () => "after", { timeoutMs: 1000 })).resolves.toBe("after")
  })

  it("releases the lock when the work throws", async () => {
    await expect(withAdvisoryLock(scratch.db, "attempt:e", async () => Promise.reject(new Error("boom")))).rejects.toThrow("boom")
    await expect(tryWithAdvisoryLock(scratch.connect(), "attempt:e", async () => "free")).resolves.toEqual({ ran: true, value: "free" })
  })

  it("frees the lock of a holder whose connection dies (a killed process)", async () => {
    const other = scratch.connect()
    // The holder: a connection that takes the lock the way withAdvisoryLock does, then dies.
    const doomed = new Client({ connectionString: scratch.url })
    doomed.on("error", () => undefined)
    await doomed.connect()
    await doomed.query("begin")
    await doomed.query("select pg_advisory_xact_lock(hashtextextended($1, 0))", ["attempt:f"])
    expect(await tryWithAdvisoryLock(other, "attempt:f", async () => "stolen")).toEqual({ ran: false })
    const { rows } = await doomed.query("select pg_backend_pid() as pid")
    await scratch.db.raw("select pg_terminate_backend(?)", [rows[0].pid])
    await expect(withAdvisoryLock(other, "attempt:f", async () => "taken over", { timeoutMs: 5000 })).resolves.toBe("taken over")
    await doomed.end().catch(() => undefined)
  })
})

describe("tryWithAdvisoryLock", () => {
  it("answers ran: false at once while another pool holds the key, and runs once it is free", async () => {
    const other = scratch.connect()
    const release = gate()
    const entered = gate()
    const holder = withAdvisoryLock(scratch.db, "job:reconcile", async () => {
      entered.open()
      await release.opened
    })
    await entered.opened
    let runs = 0
    await expect(tryWithAdvisoryLock(other, "job:reconcile", async () => ++runs)).resolves.toEqual({ ran: false })
    release.open()
    await holder
    await expect(tryWithAdvisoryLock(other, "job:reconcile", async () => ++runs)).resolves.toEqual({ ran: true, value: 1 })
    expect(runs).toBe(1)
  })
})

async function lockWaiters(db: typeof scratch.db): Promise<number> {
  const answer = await db.raw(
    `select count(*)::int as waiting from pg_locks where locktype = 'advisory' and not granted and database = (select oid from pg_database where datname = current_database())`
  )
  return rowsOf<{ waiting: number }>(answer)[0]?.waiting ?? 0
}

async function waitFor(check: () => Promise<boolean>, attempts = 200): Promise<void> {
  for (let i = 0; i < attempts; i++) {
    if (await check()) return
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
  throw new Error("condition not reached")
}
