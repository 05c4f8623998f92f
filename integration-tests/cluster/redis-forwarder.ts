import { createConnection, createServer, type Server, type Socket } from "node:net"

/**
 * A TCP forwarder to Redis for one instance of the cluster: `cut()` closes every connection and stops
 * accepting (the instance's Redis becomes unreachable: connections refused), `restore()` listens
 * again on the same port. The other instances keep their direct connection.
 */
export async function startRedisForwarder(target = { host: "127.0.0.1", port: 6379 }) {
  const sockets = new Set<Socket>()
  let server: Server | null = null
  let port = 0

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const next = createServer((client) => {
        const upstream = createConnection(target)
        sockets.add(client).add(upstream)
        const drop = () => {
          client.destroy()
          upstream.destroy()
          sockets.delete(client)
          sockets.delete(upstream)
        }
        client.on("error", drop).on("close", drop)
        upstream.on("error", drop).on("close", drop)
        client.pipe(upstream).pipe(client)
      })
      next.once("error", reject)
      next.listen(port, "127.0.0.1", () => {
        const address = next.address()
        port = typeof address === "object" && address ? address.port : port
        server = next
        resolve()
      })
    })

  const closeServer = () =>
    new Promise<void>((resolve) => {
      const current = server
      server = null
      for (const socket of sockets) socket.destroy()
      sockets.clear()
      current ? current.close(() => resolve()) : resolve()
    })

  await listen()
  return {
    get port() {
      return port
    },
    cut: closeServer,
    restore: listen,
    close: closeServer,
  }
}
