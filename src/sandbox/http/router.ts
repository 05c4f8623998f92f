import type { IncomingMessage, ServerResponse } from "node:http"
import { GatewayError, UnauthenticatedError } from "../core/codes"
import { runSweepers, type Gateway } from "../core/gateway"
import type { Merchant } from "../types"
import { REQUEST_FAULTS } from "../faults"
import { BodyError, bearerToken, envelope, json, parseBody, UNAUTHENTICATED, type Reply } from "./io"

export type RequestContext = {
  req: IncomingMessage
  url: URL
  params: string[]
  body: Record<string, unknown>
  /** The bearer token's merchant, on routes with auth. */
  merchant: Merchant | null
  /** Work to run after the reply went out (webhooks). */
  after: (task: () => void) => void
}

export type Route = {
  method: "GET" | "POST" | "DELETE"
  /** Exact path, or a pattern whose groups become params. */
  path: string | RegExp
  /** Fault operation name (control API), if faults apply to this route. */
  operation?: string
  /** Request fault kinds this route takes; default all of REQUEST_FAULTS. */
  faultKinds?: readonly string[]
  auth?: boolean
  handle: (ctx: RequestContext, gateway: Gateway) => Reply | Promise<Reply>
}

function match(route: Route, method: string, path: string): string[] | null {
  if (route.method !== method) return null
  if (typeof route.path === "string") return route.path === path ? [] : null
  const found = route.path.exec(path)
  return found ? found.slice(1).map(decodeURIComponent) : null
}

function authenticate(req: IncomingMessage, gateway: Gateway): Merchant | null {
  const token = bearerToken(req)
  const record = token ? gateway.store.state.tokens[token] : undefined
  if (!record || record.expires_at_ms <= gateway.clock.now()) return null
  return gateway.merchants.byKey(record.merchant_key) ?? null
}

/**
 * The name a merchant API request is counted under (GET __sandbox/calls): the path after /api/
 * (token, paySmart2D, recurringPlan/query, dpl/create, ...), else the route's fault operation
 * (payment_complete). Browser pages (bank page, payer link page) are not counted.
 */
export function callName(route: Route): string | undefined {
  if (typeof route.path !== "string") return undefined
  const api = /\/api\/(.+)$/.exec(route.path)
  return api ? api[1] : route.operation
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

function send(res: ServerResponse, reply: Reply): void {
  res.writeHead(reply.status, { ...reply.headers, "content-length": Buffer.byteLength(reply.body) })
  res.end(reply.body)
}

export function createDispatcher(routes: Route[], gateway: Gateway) {
  return async function dispatch(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://sandbox.local")
    const path = url.pathname.replace(/\/+$/, "") || "/"
    let route: Route | undefined
    let params: string[] = []
    for (const candidate of routes) {
      const found = match(candidate, req.method ?? "GET", path)
      if (found) {
        route = candidate
        params = found
        break
      }
    }
    if (!route) {
      const otherMethod = routes.some((candidate) => match({ ...candidate, method: req.method as Route["method"] }, req.method ?? "GET", path))
      return send(res, otherMethod
        ? json({ status_code: 405, status_description: `The ${req.method} method is not supported for this route.` }, 405)
        : json({ status_code: 404, status_description: "Not Found" }, 404))
    }

    const counted = callName(route)
    if (counted) gateway.store.countCall(counted)
    const fault = route.operation ? gateway.faults.take(route.operation, route.faultKinds ?? REQUEST_FAULTS) : undefined
    // Latency is the gateway being slow after it has the request: the body is read first, so a
    // client that gives up meanwhile may still be charged, as with a real slow gateway.
    // A GET may carry a JSON body too (getCardTokens, as both published clients send it); its query string fills the rest.
    const bodyRead = req.method === "GET" ? parseBody(req).then((body) => ({ ...Object.fromEntries(url.searchParams), ...body })) : parseBody(req)
    bodyRead.catch(() => undefined)
    if (fault?.kind === "latency") await sleep(fault.ms)
    if (fault?.kind === "http_500") return send(res, json({ status_code: 500, status_description: "Server Error" }, 500))
    if (fault?.kind === "http_502") return send(res, { status: 502, headers: { "content-type": "text/html" }, body: "<html><body><h1>502 Bad Gateway</h1></body></html>" })
    if (fault?.kind === "drop_connection") return void req.socket.destroy()

    const tasks: Array<() => void> = []
    let reply: Reply
    try {
      runSweepers(gateway)
      const body = await bodyRead
      const merchant = route.auth ? authenticate(req, gateway) : null
      if (route.auth && !merchant) {
        reply = UNAUTHENTICATED
      } else {
        const ctx: RequestContext = { req, url, params, body, merchant, after: (task) => tasks.push(task) }
        reply = await route.handle(ctx, gateway)
      }
    } catch (error) {
      if (error instanceof GatewayError) reply = envelope(error.code, error.description)
      else if (error instanceof UnauthenticatedError) reply = UNAUTHENTICATED
      else if (error instanceof BodyError) reply = envelope(1, error.message)
      else {
        console.error("[sipay-sandbox] internal error", error)
        reply = json({ status_code: 500, status_description: "Internal sandbox error" }, 500)
      }
    }
    if (fault?.kind === "charge_then_drop") req.socket.destroy()
    else send(res, reply)
    for (const task of tasks) setImmediate(task)
  }
}
