import { withAdvisoryLock } from "../../lib/shared-state/advisory-lock"
import { scratchDatabase } from "../../lib/shared-state/__tests__/scratch-database"
import watchSipayPreAuthorizations from "../sipay-pre-authorizations"

jest.setTimeout(20000)

let scratch: Awaited<ReturnType<typeof scratchDatabase>>
beforeAll(async () => {
  scratch = await scratchDatabase()
})
afterAll(() => scratch?.drop())

describe("the pre-authorization job on several instances", () => {
  it("skips a run that starts while another instance's run holds the job's lock, touching nothing", async () => {
    const resolved: string[] = []
    const logged: string[] = []
    // This instance's container: its PostgreSQL and logger; anything else it resolved would be work done.
    const container = {
      resolve(name: string) {
        resolved.push(name)
        if (name === "__pg_connection__") return scratch.connect()
        if (name === "logger") return { info: (message: string) => logged.push(message) }
        throw new Error(`the skipped run resolved ${name}`)
      },
    }
    let release!: () => void
    let entered!: () => void
    const held = new Promise<void>((resolve) => (entered = resolve))
    // The other instance's run, under way.
    const other = withAdvisoryLock(scratch.db, "sipay:job:pre-authorizations", async () => {
      entered()
      await new Promise<void>((resolve) => (release = resolve))
    })
    await held
    await expect(watchSipayPreAuthorizations(container as never)).resolves.toEqual({ expiring: [], cancelled: [], captured: [], skipped: true })
    expect(resolved).toEqual(["__pg_connection__", "logger"])
    expect(logged.join("\n")).toMatch(/skipped: another instance/)
    release()
    await other
  })
})
