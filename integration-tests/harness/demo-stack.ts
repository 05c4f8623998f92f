import { ChildProcess, spawn } from "node:child_process"
import { chmodSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { Client } from "pg"

/**
 * The demo stack as `npm run demo` boots it (scripts/demo.mjs and scripts/lib/demo-stack.mjs: the
 * database from the env DB_*, the sandbox, migrations, seed, Medusa with its admin, the demo
 * storefront), on free ports, with its own database and data folder. For browser tests.
 */

export type DemoReady = {
  store_url: string
  admin_url: string
  storefront_url: string
  sandbox_url: string
  admin_email: string
  admin_password: string
  publishable_key: string
  region_id: string
}

export type RunningDemo = {
  ready: DemoReady
  /** Everything the demo printed up to its ready line. */
  output: string
  /** Stops it the way Ctrl-C does; resolves with its exit code. */
  stop: () => Promise<number | null>
}

const REPO_ROOT = resolve(__dirname, "..", "..")

export type DemoPlace = { dataDir: string; databaseName: string }

/** A fresh data folder under the temp dir and a fresh database name; `dispose()` removes both. */
export function freshDemoPlace(): DemoPlace & { dispose: () => Promise<void> } {
  const dataDir = mkdtempSync(join(tmpdir(), "sipay-demo-test-"))
  chmodSync(dataDir, 0o755)
  const databaseName = `sipay_demo_test_${Date.now().toString(36)}_${Math.floor(Math.random() * 1e6)}`
  return {
    dataDir,
    databaseName,
    dispose: async () => {
      const client = new Client({
        host: process.env.DB_HOST,
        port: Number(process.env.DB_PORT),
        user: process.env.DB_USERNAME,
        password: process.env.DB_PASSWORD,
        database: "postgres",
      })
      await client.connect().catch(() => undefined)
      await client.query(`drop database if exists "${databaseName}" with (force)`).catch(() => undefined)
      await client.end().catch(() => undefined)
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

/** Starts `node scripts/demo.mjs` on free ports and waits for its DEMO_READY line. */
export async function startDemo(place: DemoPlace, options: { timeoutMs?: number; env?: Record<string, string> } = {}): Promise<RunningDemo> {
  const { NODE_OPTIONS, ...env } = process.env
  const child = spawn(process.execPath, ["scripts/demo.mjs"], {
    cwd: REPO_ROOT,
    env: {
      ...env,
      DEMO_DATA_DIR: place.dataDir,
      DEMO_DB_NAME: place.databaseName,
      DEMO_STORE_PORT: "0",
      DEMO_STOREFRONT_PORT: "0",
      DEMO_SANDBOX_PORT: "0",
      ...options.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  })
  let output = ""
  child.stdout!.on("data", (chunk) => (output += chunk.toString("utf8")))
  child.stderr!.on("data", (chunk) => (output += chunk.toString("utf8")))
  const exited = new Promise<number | null>((resolveExit) => child.once("exit", (code) => resolveExit(code)))
  const ready = await new Promise<DemoReady>((resolveReady, reject) => {
    const timer = setTimeout(() => {
      stopDemo(child, exited)
      reject(new Error(`no DEMO_READY within ${options.timeoutMs ?? 240000} ms:\n${output}`))
    }, options.timeoutMs ?? 240000)
    const check = () => {
      const line = /^DEMO_READY (\{.*\})$/m.exec(output)
      if (line) {
        clearTimeout(timer)
        resolveReady(JSON.parse(line[1]) as DemoReady)
      }
    }
    child.stdout!.on("data", check)
    exited.then((code) => {
      clearTimeout(timer)
      reject(new Error(`the demo exited (${code}) before it was ready:\n${output}`))
    })
  })
  return { ready, output, stop: () => stopDemo(child, exited) }
}

async function stopDemo(child: ChildProcess, exited: Promise<number | null>): Promise<number | null> {
  if (child.exitCode === null && child.signalCode === null) {
    child.kill("SIGINT")
  }
  const timer = setTimeout(() => child.kill("SIGKILL"), 30000)
  const code = await exited
  clearTimeout(timer)
  return code
}

/** Logs in to the admin API with the demo's admin user; returns request headers. */
export async function adminHeaders(ready: DemoReady): Promise<Record<string, string>> {
  const response = await fetch(`${ready.store_url}/auth/user/emailpass`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: ready.admin_email, password: ready.admin_password }),
  })
  if (!response.ok) {
    throw new Error(`admin login answered ${response.status}: ${await response.text()}`)
  }
  const { token } = (await response.json()) as { token: string }
  return { authorization: `Bearer ${token}` }
}

export async function adminGet<T = any>(ready: DemoReady, headers: Record<string, string>, path: string): Promise<T> {
  const response = await fetch(`${ready.store_url}${path}`, { headers })
  if (!response.ok) {
    throw new Error(`GET ${path} answered ${response.status}: ${await response.text()}`)
  }
  return (await response.json()) as T
}

export type DemoStackHandle = {
  /** The running demo's DEMO_READY data (read it inside tests). */
  readonly ready: DemoReady
  readonly demo: RunningDemo
  /** Stops the demo the way Ctrl-C does and starts it again on the same data; resolves with the first stop's exit code. */
  restart: () => Promise<number | null>
}

/**
 * For a suite: boots the demo once in beforeAll (its own database and data folder, free ports,
 * admin enabled), and in afterAll stops it and removes its database and folder.
 */
export function useDemoStack(options: { env?: Record<string, string>; timeoutMs?: number } = {}): DemoStackHandle {
  const place = freshDemoPlace()
  let demo: RunningDemo | undefined
  const handle: DemoStackHandle = {
    get ready() {
      if (!demo) throw new Error("the demo is not running (read the handle inside a test)")
      return demo.ready
    },
    get demo() {
      if (!demo) throw new Error("the demo is not running (read the handle inside a test)")
      return demo
    },
    async restart() {
      const code = demo ? await demo.stop() : null
      demo = undefined
      demo = await startDemo(place, options)
      return code
    },
  }
  beforeAll(async () => {
    demo = await startDemo(place, options)
  })
  afterAll(async () => {
    await demo?.stop()
    await place.dispose()
  })
  return handle
}
