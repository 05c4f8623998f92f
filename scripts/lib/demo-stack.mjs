// The demo stack, booted the same way by `npm run demo` and by the browser tests: a database, the
// sandbox gateway, Medusa with this plugin and its admin, and the demo storefront. Runtime data
// (database, sandbox sales, generated credentials, logs) lives in a folder outside the repository.
import { createHash, randomBytes } from "node:crypto"
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { homedir, tmpdir, userInfo } from "node:os"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { startDemoDatabase } from "./demo-database.mjs"
import { recordChildren, stopLeftoverChildren } from "./demo-leftovers.mjs"
import { assertRedisAnswers, clusterEnv, startCluster } from "./demo-cluster.mjs"
import { claimPort, startProcess, tailOf, waitForHttp } from "./demo-processes.mjs"
import { startStorefrontServer } from "./demo-storefront-server.mjs"

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..")
export const DEMO_ADMIN_EMAIL = "admin@medusa-sipay.test"
export const SALE_WEBHOOK_KEY = "medusa-demo-sale"
export const RECURRING_WEBHOOK_KEY = "medusa-demo-recurring"
export const DEFAULT_PORTS = { store: 9000, storefront: 8000, sandbox: 4010 }

const require = createRequire(import.meta.url)
const MEDUSA_CLI = require.resolve("@medusajs/cli/cli.js", { paths: [REPO_ROOT] })
const TS_NODE = require.resolve("ts-node/dist/bin.js", { paths: [REPO_ROOT] })

/**
 * What decides whether the database needs migrating: the database, the installed packages (the
 * lockfile), the host configuration and this plugin's own migrations.
 */
function migrationFingerprint(databaseUrl) {
  const hash = createHash("sha256").update(databaseUrl)
  for (const file of ["package-lock.json", "medusa-config.ts"]) hash.update(readFileSync(join(REPO_ROOT, file)))
  const modules = join(REPO_ROOT, "src", "modules")
  for (const module of readdirSync(modules).sort()) {
    const migrations = join(modules, module, "migrations")
    if (!existsSync(migrations)) continue
    for (const file of readdirSync(migrations).sort()) hash.update(file).update(readFileSync(join(migrations, file)))
  }
  return hash.digest("hex")
}

/**
 * Where the demo keeps its data. PostgreSQL refuses to run as root, so as root the embedded one
 * runs as a `postgres` user that cannot enter root's home: the data then goes under the temp dir.
 */
export function defaultDataDir(env = process.env) {
  if (env.DEMO_DATA_DIR) return resolve(env.DEMO_DATA_DIR)
  return userInfo().uid === 0 ? join(tmpdir(), "medusa-plugin-sipay-demo") : join(homedir(), ".medusa-plugin-sipay-demo")
}

export function portsFromEnv(env = process.env) {
  const read = (name, fallback) => {
    const value = env[name]
    if (value === undefined || value === "") return fallback
    const port = Number(value)
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`${name}=${value} is not a port number`)
    return port
  }
  return {
    store: read("DEMO_STORE_PORT", DEFAULT_PORTS.store),
    storefront: read("DEMO_STOREFRONT_PORT", DEFAULT_PORTS.storefront),
    sandbox: read("DEMO_SANDBOX_PORT", DEFAULT_PORTS.sandbox),
  }
}

/** Credentials generated on the first start and kept in the data folder (the same on every start). */
function loadOrCreateState(file) {
  if (existsSync(file)) return JSON.parse(readFileSync(file, "utf8"))
  const hex = (bytes) => randomBytes(bytes).toString("hex")
  const state = {
    admin_password: `demo-${hex(6)}`,
    jwt_secret: hex(24),
    cookie_secret: hex(24),
    merchant: {
      merchant_id: 18000 + randomBytes(2).readUInt16BE() % 1000,
      merchant_key: `$2y$10$${randomBytes(40).toString("base64url").slice(0, 53)}`,
      app_id: hex(16),
      app_secret: hex(16),
    },
  }
  writeFileSync(file, JSON.stringify(state, null, 2), { mode: 0o600 })
  return state
}

