/**
 * The checks a card passes before anything is sent to the gateway: a number of 12 to 19 digits that
 * passes Luhn, a real expiry month that has not passed. A mistyped card is told at once, costs no
 * gateway call and is no decline. Pure and import-free: the storefront kit bundles it for its forms.
 */

export type CardProblem = "card_number_invalid" | "card_expiry_invalid" | "card_expired"

export type CardToCheck = { number: string; expiry_month: string; expiry_year: string }

/** A card may be used until the end of its expiry month wherever its holder is: the latest time zone is UTC-12. */
const LATEST_ZONE_MS = 12 * 3600 * 1000
const FURTHEST_EXPIRY_YEARS = 50

/** The digits of a card number as typed (spaces and dashes dropped), or null when anything else is in it. */
export function cardDigits(number: string): string | null {
  const digits = String(number).replace(/[\s-]/g, "")
  return /^\d+$/.test(digits) ? digits : null
}

export function luhnValid(digits: string): boolean {
  let sum = 0
  for (let i = 0; i < digits.length; i++) {
    let digit = digits.charCodeAt(digits.length - 1 - i) - 48
    if (i % 2 === 1) {
      digit *= 2
      if (digit > 9) digit -= 9
    }
    sum += digit
  }
  return sum % 10 === 0
}

/** What is wrong with the card, or null when it may be sent. */
export function checkCard(card: CardToCheck, nowMs = Date.now()): CardProblem | null {
  const digits = cardDigits(card.number)
  if (!digits || digits.length < 12 || digits.length > 19 || !luhnValid(digits)) {
    return "card_number_invalid"
  }
  const monthText = String(card.expiry_month).trim()
  const yearText = String(card.expiry_year).trim()
  if (!/^\d{1,2}$/.test(monthText) || !/^(\d{2}|\d{4})$/.test(yearText)) {
    return "card_expiry_invalid"
  }
  const month = Number(monthText)
  const year = yearText.length === 2 ? 2000 + Number(yearText) : Number(yearText)
  const now = new Date(nowMs - LATEST_ZONE_MS)
  if (month < 1 || month > 12 || year > now.getUTCFullYear() + FURTHEST_EXPIRY_YEARS) {
    return "card_expiry_invalid"
  }
  if (year < now.getUTCFullYear() || (year === now.getUTCFullYear() && month < now.getUTCMonth() + 1)) {
    return "card_expired"
  }
  return null
}

/** The card's BIN (its first 6 digits), for the decline budget per BIN. */
export function cardBin(number: string): string | null {
  const digits = cardDigits(number)
  return digits && digits.length >= 6 ? digits.slice(0, 6) : null
}
