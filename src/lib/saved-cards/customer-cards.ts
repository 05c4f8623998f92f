import type { SipayClient, StoredCard } from "../sipay"
import { cardOfHandle, toCardView, type SavedCardView } from "./card-view"

/**
 * A customer's cards, always as the gateway lists them now (getCardTokens): the plugin stores no card
 * token, so a card deleted in the merchant panel is gone here too. Used by the providers' account-holder
 * methods and by the plugin's routes alike.
 */

export async function listCustomerCards(client: SipayClient, appSecret: string, customerNumber: string): Promise<SavedCardView[]> {
  return (await client.cards.list(customerNumber)).map((card) => toCardView(appSecret, customerNumber, card))
}

/** The customer's listed card a handle names, with its token (for the gateway only), or undefined. */
export async function findCustomerCard(client: SipayClient, appSecret: string, customerNumber: string, handle: unknown): Promise<StoredCard | undefined> {
  return cardOfHandle(appSecret, customerNumber, await client.cards.list(customerNumber), handle)
}

/** Deletes the customer's card a handle names; false when no listed card of theirs has that handle. */
export async function deleteCustomerCard(client: SipayClient, appSecret: string, customerNumber: string, handle: unknown): Promise<boolean> {
  const card = await findCustomerCard(client, appSecret, customerNumber, handle)
  if (!card) {
    return false
  }
  await client.cards.delete(customerNumber, card.cardToken)
  return true
}

/** Every card of the customer deleted at the gateway; answers how many (none left: safe to repeat). */
export async function deleteEveryCustomerCard(client: SipayClient, customerNumber: string): Promise<number> {
  const cards = await client.cards.list(customerNumber)
  for (const card of cards) {
    await client.cards.delete(customerNumber, card.cardToken)
  }
  return cards.length
}