/** The storefront kit's helpers with Medusa's JS SDK, bundled for the demo storefront's browser code. */
async function bundleStorefrontKit() {
  const { build } = await import("esbuild")
  const result = await build({
    entryPoints: [join(REPO_ROOT, "demo", "storefront", "kit-entry.js")],
    bundle: true,
    write: false,
    format: "esm",
    platform: "browser",
    target: "es2021",
    minify: true,
    logLevel: "silent",
  })
  return result.outputFiles[0].text
}

/** A CORS list: the user's entries first, then the demo's own origins not already in it. */
function withOrigins(given, ...own) {
  const entries = String(given ?? "").split(",").map((entry) => entry.trim()).filter(Boolean)
  return [...entries, ...own.filter((origin) => !entries.includes(origin))].join(",")
}

function childEnv(env, extra) {
  const { NODE_OPTIONS, ...rest } = env // jest's --experimental-vm-modules is not for the children
  return { ...rest, ...extra }
}

/** The test cards and SMS code as the sandbox prints them at start (src/sandbox/cards.ts stays their one source). */
export function testCardsIn(sandboxOutput) {
  const block = /^Test cards \(.*SMS code (\d+)\)\n((?:[ \t]+\d{12,19} .*(?:\n|$))+)/m.exec(sandboxOutput)
  if (!block) return { sms_code: null, test_cards: [] }
  const test_cards = block[2]
    .trim()
    .split("\n")
    .map((line) => /^\s*(\d+)\s+(\S+)\s+(.*)$/.exec(line))
    .filter(Boolean)
    .map(([, number, scheme, description]) => ({ number, scheme, description: description.trim() }))
  return { sms_code: block[1], test_cards }
}

/**
 * Boots everything; `step(name, run)` reports progress (default: silent). Returns the ready data
 * (the DEMO_READY keys plus details) and `stop()`, which ends every part in reverse order.
 */
