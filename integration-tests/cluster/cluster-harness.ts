import { randomBytes } from "node:crypto"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import Redis from "ioredis"
import { startRedisForwarder } from "./redis-forwarder"
import { Pool } from "pg"
import { ModulesSdkUtils } from "@medusajs/framework/utils"
import { SipayClient } from "../../src/lib/sipay"
import { PostgresTokenStore } from "../../src/lib/shared-state/token-store"
import { freshDemoPlace, startDemo, type DemoReady, type RunningDemo } from "../harness/demo-stack"
import { SMS_TEST_CODE } from "../../src/sandbox"

/**
 * The cluster as `npm run demo -- --cluster` starts it (two Medusa server processes and a worker,
 * behind the demo's proxy, on Medusa's Redis modules), on its own PostgreSQL database and its own
 * Redis database index, for one suite. Requests are aimed at one instance with the proxy's
 * `x-cluster-instance` header, and the proxy counts what each instance handled.
 */

export type Instance = "server-a" | "server-b"
export type ClusterReady = DemoReady & {
  cluster: { proxy_url: string; instances: Array<{ name: string; mode: string; url: string; pid: number }> }
}

const CLAIM_KEY = "sipay-cluster-suite:owner"

/**
 * An empty Redis database index claimed for this run (a marker key set only where the database is
 * empty, so two runs never share one); `release()` empties it, and only while the marker is ours.
 */
export async function claimRedisDatabase(url = "redis://127.0.0.1:6379") {
  const owner = `run-${process.pid}-${randomBytes(4).toString("hex")}`
  for (let index = 15; index >= 1; index--) {
    const redis = new Redis(`${url}/${index}`, { lazyConnect: true, maxRetriesPerRequest: 1, retryStrategy: () => null })
    redis.on("error", () => undefined) // reported by connect() below
    await redis.connect().catch((error: Error) => {
      throw new Error(`the cluster suite needs the Redis at ${url} (issue 15): ${error.message}`)
    })
    const claimed = (await redis.dbsize()) === 0 && (await redis.set(CLAIM_KEY, owner, "EX", 3600, "NX")) === "OK" && (await redis.dbsize()) === 1
    if (claimed) {
      return {
        index,
        url: `${url}/${index}`,
        async keys(): Promise<string[]> {
          return redis.keys("*")
        },
        /** Jobs of a BullMQ queue not yet done: waiting, delayed, prioritized, paused or being worked on. */
        async unfinishedJobs(prefix: string, queue: string): Promise<number> {
          const key = (part: string) => `${prefix}:${queue}:${part}`
          const [wait, active, paused, delayed, prioritized] = await Promise.all([
            redis.llen(key("wait")),
            redis.llen(key("active")),
            redis.llen(key("paused")),
            redis.zcard(key("delayed")),
            redis.zcard(key("prioritized")),
          ])
          return wait + active + paused + delayed + prioritized
        },
        async release() {
          if ((await redis.get(CLAIM_KEY)) === owner) await redis.flushdb()
          redis.disconnect()
        },
      }
    }
    redis.disconnect()
  }
  throw new Error("no empty Redis database index (1-15) to run the cluster suite in")
}

function databaseUrl(name: string): string {
  const user = encodeURIComponent(process.env.DB_USERNAME ?? "postgres")
  const password = encodeURIComponent(process.env.DB_PASSWORD ?? "")
  return `postgres://${user}:${password}@${process.env.DB_HOST}:${process.env.DB_PORT}/${name}`
}

export type Cluster = Awaited<ReturnType<typeof startTestCluster>>

