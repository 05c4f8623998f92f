import type { MedusaNextFunction, MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { DirectPaymentBody } from "../validators"

/**
 * The direct payment's body carries a card, so the plugin reads it itself: Medusa's body parser
 * copies the first characters of malformed JSON into its error, and its validator puts a mistyped
 * field's value into its message, answered and logged (docs: medusa-notes.md). Every refusal here is
 * a fixed sentence that names at most a field, never a value the request sent.
 */

/** Far above any direct payment's body; anything bigger is not one. */
export const DIRECT_PAYMENT_BODY_LIMIT_BYTES = 16 * 1024

export type DirectPaymentRefusal = { status: 400 | 413; message: string }

export const MISSING_CART_MESSAGE =
  "cart_id is required: the id of the cart this payment session pays. A storefront that sends no cart_id uses an older medusa-plugin-sipay-storefront: upgrade it together with medusa-plugin-sipay (its payDirect sends the cart id)."

const NOT_JSON = "The direct payment must be sent as a JSON object (Content-Type: application/json)"
const MALFORMED = "The direct payment's body is not valid JSON"
const TOO_LARGE = "The direct payment's body is too large"

/** What each field must be, as the shopper's storefront is told (never what it sent). */
const FIELD_RULES: Record<string, string> = {
  cart_id: "cart_id must be the id of the cart this payment session pays (a string)",
  installments_number: "installments_number must be a whole number from 1 to 12",
  maturity_period: "maturity_period must be a positive whole number",
  payment_frequency: "payment_frequency must be a positive whole number",
  card: "card must be an object with holder_name, number, expiry_month, expiry_year and cvv, each a string",
  "card.holder_name": "card.holder_name must be a string of 1 to 100 characters",
  "card.number": "card.number must be a string of 12 to 19 digits",
  "card.expiry_month": "card.expiry_month must be a string from 1 to 12",
  "card.expiry_year": "card.expiry_year must be a string of 2 or 4 digits",
  "card.cvv": "card.cvv must be a string of 3 or 4 digits",
  save_card: "save_card must be { consent_version }: the version of the card-saving consent text the shopper accepted",
}

/** A key may be named back only when it cannot be data: short lower-case words. */
const NAMEABLE_KEY = /^[a-z_]{1,40}$/

function unknownKeysMessage(where: string, keys: unknown[]): string {
  const named = keys.map(String).filter((key) => NAMEABLE_KEY.test(key))
  const place = where ? `${where} has` : "The direct payment has"
  return named.length === keys.length && named.length > 0 ? `${place} fields it does not take: ${named.join(", ")}` : `${place} fields it does not take`
}

/**
 * The body as the route uses it, or the refusal to answer. `raw` is the request's bytes as text;
 * `contentType` its header.
 */
export function parseDirectPaymentBody(raw: string, contentType: string | undefined): { body: DirectPaymentBody } | { refusal: DirectPaymentRefusal } {
  if (!/^application\/json\s*(;|$)/i.test(String(contentType ?? "").trim())) {
    return { refusal: { status: 400, message: NOT_JSON } }
  }
  let value: unknown
  try {
    value = JSON.parse(raw)
  } catch {
    return { refusal: { status: 400, message: MALFORMED } }
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) {
    return { refusal: { status: 400, message: NOT_JSON } }
  }
  if ((value as Record<string, unknown>).cart_id === undefined) {
    return { refusal: { status: 400, message: MISSING_CART_MESSAGE } }
  }
  const parsed = DirectPaymentBody.safeParse(value)
  if (parsed.success) {
    return { body: parsed.data }
  }
  const messages = parsed.error.issues.map((issue) => {
    const path = issue.path.map(String).join(".")
    if (issue.code === "unrecognized_keys") {
      return unknownKeysMessage(path, issue.keys)
    }
    return FIELD_RULES[path] ?? FIELD_RULES[path.split(".")[0]] ?? "The direct payment's body is not valid"
  })
  return { refusal: { status: 400, message: [...new Set(messages)].join("; ") } }
}

/** The request's body as text, or null past `limit` bytes (reading then stops: the answer closes the connection). */
function readText(req: MedusaRequest, limit: number): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size > limit) {
        req.off("data", onData)
        req.pause()
        resolve(null)
        return
      }
      chunks.push(chunk)
    }
    req.on("data", onData)
    req.once("end", () => resolve(Buffer.concat(chunks).toString("utf8")))
    req.once("error", reject)
  })
}

/**
 * Middleware of the direct-payment route (registered with `bodyParser: false`): reads and checks the
 * body, puts it in `req.validatedBody`, or answers the refusal itself (Medusa's error handler, which
 * logs, never sees it).
 */
export async function readDirectPaymentBody(req: MedusaRequest, res: MedusaResponse, next: MedusaNextFunction): Promise<void> {
  let outcome: ReturnType<typeof parseDirectPaymentBody>
  try {
    const raw = await readText(req, DIRECT_PAYMENT_BODY_LIMIT_BYTES)
    outcome = raw === null ? { refusal: { status: 413, message: TOO_LARGE } } : parseDirectPaymentBody(raw, req.headers["content-type"])
  } catch {
    // The client went away mid-body, or sent bytes that do not decode: nothing to answer with but a fixed refusal.
    outcome = { refusal: { status: 400, message: MALFORMED } }
  }
  if ("refusal" in outcome) {
    res.setHeader("Cache-Control", "no-store")
    if (outcome.refusal.status === 413) {
      res.setHeader("Connection", "close")
    }
    res.status(outcome.refusal.status).json({ type: "invalid_data", message: outcome.refusal.message })
    return
  }
  ;(req as MedusaRequest<DirectPaymentBody>).validatedBody = outcome.body
  next()
}
