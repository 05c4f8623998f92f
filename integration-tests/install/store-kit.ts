import { ChildProcess, spawn } from "node:child_process"
import { createWriteStream, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"

/**
 * A Medusa store in a temporary folder, laid out the way create-medusa-app lays one out (the
 * dtc-starter backend's package.json, its versions written here, Medusa's packages at the tested
 * version, its `--legacy-peer-deps` base install), and the processes a store owner starts in it.
 * Nothing is resolved at run time: every version below is pinned.
 */

/** Newest Medusa the plugin is built and tested against, and the oldest the bounded smoke passed on. */
export const MEDUSA_CURRENT = "2.21.2"
export const MEDUSA_OLDEST = "2.15.2"

/** What create-medusa-app keeps from the starter whatever Medusa version it installs. */
const STARTER_PINS = {
  "@medusajs/ui": "4.2.0",
  "@tanstack/react-query": "5.64.2",
  "react-i18next": "13.5.0",
  "react-router-dom": "6.30.4",
  zod: "4.2.0",
}

const MEDUSA_PACKAGES = ["admin-sdk", "admin-shared", "caching", "cli", "dashboard", "draft-order", "framework", "medusa"]

export function storeManifest(medusaVersion: string) {
  return {
    name: "sipay-install-test-store",
    version: "0.0.1",
    private: true,
    scripts: { build: "medusa build", start: "medusa start", dev: "medusa develop" },
    dependencies: {
      ...Object.fromEntries(MEDUSA_PACKAGES.map((name) => [`@medusajs/${name}`, medusaVersion])),
      ...STARTER_PINS,
    },
    devDependencies: {
      "@medusajs/test-utils": medusaVersion,
      "@swc/core": "1.16.18",
      "@types/node": "20.19.43",
      "@types/react": "18.3.31",
      "@types/react-dom": "18.3.7",
      react: "18.3.1",
      "react-dom": "18.3.1",
      "ts-node": "10.9.2",
      typescript: "5.9.3",
      vite: "5.4.21",
    },
    engines: { node: ">=20" },
  }
}

/** The compiler settings of a create-medusa-app backend (CommonJS output, Node16 resolution). */
const STORE_TSCONFIG = {
  compilerOptions: {
    target: "ES2021",
    esModuleInterop: true,
    module: "Node16",
    moduleResolution: "Node16",
    emitDecoratorMetadata: true,
    experimentalDecorators: true,
    skipLibCheck: true,
    skipDefaultLibCheck: true,
    declaration: false,
    sourceMap: false,
    inlineSourceMap: true,
    outDir: "./.medusa/server",
    rootDir: "./",
    jsx: "react-jsx",
    forceConsistentCasingInFileNames: true,
    resolveJsonModule: true,
    checkJs: false,
    strictNullChecks: true,
  },
  "ts-node": { swc: true },
  include: ["**/*", ".medusa/types/*"],
  exclude: ["node_modules", ".medusa/server", ".medusa/admin", ".cache"],
}

export function writeStoreSkeleton(dir: string, medusaVersion: string) {
  mkdirSync(join(dir, "src"), { recursive: true })
  writeFileSync(join(dir, "package.json"), JSON.stringify(storeManifest(medusaVersion), null, 2))
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify(STORE_TSCONFIG, null, 2))
  writeFileSync(join(dir, ".gitignore"), "node_modules\n.env\n.medusa\n")
}

/** The .env create-medusa-app writes (its CORS lists, secrets and database URL), with this test's ports. */
export function baseEnv(options: { databaseUrl: string; storePort: number; storefrontPort: number }): string {
  const admin = `http://localhost:${options.storePort}`
  const storefront = `http://localhost:${options.storefrontPort}`
  return [
    "MEDUSA_ADMIN_ONBOARDING_TYPE=default",
    `STORE_CORS=${storefront}`,
    `ADMIN_CORS=${admin}`,
    `AUTH_CORS=${admin},${storefront}`,
    "REDIS_URL=redis://localhost:6379",
    "JWT_SECRET=supersecret",
    "COOKIE_SECRET=supersecret",
    `DATABASE_URL=${options.databaseUrl}`,
    "",
  ].join("\n")
}

export type Finished = { code: number; output: string; seconds: number }