export async function startTestCluster(env: Record<string, string>) {
  const redis = await claimRedisDatabase()
  const prefix = `sipay-cluster-suite-${redis.index}`
  const place = freshDemoPlace()
  // server-a reaches Redis through a forwarder the suite can cut (readiness while Redis is unreachable).
  const serverARedis = await startRedisForwarder()
  let demo: RunningDemo
  try {
    demo = await startDemo(place, {
      timeoutMs: 480000,
      env: {
        DEMO_CLUSTER: "1",
        DEMO_ADMIN_DISABLED: "true",
        MEDUSA_CLUSTER_REDIS_URL: redis.url,
        MEDUSA_CLUSTER_REDIS_PREFIX: prefix,
        DEMO_SERVER_A_REDIS_URL: `redis://127.0.0.1:${serverARedis.port}/${redis.index}`,
        ...env,
      },
    })
  } catch (error) {
    await place.dispose()
    await redis.release()
    await serverARedis.close()
    throw error
  }
  const ready = demo.ready as ClusterReady
  const credentials = JSON.parse(readFileSync(join(place.dataDir, "credentials.json"), "utf8")).merchant
  const sandboxBase = ready.sandbox_url
  const linkBase = new URL(sandboxBase).origin
  const database = new Pool({
    host: process.env.DB_HOST,
    port: Number(process.env.DB_PORT),
    user: process.env.DB_USERNAME,
    password: process.env.DB_PASSWORD,
    database: place.databaseName,
  })
  // The suite's own look-ups at the gateway take the token the cluster shares (as one more process would).
  const knex = ModulesSdkUtils.createPgConnection({ clientUrl: databaseUrl(place.databaseName), schema: "public", pool: { min: 0, max: 2 } }) as any
  const merchant = { baseUrl: sandboxBase, appId: credentials.app_id, appSecret: credentials.app_secret, merchantKey: credentials.merchant_key }
  const gateway = new SipayClient({ ...merchant, merchantId: credentials.merchant_id, tokenStore: new PostgresTokenStore(() => knex, merchant) })

  const proxy = ready.cluster.proxy_url
  const instance = (name: string) => ready.cluster.instances.find((candidate) => candidate.name === name)!

  let adminToken: string | null = null
  async function admin(): Promise<Record<string, string>> {
    if (!adminToken) {
      const answer = await call("server-a", "POST", "/auth/user/emailpass", { email: ready.admin_email, password: ready.admin_password }, {})
      adminToken = answer.body.token
    }
    return { authorization: `Bearer ${adminToken}` }
  }

  /** One request through the proxy to the named instance (null: the proxy picks one, as for a shopper); JSON in and out. */
  async function call(to: Instance | null, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const response = await fetch(`${proxy}${path}`, {
      method,
      headers: { ...(to ? { "x-cluster-instance": to } : {}), ...(body === undefined ? {} : { "content-type": "application/json" }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
      redirect: "manual",
    })
    const text = await response.text()
    let parsed: any = text
    try {
      parsed = JSON.parse(text)
    } catch {
      // not JSON (a redirect, an HTML page)
    }
    return { status: response.status, body: parsed, location: response.headers.get("location") }
  }

  /** A browser's form post (the gateway's return, a webhook) to the named instance. */
  async function postForm(to: Instance, url: string, fields: Record<string, string>) {
    const path = new URL(url).pathname
    const response = await fetch(`${proxy}${path}`, {
      method: "POST",
      headers: { "x-cluster-instance": to, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(fields).toString(),
      redirect: "manual",
    })
    await response.arrayBuffer()
    return { status: response.status, location: response.headers.get("location") }
  }

  return {
    ready,
    redis,
    database,
    gateway,
    call,
    postForm,
    admin,
    instance,
    async sql<T = any>(text: string, values: unknown[] = []): Promise<T[]> {
      return (await database.query(text, values)).rows as T[]
    },
    /** Requests each server instance handled since the last reset. */
    async requests(reset = false): Promise<Record<Instance, number>> {
      const response = await fetch(`${proxy}/__cluster/requests`, { method: reset ? "DELETE" : "GET" })
      return (await response.json()) as Record<Instance, number>
    },
    /** Gateway calls per operation since the sandbox started (token fetches included). */
    async gatewayCalls(): Promise<Record<string, number>> {
      return (await (await fetch(`${linkBase}/__sandbox/calls`)).json()) as Record<string, number>
    },
    async sandbox(method: string, path: string, body?: unknown) {
      const response = await fetch(`${linkBase}/__sandbox/${path}`, {
        method,
        headers: body === undefined ? {} : { "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
      return response.json().catch(() => null)
    },
    smsCode: SMS_TEST_CODE,
    /** server-a's own way to Redis: cut() makes Redis unreachable for server-a alone, restore() gives it back. */
    serverARedis,
    /** Events queued on the Redis event bus (medusa-config.ts names its queue) not yet handled by the worker. */
    pendingEvents: () => redis.unfinishedJobs("RedisEventBusService", `${prefix}-events`),
    logs: join(place.dataDir, "logs"),
    async stop() {
      await database.end().catch(() => undefined)
      await knex.destroy().catch(() => undefined)
      await demo.stop()
      await serverARedis.close()
      await place.dispose()
      await redis.release()
    },
  }
}
