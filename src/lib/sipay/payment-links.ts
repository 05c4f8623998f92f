import { SipayError } from "./errors"
import type { PaymentLinkCurrency, PaymentLinkInput } from "./types"
import { compact, wireAmount } from "./wire"
import { istanbulDate } from "./calendar"

/** The wire format of the payment-link (DPL) operations: a multipart create and a JSON e-mail send. */

/** The link currency ids of the gateway: 1 TRY, 2 USD, 3 EUR. */
export const LINK_CURRENCY_IDS = { TRY: 1, USD: 2, EUR: 3 } as const

export const PAYMENT_LINK_TYPE_MULTI_USE = 2

const DATE = /^\d{4}-\d{2}-\d{2}$/
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

function invalid(operation: string, description: string): SipayError {
  return new SipayError({ operation, description, code: "validation" })
}

export function linkCurrencyId(currency: PaymentLinkCurrency): 1 | 2 | 3 {
  if (currency === 1 || currency === 2 || currency === 3) {
    return currency
  }
  const id = LINK_CURRENCY_IDS[currency as keyof typeof LINK_CURRENCY_IDS]
  if (!id) {
    throw invalid("dpl/create", "currency must be 1, 2, 3, TRY, USD or EUR")
  }
  return id
}

export { istanbulDate }

/** The text fields of dpl/create, in the interface's order. */
export function paymentLinkFields(input: PaymentLinkInput): Record<string, string> {
  const expireDate = input.expireDate instanceof Date ? istanbulDate(input.expireDate) : input.expireDate
  if (typeof expireDate !== "string" || !DATE.test(expireDate)) {
    throw invalid("dpl/create", "expireDate must be YYYY-MM-DD")
  }
  for (const [label, value] of [["name", input.name], ["description", input.description]] as const) {
    if (typeof value !== "string" || value.trim() === "") {
      throw invalid("dpl/create", `${label} is required`)
    }
  }
  const fields = compact({
    amount: wireAmount("dpl/create", input.amount),
    currency: String(linkCurrencyId(input.currency)),
    is_amount_set_by_user: input.isAmountSetByUser ? "1" : "0",
    payment_link_type: String(PAYMENT_LINK_TYPE_MULTI_USE),
    name_of_product: input.name,
    description: input.description,
    expire_date: expireDate,
    expire_hour: input.expireHour === undefined ? undefined : String(input.expireHour),
    max_number_of_uses: input.maxNumberOfUses === undefined ? undefined : String(input.maxNumberOfUses),
  })
  return fields as Record<string, string>
}

/** The multipart body of dpl/create: the text fields, then the photo as the product_photo file part. */
export function paymentLinkForm(input: PaymentLinkInput): FormData {
  const fields = paymentLinkFields(input)
  const photo = input.photo
  if (!photo || !(photo.data instanceof Uint8Array) || photo.data.byteLength === 0 || !photo.filename) {
    throw invalid("dpl/create", "photo with data and a filename is required")
  }
  const form = new FormData()
  for (const [name, value] of Object.entries(fields)) {
    form.append(name, value)
  }
  const file = new Blob([new Uint8Array(photo.data)], { type: photo.contentType || "application/octet-stream" })
  form.append("product_photo", file, photo.filename)
  return form
}

export function sendEmailBody(dplId: number, emails: string[]) {
  if (!Number.isInteger(dplId) || dplId <= 0) {
    throw invalid("dpl/sendemail", "dplId must be a positive integer")
  }
  if (!Array.isArray(emails) || emails.length === 0 || emails.some((email) => typeof email !== "string" || !EMAIL.test(email))) {
    throw invalid("dpl/sendemail", "emails must be a non-empty list of e-mail addresses")
  }
  return { dpl_id: dplId, payment_link_type: PAYMENT_LINK_TYPE_MULTI_USE, email: emails }
}
