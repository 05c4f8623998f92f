import { macsEqual, serverMac } from "../server-mac"
import type { CardBrand, StoredCard } from "../sipay"

/**
 * What a shopper, an admin or Medusa is given of a stored card: never its token. Its id is a handle,
 * an HMAC of the customer's number and the card's token under a key of the app secret: it names the
 * card only within its own customer's list (the gateway's, read each time), so another customer's
 * handle, a deleted card's or a made-up one finds nothing, and no handle can be turned into a token.
 */

export type SavedCardView = {
  id: string
  masked_number: string
  last4: string
  brand: CardBrand
  bank: string | null
  /** Only when the gateway's list carries an expiry (the published clients' lists do not). */
  expiry_month: number | null
  expiry_year: number | null
  created_at: string | null
}

const HANDLE_PURPOSE = "medusa-plugin-sipay saved card v1"
const HANDLE = /^card_[A-Za-z0-9_-]{43}$/

export function cardHandle(appSecret: string, customerNumber: string, cardToken: string): string {
  return `card_${serverMac(appSecret, HANDLE_PURPOSE, `${customerNumber}:${cardToken}`)}`
}

export function isCardHandle(value: unknown): value is string {
  return typeof value === "string" && HANDLE.test(value)
}

export function toCardView(appSecret: string, customerNumber: string, card: StoredCard): SavedCardView {
  return {
    id: cardHandle(appSecret, customerNumber, card.cardToken),
    masked_number: card.maskedNumber,
    last4: card.last4,
    brand: card.brand,
    bank: card.bank,
    expiry_month: card.expiryMonth,
    expiry_year: card.expiryYear,
    created_at: card.createdAt,
  }
}

/** The customer's listed card a handle names, if any (compared in constant time). */
export function cardOfHandle(appSecret: string, customerNumber: string, cards: StoredCard[], handle: unknown): StoredCard | undefined {
  if (!isCardHandle(handle)) {
    return undefined
  }
  return cards.find((card) => macsEqual(cardHandle(appSecret, customerNumber, card.cardToken), handle))
}
