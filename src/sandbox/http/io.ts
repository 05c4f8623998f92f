import type { IncomingMessage } from "node:http"

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

const MAX_BODY = 5 * 1024 * 1024

export async function readRaw(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req) {
    size += (chunk as Buffer).length
    if (size > MAX_BODY) throw new BodyError("request body too large")
    chunks.push(chunk as Buffer)
  }
  return Buffer.concat(chunks)
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
