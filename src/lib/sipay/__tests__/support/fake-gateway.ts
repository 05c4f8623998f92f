import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"

/** A real HTTP server standing in for the gateway: records every request and answers per path. */

export type Received = {
  method: string
  path: string
  headers: IncomingHttpHeaders
  rawBody: Buffer
  /** JSON bodies. */
  json?: any
  /** url-encoded bodies. */
  form?: Record<string, string>
  /** multipart bodies, parsed by the platform's own parser. */
  multipart?: FormData
}

export type Reply = {
  status?: number
  body?: unknown
  /** Sent verbatim instead of JSON. */
  raw?: string
  /** Destroy the socket without an answer. */
  drop?: boolean
  delayMs?: number
  /** Send the headers, then one byte of body every this many ms, never finishing. */
  trickleMs?: number
}

export type Handler = (request: Received, index: number) => Reply | Promise<Reply>

export const TEST_MERCHANT = {
  appId: "app-id-3f9a2c",
  appSecret: "app-secret-9d8e7f6a5b4c3d2e1f00",
  merchantKey: "$2y$10$merchantKeyTestValue0001",
}

export function istanbulTimestamp(date: Date): string {
  return new Date(date.getTime() + 3 * 3600_000).toISOString().slice(0, 19).replace("T", " ")
}

export type FakeGateway = {
  baseUrl: string
  requests: Received[]
  on(path: string, handler: Handler): void
  /** Requests received on a path (relative to baseUrl). */
  to(path: string): Received[]
  tokensIssued: string[]
  close(): Promise<void>
}

export const BASE_PATH = "/ccpayment"

export async function startFakeGateway(routes: Record<string, Handler> = {}): Promise<FakeGateway> {
  const handlers = new Map<string, Handler>(Object.entries(routes))
  const requests: Received[] = []
  const tokensIssued: string[] = []
  const counts = new Map<string, number>()
  if (!handlers.has("/api/token")) {
    handlers.set("/api/token", () => {
      const token = `tok-${tokensIssued.length + 1}-a8f3e2d1c0b9`
      tokensIssued.push(token)
      return {
        body: {
          status_code: 100,
          status_description: "Successfully",
          data: { token, is_3d: 1, expires_at: istanbulTimestamp(new Date(Date.now() + 2 * 3600_000)) },
        },
      }
    })
  }

  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = []
    for await (const chunk of req) {
      chunks.push(chunk as Buffer)
    }
    const rawBody = Buffer.concat(chunks)
    const path = (req.url ?? "").split("?")[0].replace(BASE_PATH, "")
    const received: Received = { method: req.method ?? "", path, headers: req.headers, rawBody }
    const type = String(req.headers["content-type"] ?? "")
    if (type.startsWith("application/json")) {
      received.json = JSON.parse(rawBody.toString("utf8"))
    } else if (type.startsWith("application/x-www-form-urlencoded")) {
      received.form = Object.fromEntries(new URLSearchParams(rawBody.toString("utf8")))
    } else if (type.startsWith("multipart/form-data")) {
      received.multipart = await new Response(rawBody, { headers: { "content-type": type } }).formData()
    }
    requests.push(received)
    const index = counts.get(path) ?? 0
    counts.set(path, index + 1)
    const handler = handlers.get(path)
    const reply: Reply = handler ? await handler(received, index) : { status: 404, body: { message: "not found" } }
    if (reply.delayMs) {
      await new Promise((resolve) => setTimeout(resolve, reply.delayMs))
    }
    if (reply.trickleMs) {
      res.writeHead(200, { "content-type": "application/json" })
      const timer = setInterval(() => res.write(" "), reply.trickleMs)
      res.on("close", () => clearInterval(timer))
      return
    }
    if (reply.drop) {
      req.socket.destroy()
      return
    }
    send(res, reply)
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return {
    baseUrl: `http://127.0.0.1:${port}${BASE_PATH}`,
    requests,
    tokensIssued,
    on: (path, handler) => handlers.set(path, handler),
    to: (path) => requests.filter((request) => request.path === path),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

function send(res: ServerResponse, reply: Reply): void {
  const text = reply.raw ?? JSON.stringify(reply.body ?? {})
  res.writeHead(reply.status ?? 200, { "content-type": reply.raw === undefined ? "application/json" : "text/html" })
  res.end(text)
}
