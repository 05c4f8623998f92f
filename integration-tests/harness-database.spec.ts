import { execFile } from "node:child_process"
import { existsSync } from "node:fs"
import { join } from "node:path"
import { promisify } from "node:util"
import { freePort } from "./harness/ports"

const run = promisify(execFile)
const ROOT = join(__dirname, "..")

/** Runs the database harness in its own Node process, as the jest global setup and the demo do. */
async function resolveIn(env: Record<string, string>, script: string) {
  const program = `
    import { resolveDatabase, startEmbeddedDatabase } from "./scripts/lib/database.mjs"
    import pg from "pg"
    const env = ${JSON.stringify(env)}
    ${script}
  `
  const { stdout } = await run(process.execPath, ["--input-type=module", "-e", program], { cwd: ROOT, timeout: 120000 })
  return JSON.parse(stdout.trim().split("\n").pop()!)
}

jest.setTimeout(180 * 1000)

describe("test database harness", () => {
  it("falls back to an embedded PostgreSQL when nothing listens at the configured address, and removes it after", async () => {
    const closedPort = await freePort()
    const result = await resolveIn(
      { DB_HOST: "localhost", DB_PORT: String(closedPort), DB_USERNAME: "postgres", DB_PASSWORD: "" },
      `
      const db = await resolveDatabase({ env })
      const client = new pg.Client({ host: db.host, port: db.port, user: db.user, password: db.password, database: "postgres" })
      await client.connect()
      await client.query("create table harness_probe (id int)")
      await client.query("insert into harness_probe values (42)")
      const { rows } = await client.query("select id from harness_probe")
      await client.end()
      await db.stop()
      console.log(JSON.stringify({ embedded: db.embedded, port: db.port, dir: db.databaseDir, value: rows[0].id }))
      `
    )
    expect(result.embedded).toBe(true)
    expect(result.port).not.toBe(closedPort)
    expect(result.value).toBe(42)
    expect(result.dir.startsWith(ROOT)).toBe(false)
    expect(existsSync(result.dir)).toBe(false)
  })

  it("uses the configured PostgreSQL when it answers, and leaves it running", async () => {
    const result = await resolveIn(
      {},
      `
      const configured = await startEmbeddedDatabase()
      const db = await resolveDatabase({ env: { DB_HOST: "localhost", DB_PORT: String(configured.port), DB_USERNAME: configured.user, DB_PASSWORD: configured.password } })
      await db.stop()
      const client = new pg.Client({ host: "localhost", port: configured.port, user: configured.user, password: configured.password, database: "postgres" })
      await client.connect()
      const { rows } = await client.query("select 1 as answer")
      await client.end()
      await configured.stop()
      console.log(JSON.stringify({ embedded: db.embedded, port: db.port, configuredPort: configured.port, answer: rows[0].answer }))
      `
    )
    expect(result.embedded).toBe(false)
    expect(result.port).toBe(result.configuredPort)
    expect(result.answer).toBe(1)
  })
})
