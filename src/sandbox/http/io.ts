import type { IncomingMessage, ServerResponse } from "node:http"

/** What a handler answers; the server sends it (or drops it, under a fault). */
export type Reply = { status: number; headers: Record<string, string>; body: string }

export function json(body: unknown, status = 200): Reply {
  return { status, headers: { "content-type": "application/json; charset=utf-8" }, body: JSON.stringify(body) }
}

export function html(body: string, status = 200): Reply {
  return { status, headers: { "content-type": "text/html; charset=utf-8" }, body }
}

export function seeOther(location: string): Reply {
  return { status: 303, headers: { location, "content-type": "text/plain; charset=utf-8" }, body: `See ${location}` }
}

export function envelope(statusCode: number, description: string, extra: Record<string, unknown> = {}): Reply {
  return json({ status_code: statusCode, status_description: description, ...extra })
}

export const UNAUTHENTICATED: Reply = json({ status_code: 401, status_description: "Unauthenticated." }, 401)

/** Bodies above this answer HTTP 413, as a web server in front of the gateway would. */
export const MAX_BODY = 5 * 1024 * 1024

/** Bodies read (within the limit) before the request was dispatched. */
const bodies = new WeakMap<IncomingMessage, Buffer>()

async function readLimited(req: IncomingMessage): Promise<Buffer | null> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req) {
    size += (chunk as Buffer).length
    if (size > MAX_BODY) return null
    chunks.push(chunk as Buffer)
  }
  return Buffer.concat(chunks)
}

export async function readRaw(req: IncomingMessage): Promise<Buffer> {
  const read = bodies.get(req)
  if (read) return read
  const raw = await readLimited(req)
  if (raw === null) throw new BodyError("request body too large")
  return raw
}

const TOO_LARGE = JSON.stringify({ status_code: 413, status_description: "Request Entity Too Large" })

/**
 * Reads every request's body before `handle` sees it; one over MAX_BODY (declared or streamed) is
 * answered HTTP 413 and the rest of it is discarded.
 */
export function withBodyLimit(handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const declared = Number(req.headers["content-length"] ?? 0)
    const raw = declared > MAX_BODY ? null : await readLimited(req).catch(() => Buffer.alloc(0))
    if (raw === null) {
      req.resume()
      res.writeHead(413, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(TOO_LARGE), connection: "close" })
      res.end(TOO_LARGE)
      return
    }
    bodies.set(req, raw)
    await handle(req, res)
  }
}

export class BodyError extends Error {}

/** JSON, form-urlencoded and multipart bodies, as the gateway (a Laravel app) accepts them all. */
export async function parseBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const raw = await readRaw(req)
  if (raw.length === 0) return {}
  const type = String(req.headers["content-type"] ?? "").toLowerCase()
  if (type.includes("application/x-www-form-urlencoded")) {
    return Object.fromEntries(new URLSearchParams(raw.toString("utf8")))
  }
  if (type.includes("multipart/form-data")) {
    const form = await new Response(new Uint8Array(raw), { headers: { "content-type": String(req.headers["content-type"]) } }).formData()
    const body: Record<string, unknown> = {}
    form.forEach((value, key) => {
      body[key] = value
    })
    return body
  }
  try {
    const parsed = JSON.parse(raw.toString("utf8"))
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) return parsed
  } catch {
    // fall through
  }
  throw new BodyError("The request body must be a JSON object or a form.")
}

export function bearerToken(req: IncomingMessage): string | null {
  const header = req.headers.authorization
  const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null
  return match ? match[1] : null
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!)
}
