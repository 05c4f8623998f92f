import { randomBytes } from "node:crypto"
import { parseAmount } from "../core/amounts"
import { isCalendarDate, ISTANBUL_OFFSET_MS } from "../core/clock"
import { CODES, fail, optionalField, requireField } from "../core/codes"
import type { Gateway } from "../core/gateway"
import type { Merchant, PaymentLink } from "../types"

const MANDATORY = ["amount", "currency", "is_amount_set_by_user", "payment_link_type", "name_of_product", "description", "product_photo", "expire_date"]
/** The text fields echoed back as data.inputs. */
const ECHOED = ["amount", "currency", "is_amount_set_by_user", "payment_link_type", "name_of_product", "description"]
const PHOTO_TYPES = ["image/jpeg", "image/png", "image/gif", "image/webp"]
export const MULTI_USE_LINK_TYPE = "2"

function integerIn(body: Record<string, unknown>, field: string, min: number, max = Number.MAX_SAFE_INTEGER): number | null {
  const text = optionalField(body, field)
  if (text === "") return null
  if (!/^\d+$/.test(text) || Number(text) < min || Number(text) > max) fail(CODES.VALIDATION, `The ${field} must be an integer from ${min}${max < Number.MAX_SAFE_INTEGER ? ` to ${max}` : ""}.`)
  return Number(text)
}

export function requireLinkType(body: Record<string, unknown>): void {
  if (requireField(body, "payment_link_type") !== MULTI_USE_LINK_TYPE) fail(CODES.VALIDATION, "The payment_link_type must be 2 (multi-use link).")
}

function checkPhoto(value: unknown): PaymentLink["photo"] {
  if (!(value instanceof Blob)) fail(CODES.VALIDATION, "The product_photo must be a file.")
  const type = value.type.toLowerCase()
  if (value.size === 0) fail(CODES.VALIDATION, "The product_photo must not be empty.")
  if (!PHOTO_TYPES.includes(type)) fail(CODES.VALIDATION, `The product_photo must be an image (${PHOTO_TYPES.join(", ")}).`)
  return { content_type: type, size: value.size, filename: (value as File).name ?? "" }
}

/** The link's expiry: expire_date at expire_hour:00 Istanbul time, or the end of that day without an hour. */
function expiryOf(date: string, hour: number | null): number {
  const midnight = Date.parse(`${date}T00:00:00Z`) - ISTANBUL_OFFSET_MS
  return hour === null ? midnight + 24 * 3600 * 1000 - 1000 : midnight + hour * 3600 * 1000
}

/** dpl/create: the interface's rules in order; the first broken one answers (docs/sandbox.md lists the codes). */
export function validateLink(body: Record<string, unknown>, merchant: Merchant, gateway: Gateway): PaymentLink {
  for (const field of MANDATORY) requireField(body, field)
  const amount = parseAmount(body.amount)
  if (amount === null || amount === 0) fail(CODES.VALIDATION, "The amount must be a positive amount (at most 2 decimals).")
  const currency = String(body.currency).trim()
  if (!["1", "2", "3"].includes(currency)) fail(CODES.INVALID_CURRENCY, "The currency must be 1 (TRY), 2 (USD) or 3 (EUR).")
  const byUser = String(body.is_amount_set_by_user).trim()
  if (byUser !== "0" && byUser !== "1") fail(CODES.VALIDATION, "The is_amount_set_by_user must be 0 or 1.")
  requireLinkType(body)
  const photo = checkPhoto(body.product_photo)
  const date = String(body.expire_date).trim()
  if (!isCalendarDate(date)) fail(CODES.VALIDATION, "The expire_date must be a date in the format YYYY-MM-DD.")
  const hour = integerIn(body, "expire_hour", 0, 23)
  const now = gateway.clock.now()
  const expiresAt = expiryOf(date, hour)
  if (expiresAt <= now) fail(CODES.VALIDATION, "The expire_date and expire_hour must be in the future.")
  const maxUses = integerIn(body, "max_number_of_uses", 1) ?? 0
  return {
    id: gateway.store.nextId("dpl", 1),
    merchant_key: merchant.merchant_key,
    token: randomBytes(8).toString("hex"),
    amount_minor: amount,
    currency_id: Number(currency) as PaymentLink["currency_id"],
    is_amount_set_by_user: Number(byUser) as 0 | 1,
    name_of_product: String(body.name_of_product).trim(),
    description: String(body.description).trim(),
    photo,
    expires_at_ms: expiresAt,
    expire_time: Math.floor((expiresAt - now) / 3600_000),
    max_number_of_uses: maxUses,
    number_of_uses: 0,
    status: "ACTIVE",
    is_email_send: 0,
    inputs: Object.fromEntries(ECHOED.map((field) => [field, String(body[field])])),
    created_at_ms: now,
    updated_at_ms: now,
  }
}
