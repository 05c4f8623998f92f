// A small HTTP proxy in front of the server instances of a cluster, as a store's load balancer:
// requests go round-robin to the instances (or to the one named by the `x-cluster-instance`
// header, which tests use to aim at one), with X-Forwarded-For extended by the client's address the
// way Medusa's `trust proxy` and the plugin's `trustedProxies` option read it. Counts the requests
// each instance handled. Health-checked: an instance whose /health fails (or refuses a connection)
// is taken out until it answers again; a request refused by an instance (it never reached it) is
// sent to another one, whatever its method.
import { createServer, request as httpRequest } from "node:http"

export const INSTANCE_HEADER = "x-cluster-instance"
/** GET: requests handled per instance since the start or the last DELETE. */
export const CONTROL_PATH = "/__cluster/requests"

const HOP_BY_HOP = new Set(["connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade", "te", "trailer"])

/** Request bodies are held (to be sent again to another instance) up to this size; a larger one is refused. */
const MAX_BODY_BYTES = 10 * 1024 * 1024

/**
 * `backends`: [{ name, url }]. Returns { url, port, counts(), resetCounts(), setDown(name, down), close() };
 * the counts are also served at CONTROL_PATH.
 * An instance marked down (its health check failed, or it refused a connection) is skipped while
 * another one is up. `healthEveryMs` (default 1000; 0: no checks) and `healthTimeoutMs` (default 1000).
 */
export async function startClusterProxy({ backends, port = 0, host, healthEveryMs = 1000, healthTimeoutMs = 1000 }) {
  const counts = Object.fromEntries(backends.map(({ name }) => [name, 0]))
  const down = new Set()
  let next = 0
  // Health checks: one at a time per instance, each with its own timeout; a pass brings an instance back.
  const checking = new Set()
  const checkHealth = async ({ name, url }) => {
    if (checking.has(name)) return
    checking.add(name)
    try {
      const answer = await fetch(new URL("/health", url), { signal: AbortSignal.timeout(healthTimeoutMs) })
      await answer.arrayBuffer()
      if (answer.ok) down.delete(name)
      else down.add(name)
    } catch {
      down.add(name)
    } finally {
      checking.delete(name)
    }
  }
  const healthTimer = healthEveryMs > 0 ? setInterval(() => backends.forEach((backend) => void checkHealth(backend)), healthEveryMs) : null
  healthTimer?.unref?.()
  const pick = (wanted) => {
    if (wanted) return backends.find(({ name }) => name === wanted)
    const up = backends.filter(({ name }) => !down.has(name))
    const pool = up.length ? up : backends
    return pool[next++ % pool.length]
  }
  const forward = (req, res, body, backend, retryOthers) => {
    const target = new URL(req.url, backend.url)
    const headers = {}
    for (const [name, value] of Object.entries(req.headers)) {
      if (!HOP_BY_HOP.has(name) && name !== INSTANCE_HEADER) headers[name] = value
    }
    const client = req.socket.remoteAddress?.replace(/^::ffff:/, "") ?? ""
    headers["x-forwarded-for"] = req.headers["x-forwarded-for"] ? `${req.headers["x-forwarded-for"]}, ${client}` : client
    headers["x-forwarded-host"] = req.headers.host ?? ""
    headers["x-forwarded-proto"] = "http"
    // A fresh connection per request: a kept-alive one to an instance that died fails with a reset, which
    // cannot tell "never reached it" from "reached it, then died"; a fresh one is refused, which can.
    const upstream = httpRequest(target, { method: req.method, headers, agent: false }, (answer) => {
      counts[backend.name] += 1
      const out = {}
      for (const [name, value] of Object.entries(answer.headers)) {
        if (!HOP_BY_HOP.has(name)) out[name] = value
      }
      res.writeHead(answer.statusCode ?? 502, out)
      answer.pipe(res)
    })
    upstream.on("error", (error) => {
      // Refused: the request never reached that instance, so it is safe to send to another, a POST too.
      // Anything else (reset, timeout) may have reached it: answered 502, never sent twice.
      if (error.code === "ECONNREFUSED") down.add(backend.name)
      if (retryOthers && error.code === "ECONNREFUSED" && !res.headersSent) {
        const other = pick()
        if (other && other.name !== backend.name && !down.has(other.name)) return forward(req, res, body, other, false)
      }
      if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" })
      res.end(`cluster proxy: ${backend.name} did not answer (${error.code ?? error.message})`)
    })
    upstream.end(body)
  }
  const readBody = (req) =>
    new Promise((resolve, reject) => {
      const chunks = []
      let size = 0
      req.on("data", (chunk) => {
        size += chunk.length
        if (size > MAX_BODY_BYTES) {
          reject(new Error("request body too large"))
          req.destroy()
          return
        }
        chunks.push(chunk)
      })
      req.on("end", () => resolve(Buffer.concat(chunks)))
      req.on("error", reject)
    })
  const server = createServer((req, res) => {
    if (req.url === CONTROL_PATH) {
      if (req.method === "DELETE") Object.keys(counts).forEach((name) => (counts[name] = 0))
      res.writeHead(200, { "content-type": "application/json" })
      res.end(JSON.stringify(counts))
      return
    }
    const wanted = req.headers[INSTANCE_HEADER]
    const backend = pick(typeof wanted === "string" ? wanted : undefined)
    if (!backend) {
      res.writeHead(400, { "content-type": "text/plain" })
      res.end(`cluster proxy: no instance named ${wanted}`)
      return
    }
    // Only a request not aimed at an instance may go elsewhere (tests aim to reach exactly that one).
    readBody(req).then(
      (body) => forward(req, res, body, backend, !wanted),
      () => {
        if (!res.headersSent) res.writeHead(413, { "content-type": "text/plain" })
        res.end("cluster proxy: request body too large")
      }
    )
  })
  await new Promise((resolve, reject) => {
    server.once("error", reject)
    server.listen(port, host, resolve) // no host: every interface, IPv4 and IPv6 (as Medusa listens)
  })
  const chosen = server.address().port
  return {
    port: chosen,
    url: `http://${host && host !== "0.0.0.0" && host !== "::" ? host : "localhost"}:${chosen}`,
    counts: () => ({ ...counts }),
    resetCounts: () => Object.keys(counts).forEach((name) => (counts[name] = 0)),
    setDown: (name, isDown = true) => (isDown ? down.add(name) : down.delete(name)),
    close: () => new Promise((resolve) => {
      if (healthTimer) clearInterval(healthTimer)
      server.closeAllConnections?.()
      server.close(() => resolve())
    }),
  }
}
