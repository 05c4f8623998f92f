import { cardBrandOf, type CardInput, type SipayClient, type StoredCard } from "../sipay"
import { toCardView, type SavedCardView } from "./card-view"

export type CardToStore = Omit<CardInput, "cvv">
export type CardOwner = { name: string; email: string; phone?: string }

/** The 6****4 form the gateway lists a card under. */
export function listedMaskOf(number: string): string {
  const digits = number.replace(/[\s-]/g, "")
  return `${digits.slice(0, 6)}****${digits.slice(-4)}`
}

/**
 * Stores a card for a customer number unless the customer already has one listed under the same masked
 * number (the list shows no more of a card: a second save would only duplicate it). Answers the card
 * as its owner sees it. The card passes through here in memory only.
 */
export async function storeCard(
  client: SipayClient,
  appSecret: string,
  customerNumber: string,
  card: CardToStore,
  owner: CardOwner
): Promise<{ card: SavedCardView; stored: boolean }> {
  const masked = listedMaskOf(card.number)
  const listed = await client.cards.list(customerNumber)
  const same = listed.find((entry) => entry.maskedNumber === masked)
  if (same) {
    return { card: toCardView(appSecret, customerNumber, same), stored: false }
  }
  const { cardToken } = await client.cards.save(customerNumber, card, owner)
  const saved = (await client.cards.list(customerNumber)).find((entry) => entry.cardToken === cardToken)
  const fallback: StoredCard = {
    id: cardToken,
    cardToken,
    maskedNumber: masked,
    last4: masked.slice(-4),
    brand: cardBrandOf(masked),
    bank: null,
    expiryMonth: null,
    expiryYear: null,
    createdAt: null,
  }
  return { card: toCardView(appSecret, customerNumber, saved ?? fallback), stored: true }
}