export async function startDemoStack({
  env = process.env,
  dataDir = defaultDataDir(env),
  ports = portsFromEnv(env),
  databaseName = env.DEMO_DB_NAME || "medusa_sipay_demo",
  step: report = async (_name, run) => run(),
  verbose = false,
  signal,
  // Two server instances and a worker behind one address, on Medusa's Redis modules (./demo-cluster.mjs).
  cluster = false,
} = {}) {
  const parts = []
  let stopping = Promise.resolve()
  // Every call waits for the stops already under way, then stops what is left, newest first.
  const stop = () => {
    stopping = stopping.then(async () => {
      for (const part of parts.splice(0).reverse()) {
        await part.stop().catch((error) => process.stderr.write(`stopping ${part.name}: ${error.message}\n`))
      }
      if (existsSync(dataDir)) recordChildren(dataDir, [])
    })
    return stopping
  }
  // Last resort when this process exits without stop(): no child keeps a port.
  const children = []
  process.once("exit", () => children.filter((child) => child.running).forEach((child) => child.kill()))
  // A part started after an abort (Ctrl-C during the boot) is stopped at once.
  const register = (part) => {
    parts.push(part)
    if (part.kill) {
      children.push(part)
      recordChildren(dataDir, children)
    }
    if (signal?.aborted) stop()
  }
  signal?.addEventListener("abort", () => stop(), { once: true })
  const step = async (name, run) => {
    if (signal?.aborted) throw new Error("stopped")
    const result = await report(name, run)
    if (signal?.aborted) throw new Error("stopped")
    return result
  }
  // A command run to its end (migrations, seed), stopped with the rest on an abort.
  const runChild = async (options) => {
    const handle = startProcess(options)
    register(handle)
    const { code, signal: killedBy } = await handle.exited
    parts.splice(parts.indexOf(handle) >>> 0, 1)
    if (code !== 0) {
      throw new Error(`${options.name} failed (${killedBy ?? `exit code ${code}`}); log: ${options.logFile}\n${tailOf(options.logFile)}`)
    }
  }
  try {
    const logs = join(dataDir, "logs")
    const state = await step(`Data folder ${dataDir}`, async () => {
      mkdirSync(logs, { recursive: true })
      chmodSync(dataDir, 0o755) // the embedded PostgreSQL's own user enters it when run as root
      await stopLeftoverChildren(dataDir)
      return loadOrCreateState(join(dataDir, "credentials.json"))
    })

    if (cluster) {
      await step("Redis for the cluster", async () => {
        const { MEDUSA_CLUSTER_REDIS_URL: url, MEDUSA_CLUSTER_REDIS_PREFIX: prefix } = clusterEnv(env)
        await assertRedisAnswers(url)
        return { detail: `${url}, keys under ${prefix}` }
      })
    }

    const chosen = await step("Ports", async () => ({
      store: await claimPort(ports.store, "Medusa store", "DEMO_STORE_PORT"),
      storefront: await claimPort(ports.storefront, "demo storefront", "DEMO_STOREFRONT_PORT"),
      sandbox: await claimPort(ports.sandbox, "sandbox gateway", "DEMO_SANDBOX_PORT"),
    }))
    const storeUrl = `http://localhost:${chosen.store}`
    const storefrontUrl = `http://localhost:${chosen.storefront}`

    const database = await step("Database", async () => {
      const db = await startDemoDatabase({ env, databaseDir: join(dataDir, "postgres"), name: databaseName })
      register({ name: "database", stop: () => db.stop() })
      const where = db.embedded ? `embedded PostgreSQL in ${db.databaseDir}` : `PostgreSQL at ${db.host}:${db.port}`
      return { ...db, detail: `${where}, database ${databaseName}${db.created ? " (created)" : ""}` }
    })
    const databaseUrl = database.url

    const sandbox = await step("Sandbox gateway", async () => {
      const config = {
        merchants: [
          {
            ...state.merchant,
            name: "Sipay Demo Store",
            is_3d: 1,
            installments: [1, 2, 3, 6, 9, 12],
            sale_webhooks: { [SALE_WEBHOOK_KEY]: `${storeUrl}/hooks/payment/sipay_sipay` },
            recurring_webhooks: { [RECURRING_WEBHOOK_KEY]: `${storeUrl}/sipay/hooks/recurring` },
          },
        ],
      }
      const configFile = join(dataDir, "sandbox-config.json")
      writeFileSync(configFile, JSON.stringify(config, null, 2), { mode: 0o600 })
      const handle = startProcess({
        name: "sandbox gateway",
        command: process.execPath,
        args: [TS_NODE, "--transpile-only", "src/sandbox/cli.ts", "--port", String(chosen.sandbox), "--config", configFile, "--data", join(dataDir, "sandbox-data.json"), "--test-controls"],
        cwd: REPO_ROOT,
        env: childEnv(env, {}),
        logFile: join(logs, "sandbox.log"),
        echo: verbose,
      })
      register(handle)
      const [, json] = await handle.waitForOutput(/SANDBOX_READY (\{.*\})/, 60000)
      return { ...JSON.parse(json), ...testCardsIn(handle.output) }
    })

    const medusaEnv = childEnv(env, {
      NODE_ENV: "development",
      MEDUSA_DISABLE_TELEMETRY: "true",
      DATABASE_URL: databaseUrl,
      PORT: String(chosen.store),
      MEDUSA_BACKEND_URL: storeUrl,
      STOREFRONT_URL: storefrontUrl,
      // The demo storefront's own routes; SIPAY_SUCCESS_URL / SIPAY_FAILURE_URL set by the user win.
      SIPAY_SUCCESS_URL: env.SIPAY_SUCCESS_URL || "/order/confirmed/{order_id}",
      SIPAY_FAILURE_URL: env.SIPAY_FAILURE_URL || "/checkout?step=payment&cart_id={cart_id}&error={error}",
      // CORS values the user sets are kept (another storefront, e.g. Medusa's Next.js starter), the demo's added.
      STORE_CORS: withOrigins(env.STORE_CORS, storefrontUrl),
      ADMIN_CORS: withOrigins(env.ADMIN_CORS, storeUrl),
      AUTH_CORS: withOrigins(env.AUTH_CORS, storeUrl, storefrontUrl),
      JWT_SECRET: state.jwt_secret,
      COOKIE_SECRET: state.cookie_secret,
      MEDUSA_ADMIN_DISABLED: env.DEMO_ADMIN_DISABLED === "true" ? "true" : "false",
      ...(cluster ? clusterEnv(env) : {}),
      SIPAY_BRAND: "",
      SIPAY_BASE_URL: sandbox.base_url,
      SIPAY_PANEL_BASE_URL: sandbox.panel_url,
      SIPAY_APP_ID: sandbox.merchant.app_id,
      SIPAY_APP_SECRET: sandbox.merchant.app_secret,
      SIPAY_MERCHANT_KEY: sandbox.merchant.merchant_key,
      SIPAY_MERCHANT_ID: String(sandbox.merchant.merchant_id),
      SIPAY_SALE_WEBHOOK_KEY: SALE_WEBHOOK_KEY,
      SIPAY_RECURRING_WEBHOOK_KEY: RECURRING_WEBHOOK_KEY,
      SIPAY_ENABLE_DIRECT_PAYMENT: "true",
      SIPAY_ENABLE_SAVED_CARDS: "true",
      SIPAY_AGRICULTURAL_INSTALLMENTS: "true",
    })
    const medusa = (name, args, logName) => ({ name, command: process.execPath, args: [MEDUSA_CLI, ...args], cwd: REPO_ROOT, env: medusaEnv, logFile: join(logs, logName), echo: verbose })

    await step("Database migrations (medusa db:migrate)", async () => {
      const markFile = join(dataDir, "migrated.json")
      const fingerprint = migrationFingerprint(databaseUrl)
      const mark = existsSync(markFile) ? JSON.parse(readFileSync(markFile, "utf8")) : null
      if (!database.created && mark?.fingerprint === fingerprint) {
        return { detail: `skipped: same database, packages and migrations as the run of ${mark.at} (delete ${markFile} to run them)` }
      }
      await runChild(medusa("medusa db:migrate", ["db:migrate"], "migrate.log"))
      writeFileSync(markFile, JSON.stringify({ fingerprint, at: new Date().toISOString() }))
    })

    const seedFile = join(dataDir, "seed.json")
    const seed = await step("Demo store: region, products, publishable key, admin user", async () => {
      await runChild({
        ...medusa("demo seed", ["exec", "./src/scripts/demo-seed.ts"], "seed.log"),
        env: { ...medusaEnv, DEMO_SEED_OUTPUT: seedFile, DEMO_ADMIN_EMAIL, DEMO_ADMIN_PASSWORD: state.admin_password },
      })
      return JSON.parse(readFileSync(seedFile, "utf8"))
    })

    const running = await step(cluster ? "Medusa cluster: two servers and a worker behind one address" : "Medusa server with the admin", async () => {
      if (cluster) {
        const started = await startCluster({
          proxyPort: chosen.store,
          register,
          spec: (name, extra, logName) => ({ ...medusa(name, ["start"], logName), env: { ...medusaEnv, ...extra } }),
        })
        return { ...started, detail: started.instances.map(({ name, url }) => `${name} ${url}`).join(", ") }
      }
      const handle = startProcess(medusa("Medusa server", ["start"], "medusa.log"))
      register(handle)
      await waitForHttp(`${storeUrl}/health`, { timeoutMs: 180000, abortedBy: handle })
      return null
    })

    const storefront = await step("Demo storefront", async () => {
      const server = await startStorefrontServer({
        root: join(REPO_ROOT, "demo", "storefront"),
        port: chosen.storefront,
        files: { "/kit.js": await bundleStorefrontKit() },
        config: {
          storeUrl,
          publishableKey: seed.publishable_key,
          regionId: seed.region_id,
          sandboxUrl: sandbox.base_url,
          smsCode: sandbox.sms_code,
          testCards: sandbox.test_cards.map(({ number, description }) => ({ number, description })),
        },
      })
      register({ name: "demo storefront", stop: () => server.close() })
      return server
    })

    const ready = {
      store_url: storeUrl,
      admin_url: `${storeUrl}/app`,
      storefront_url: `http://localhost:${storefront.port}`,
      sandbox_url: sandbox.base_url,
      admin_email: DEMO_ADMIN_EMAIL,
      admin_password: state.admin_password,
      publishable_key: seed.publishable_key,
      region_id: seed.region_id,
      ...(running ? { cluster: { proxy_url: storeUrl, instances: running.instances } } : {}),
    }
    return { ready, sandbox, database, dataDir, logs, stop }
  } catch (error) {
    await stop()
    throw error
  }
}
