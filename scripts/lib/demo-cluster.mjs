// The cluster form of the demo (`npm run demo -- --cluster`): two Medusa server instances and a
// worker (MEDUSA_WORKER_MODE), each its own process on its own port, sharing the database and Redis
// through Medusa's Redis modules (medusa-config.ts, MEDUSA_CLUSTER_REDIS_URL), behind one address
// served by a small proxy (./demo-proxy.mjs).
import { createConnection } from "node:net"
import { claimPort, startProcess, waitForHttp } from "./demo-processes.mjs"
import { startClusterProxy } from "./demo-proxy.mjs"

export const DEFAULT_CLUSTER_REDIS_URL = "redis://127.0.0.1:6379"

export const CLUSTER_INSTANCES = [
  { name: "server-a", mode: "server" },
  { name: "server-b", mode: "server" },
  { name: "worker", mode: "worker" },
]

/** The environment every instance of the cluster shares (beside the database and the plugin's options). */
export function clusterEnv(env = process.env) {
  return {
    MEDUSA_CLUSTER_REDIS_URL: env.MEDUSA_CLUSTER_REDIS_URL || DEFAULT_CLUSTER_REDIS_URL,
    MEDUSA_CLUSTER_REDIS_PREFIX: env.MEDUSA_CLUSTER_REDIS_PREFIX || "medusa-sipay-demo",
    // The proxy below is on this machine: the plugin believes the address it forwards.
    SIPAY_TRUSTED_PROXIES: env.SIPAY_TRUSTED_PROXIES || "loopback",
  }
}

/** Rejects with a clear message when nothing answers at the Redis address. */
export async function assertRedisAnswers(redisUrl) {
  const { hostname, port } = new URL(redisUrl)
  await new Promise((resolve, reject) => {
    const socket = createConnection({ host: hostname || "127.0.0.1", port: Number(port || 6379) })
    const fail = (error) => {
      socket.destroy()
      reject(new Error(`no Redis answers at ${redisUrl} (${error.code ?? error.message}); a cluster needs one: start Redis or set MEDUSA_CLUSTER_REDIS_URL`))
    }
    socket.setTimeout(3000, () => fail(new Error("timeout")))
    socket.once("error", fail)
    socket.once("connect", () => socket.write("PING\r\n"))
    socket.once("data", (data) => {
      socket.end()
      String(data).startsWith("+PONG") || String(data).startsWith("-NOAUTH") ? resolve() : fail(new Error(String(data).trim()))
    })
  })
}

/**
 * Starts the three instances (`spec(name, extraEnv, logName)` gives each one's process options),
 * waits until each answers /health, then the proxy on `proxyPort`. `register(part)` receives every
 * part to stop. Returns the proxy and the instances ({ name, mode, url, pid }).
 */
export async function startCluster({ spec, proxyPort, register }) {
  const instances = []
  for (const instance of CLUSTER_INSTANCES) {
    const port = await claimPort(0, `Medusa ${instance.name}`, "")
    // DEMO_<NAME>_REDIS_URL (e.g. DEMO_SERVER_A_REDIS_URL): that instance reaches Redis another way (a test's forwarder it can cut).
    const ownRedis = process.env[`DEMO_${instance.name.toUpperCase().replace(/-/g, "_")}_REDIS_URL`]
    const extra = { PORT: String(port), MEDUSA_WORKER_MODE: instance.mode, ...(ownRedis ? { MEDUSA_CLUSTER_REDIS_URL: ownRedis } : {}) }
    const handle = startProcess(spec(`Medusa ${instance.name}`, extra, `medusa-${instance.name}.log`))
    register(handle)
    instances.push({ ...instance, url: `http://localhost:${port}`, handle })
  }
  await Promise.all(instances.map(({ url, handle }) => waitForHttp(`${url}/health`, { timeoutMs: 300000, abortedBy: handle })))
  const proxy = await startClusterProxy({
    port: proxyPort,
    backends: instances.filter(({ mode }) => mode === "server").map(({ name, url }) => ({ name, url })),
  })
  register({ name: "cluster proxy", stop: () => proxy.close() })
  return {
    proxy,
    instances: instances.map(({ name, mode, url, handle }) => ({ name, mode, url, pid: handle.child.pid })),
  }
}
