import { randomBytes } from "node:crypto"
import { ModulesSdkUtils } from "@medusajs/framework/utils"
import { Client } from "pg"
import { ATTEMPT_LOG_TABLE_SQL, SHARED_STATE_TABLES_SQL, type SharedStateDatabase } from "../database"

/** The PostgreSQL the suites use (integration-tests/harness/global-setup.mjs fills DB_* in). */
function server() {
  return {
    host: process.env.DB_HOST || "localhost",
    port: Number(process.env.DB_PORT || 5432),
    user: process.env.DB_USERNAME || "postgres",
    password: process.env.DB_PASSWORD ?? "",
  }
}

async function admin<T>(run: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ ...server(), database: "postgres" })
  await client.connect()
  try {
    return await run(client)
  } finally {
    await client.end()
  }
}

/**
 * A database of its own for one test file, with the shared-state tables, reached through the same
 * kind of Knex instance Medusa registers as PG_CONNECTION. `connect()` opens another pool on it
 * (another process's view); `drop()` removes everything.
 */
export async function scratchDatabase() {
  const name = `sipay_shared_${randomBytes(5).toString("hex")}`
  await admin((client) => client.query(`create database "${name}"`))
  const { host, port, user, password } = server()
  const url = `postgres://${encodeURIComponent(user)}:${encodeURIComponent(password)}@${host}:${port}/${name}`
  const pools: Array<{ destroy(): Promise<void> }> = []
  const connect = (max = 10): SharedStateDatabase & { destroy(): Promise<void> } => {
    const knex = ModulesSdkUtils.createPgConnection({ clientUrl: url, schema: "public", pool: { min: 0, max } }) as never
    pools.push(knex)
    return knex
  }
  const db = connect()
  for (const sql of [...SHARED_STATE_TABLES_SQL, ...ATTEMPT_LOG_TABLE_SQL]) await db.raw(sql)
  return {
    name,
    url,
    db,
    connect,
    async drop() {
      await Promise.all(pools.map((pool) => pool.destroy()))
      await admin((client) => client.query(`drop database if exists "${name}" with (force)`))
    },
  }
}
