import { randomBytes } from "node:crypto"
import { formatIsoMicro } from "../core/clock"
import { CODES, fail, requireField } from "../core/codes"
import type { Gateway } from "../core/gateway"
import { TEST_CARDS } from "../cards"
import type { Merchant, SavedCardRecord } from "../types"

/**
 * The merchant's stored cards. A card belongs to one merchant and one customer_number: a token is
 * found only with both, so another merchant's or another customer's token is "invalid", exactly as
 * an unknown one. The gateway lists a card's customer_number as `<number>-<merchant_id>` (the PHP
 * SDK's CardListMapperTest: '5070-18309'); a request may send either form.
 */

/** Laravel's `exists` rule message, as a gateway built on it answers an unknown token. */
export const INVALID_TOKEN = "The selected card token is invalid."

/** The digits of a request's customer_number: numeric, or the listed `<number>-<merchant_id>` of this merchant. */
export function customerNumberOf(body: Record<string, unknown>, merchant: Merchant): string {
  const text = requireField(body, "customer_number").trim()
  const listed = /^(\d{1,20})-(\d+)$/.exec(text)
  if (listed && listed[2] === String(merchant.merchant_id)) return String(BigInt(listed[1]))
  if (!/^\d{1,20}$/.test(text)) fail(CODES.VALIDATION, "The customer number must be a number.")
  return String(BigInt(text))
}

export function cardsOfCustomer(gateway: Gateway, merchant: Merchant, customerNumber: string): SavedCardRecord[] {
  return gateway.store.state.saved_cards.filter((card) => card.merchant_key === merchant.merchant_key && card.customer_number === customerNumber)
}

/** The request's card_token among its customer's cards at this merchant, or 1 "invalid". */
export function storedCardOf(body: Record<string, unknown>, merchant: Merchant, gateway: Gateway): SavedCardRecord {
  const customerNumber = customerNumberOf(body, merchant)
  const token = requireField(body, "card_token")
  const card = cardsOfCustomer(gateway, merchant, customerNumber).find((candidate) => candidate.card_token === token)
  if (!card) fail(CODES.VALIDATION, INVALID_TOKEN)
  return card
}

/** A new stored card's token (32 hex digits, as in the PHP SDK's samples) and user key. */
export function newCardSecrets(): { card_token: string; card_user_key: string } {
  return { card_token: randomBytes(16).toString("hex"), card_user_key: randomBytes(48).toString("base64url") }
}

/** The issuing bank's id in the list (62 in the PHP SDK's sample); the sandbox numbers its test cards' banks. */
function bankOf(card: SavedCardRecord): { name: string; id: number } {
  const index = TEST_CARDS.findIndex((test) => test.number.startsWith(card.bin) && test.number.endsWith(card.last4))
  return index === -1 ? { name: "", id: 0 } : { name: TEST_CARDS[index].bank, id: 60 + index }
}

/**
 * One card of getCardTokens' `data`, the fields both published clients map (sipay-node SavedCard,
 * the PHP SDK's CardMapper): no expiry, no holder name, the number masked 6****4.
 */
export function cardListEntry(card: SavedCardRecord, merchant: Merchant): Record<string, unknown> {
  const bank = bankOf(card)
  return {
    id: card.id,
    card_token: card.card_token,
    card_user_key: card.card_user_key,
    card_number: `${card.bin}****${card.last4}`,
    merchant_id: Number(merchant.merchant_id),
    customer_number: `${card.customer_number}-${merchant.merchant_id}`,
    card_issuer_bank: bank.name,
    customer_name: card.customer_name,
    customer_email: card.customer_email,
    customer_phone: card.customer_phone,
    bank_id: bank.id,
    created_at: formatIsoMicro(card.created_at_ms),
    updated_at: formatIsoMicro(card.updated_at_ms),
  }
}
