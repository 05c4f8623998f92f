/**
 * The class of a payment the gateway did not take, from its status code: what the shopper is told and
 * what a decline budget counts. Three classes only: a text per gateway code would be an oracle.
 */
export type DeclineClass = "card_declined" | "card_not_valid" | "try_later"

/** The card or its terms are not usable here: a validation refusal (number, expiry, CVV), no POS for the card's BIN, an installment the card does not have. */
const NOT_VALID = new Set([1, 36, 40, 62, 102])
/** The store's side, not the card: credentials, hash, merchant or integration settings, an invoice the gateway could not take, an order still pending. */
const TRY_LATER = new Set([3, 12, 13, 14, 30, 31, 32, 34, 68, 69, 90, 117])

/** The class of a gateway status code (as a number or text); anything unknown or absent is a decline. */
export function declineClassOf(statusCode: number | string | null | undefined): DeclineClass {
  const code = Number(String(statusCode ?? "").trim())
  if (NOT_VALID.has(code)) return "card_not_valid"
  // A server error's code (an HTTP status in the envelope) decides nothing about the card either.
  if (TRY_LATER.has(code) || code >= 500) return "try_later"
  return "card_declined"
}
