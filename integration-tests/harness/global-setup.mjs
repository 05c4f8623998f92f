import { databaseEnv, resolveDatabase } from "../../scripts/lib/database.mjs"

// Runs once before every suite: integration suites need a PostgreSQL, and a fresh machine has none.
export default async function globalSetup() {
  const database = await resolveDatabase()
  globalThis.__SIPAY_TEST_DATABASE__ = database
  Object.assign(process.env, databaseEnv(database))
  if (database.embedded) {
    process.stdout.write(`\n[harness] no PostgreSQL at the configured address: embedded PostgreSQL on port ${database.port}\n`)
  }
}
