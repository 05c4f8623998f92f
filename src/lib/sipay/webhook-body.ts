/**
 * The sale webhook's fields, whether it arrived form-encoded (already parsed by the framework) or
 * as JSON, or only as the raw body.
 */
export function webhookFields(payload: { data?: unknown; rawData?: unknown } | undefined): Record<string, unknown> {
  const body = payload?.data
  if (body && typeof body === "object" && !Buffer.isBuffer(body) && Object.keys(body).length) {
    return body as Record<string, unknown>
  }
  const raw = payload?.rawData ?? body
  const text = Buffer.isBuffer(raw) ? raw.toString("utf8") : typeof raw === "string" ? raw : ""
  if (!text) {
    return {}
  }
  try {
    const parsed = JSON.parse(text)
    return parsed && typeof parsed === "object" ? parsed : {}
  } catch {
    return Object.fromEntries(new URLSearchParams(text))
  }
}
