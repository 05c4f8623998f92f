// A small HTTP proxy in front of the server instances of a cluster, as a store's load balancer:
// requests go round-robin to the instances (or to the one named by the `x-cluster-instance`
// header, which tests use to aim at one), with X-Forwarded-For extended by the client's address the
// way Medusa's `trust proxy` and the plugin's `trustedProxies` option read it. Counts the requests
// each instance handled.
import { createServer, request as httpRequest } from "node:http"

export const INSTANCE_HEADER = "x-cluster-instance"
/** GET: requests handled per instance since the start or the last DELETE. */
export const CONTROL_PATH = "/__cluster/requests"

const HOP_BY_HOP = new Set(["connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade", "te", "trailer"])

/**
 * `backends`: [{ name, url }]. Returns { url, port, counts(), resetCounts(), setDown(name, down), close() };
 * the counts are also served at CONTROL_PATH.
 * An instance marked down (or refusing connections) is skipped while another one is up.
 */
export async function startClusterProxy({ backends, port = 0, host }) {
  const counts = Object.fromEntries(backends.map(({ name }) => [name, 0]))
  const down = new Set()
  let next = 0
  const pick = (wanted) => {
    if (wanted) return backends.find(({ name }) => name === wanted)
    const up = backends.filter(({ name }) => !down.has(name))
    const pool = up.length ? up : backends
    return pool[next++ % pool.length]
  }
  const forward = (req, res, backend, retryOthers) => {
    const target = new URL(req.url, backend.url)
    const headers = {}
    for (const [name, value] of Object.entries(req.headers)) {
      if (!HOP_BY_HOP.has(name) && name !== INSTANCE_HEADER) headers[name] = value
    }
    const client = req.socket.remoteAddress?.replace(/^::ffff:/, "") ?? ""
    headers["x-forwarded-for"] = req.headers["x-forwarded-for"] ? `${req.headers["x-forwarded-for"]}, ${client}` : client
    headers["x-forwarded-host"] = req.headers.host ?? ""
    headers["x-forwarded-proto"] = "http"
    const upstream = httpRequest(target, { method: req.method, headers }, (answer) => {
      counts[backend.name] += 1
      const out = {}
      for (const [name, value] of Object.entries(answer.headers)) {
        if (!HOP_BY_HOP.has(name)) out[name] = value
      }
      res.writeHead(answer.statusCode ?? 502, out)
      answer.pipe(res)
    })
    upstream.on("error", (error) => {
      if (retryOthers && error.code === "ECONNREFUSED" && !res.headersSent) {
        down.add(backend.name)
        const other = pick()
        if (other && other.name !== backend.name) return forward(req, res, other, false)
      }
      if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" })
      res.end(`cluster proxy: ${backend.name} did not answer (${error.code ?? error.message})`)
    })
    req.pipe(upstream)
  }
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
    // Only a request not aimed at an instance may go elsewhere (its body was not read yet: safe to resend).
    forward(req, res, backend, !wanted && (req.method === "GET" || req.method === "HEAD"))
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
      server.closeAllConnections?.()
      server.close(() => resolve())
    }),
  }
}