/** The machine's npm cache is used as is (no registry of its own); npm's update check stays quiet. */
export function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env }
  // The test's own environment must not leak into the store: the store reads its .env, and npm
  // (under `npm test`) sets npm_config_local_prefix to this repository, which would make the
  // store's npm install here. Only the cache location is kept: the machine's npm cache.
  for (const name of Object.keys(env)) {
    const leaks = name.startsWith("SIPAY_") || ["DATABASE_URL", "MEDUSA_BACKEND_URL", "STOREFRONT_URL", "NODE_ENV", "INIT_CWD"].includes(name) || (name.startsWith("npm_") && name !== "npm_config_cache")
    if (leaks) delete env[name]
  }
  Object.assign(env, { NODE_OPTIONS: "", npm_config_update_notifier: "false", npm_config_fund: "false", npm_config_audit: "false" }, extra)
  return env
}

/** Runs a command to its end; the output is kept (and written to the log) for the assertions. */
export function run(command: string, args: string[], options: { cwd: string; log: string; env?: Record<string, string>; timeoutMs?: number }): Promise<Finished> {
  const started = Date.now()
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: childEnv(options.env), stdio: ["ignore", "pipe", "pipe"] })
    const log = createWriteStream(options.log, { flags: "a" })
    log.write(`\n$ ${command} ${args.join(" ")}\n`)
    let output = ""
    const take = (chunk: Buffer) => {
      output += chunk.toString()
      log.write(chunk)
    }
    child.stdout.on("data", take)
    child.stderr.on("data", take)
    const timer = setTimeout(() => {
      child.kill("SIGKILL")
      reject(new Error(`${command} ${args.join(" ")} did not finish in ${options.timeoutMs} ms; log ${options.log}`))
    }, options.timeoutMs ?? 10 * 60_000)
    child.on("error", reject)
    child.on("close", (code) => {
      clearTimeout(timer)
      log.end()
      resolve({ code: code ?? 1, output, seconds: (Date.now() - started) / 1000 })
    })
  })
}

export type Background = { child: ChildProcess; output: () => string; waitFor: (pattern: RegExp, timeoutMs: number) => Promise<RegExpExecArray>; stop: () => Promise<void> }

/** A long-running process (sandbox, `medusa develop`) in its own process group, so stopping it stops its children. */
export function startBackground(command: string, args: string[], options: { cwd: string; log: string; env?: Record<string, string> }): Background {
  const child = spawn(command, args, { cwd: options.cwd, env: childEnv(options.env), stdio: ["ignore", "pipe", "pipe"], detached: true })
  const log = createWriteStream(options.log, { flags: "a" })
  let output = ""
  const take = (chunk: Buffer) => {
    output += chunk.toString()
    log.write(chunk)
  }
  child.stdout!.on("data", take)
  child.stderr!.on("data", take)
  let exited = false
  child.on("exit", () => (exited = true))
  return {
    child,
    output: () => output,
    waitFor: async (pattern, timeoutMs) => {
      const deadline = Date.now() + timeoutMs
      for (;;) {
        const match = pattern.exec(output)
        if (match) return match
        if (exited) throw new Error(`${command} ${args.join(" ")} exited before ${pattern}; log ${options.log}`)
        if (Date.now() > deadline) throw new Error(`${command} ${args.join(" ")}: no ${pattern} within ${timeoutMs} ms; log ${options.log}`)
        await new Promise((resolve) => setTimeout(resolve, 200))
      }
    },
    stop: async () => {
      if (exited || child.pid === undefined) return
      const gone = new Promise<void>((resolve) => child.once("exit", () => resolve()))
      try {
        process.kill(-child.pid, "SIGTERM")
      } catch {
        return
      }
      const timer = setTimeout(() => {
        try {
          process.kill(-child.pid!, "SIGKILL")
        } catch {
          // Already gone.
        }
      }, 10_000)
      await gone
      clearTimeout(timer)
      log.end()
    },
  }
}

export async function waitForHttp(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    try {
      const response = await fetch(url)
      if (response.ok) return
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer within ${timeoutMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 500))
  }
}

/** The version of a package installed in the store, read from its folder (some packages do not export package.json). */
export function installedVersion(storeDir: string, name: string): string {
  return JSON.parse(readFileSync(join(storeDir, "node_modules", name, "package.json"), "utf8")).version
}
