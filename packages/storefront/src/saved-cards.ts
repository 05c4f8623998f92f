/**
 * Saved cards (medusa-plugin-sipay docs/saved-cards.md): a signed-in customer's cards stored at the
 * gateway, paying with one, deleting one. The JS SDK sends the customer's authentication (its token or
 * session) with these calls; a guest gets 401. A card's `id` is a handle the plugin made: it names the
 * card only within its own customer's list and is never a card token.
 */
import { confirmDirectPayment } from "./confirm"
import { ensurePaymentSession, shopperRefusal, SIPAY_3D_PROVIDER_ID, type CartLike, type DirectPaymentResult, type Headers, type InstallmentChoice, type Locale, type SdkLike } from "./index"

export type SavedCard = {
  id: string
  masked_number: string
  last4: string
  brand: "visa" | "mastercard" | "troy" | "amex" | "unknown"
  bank: string | null
  /** Only when the gateway's list gives one (its published clients show none). */
  expiry_month: number | null
  expiry_year: number | null
  created_at: string | null
}

/** The text a shopper ticks to save a card (Turkish and English, KVKK) and its version, sent back with the payment. */
export type CardConsent = { version: string; text: { tr: string; en: string } }

export type SavedCards = { enabled: boolean; saved_cards: SavedCard[]; consent: CardConsent | null }

/** The signed-in customer's saved cards as the gateway lists them now, whether the store offers them, and the consent text. */
export async function listSavedCards(sdk: SdkLike, input: { headers?: Headers } = {}): Promise<SavedCards> {
  return sdk.client.fetch<SavedCards>("/store/customers/me/sipay-cards", { method: "GET", headers: input.headers })
}

/** Deletes one of the signed-in customer's saved cards at the gateway. */
export async function deleteSavedCard(sdk: SdkLike, input: { cardId: string; headers?: Headers }): Promise<void> {
  await sdk.client.fetch(`/store/customers/me/sipay-cards/${encodeURIComponent(input.cardId)}`, { method: "DELETE", headers: input.headers })
}

/** A saved card's 3D payment goes on at the bank's page: `html` is that page, for the shopper's browser (showBankPage). */
export type BankPage = { type: "bank_page"; html: string; invoice_id: string; session_id: string }

export type SavedCardPaymentResult = BankPage | DirectPaymentResult

/**
 * Pays the signed-in customer's cart with one of their saved cards, on the cart's session of
 * `providerId` (created if needed): the 3D provider by default, whose answer is the bank's page to show
 * (`showBankPage`); the direct provider (where the store enables direct payment) answers like payDirect.
 * A refusal (another's card, a deleted one, a cart not theirs) is thrown with the plugin's status (404).
 */
export async function payWithSavedCard(
  sdk: SdkLike,
  input: { cart: CartLike; cardId: string; choice?: InstallmentChoice; providerId?: string; headers?: Headers; locale?: Locale; confirmWithinMs?: number }
): Promise<SavedCardPaymentResult> {
  const session = await ensurePaymentSession(sdk, input.cart, input.providerId ?? SIPAY_3D_PROVIDER_ID, input.headers)
  const choice = input.choice ?? { installments_number: 1 }
  try {
    const answer = await sdk.client.fetch<Record<string, any>>(`/store/sipay/payment-sessions/${encodeURIComponent(session.id)}/pay-saved-card`, {
      method: "POST",
      body: { cart_id: input.cart.id, card_id: input.cardId, installments_number: Math.max(1, Math.trunc(Number(choice.installments_number) || 1)) },
      headers: input.headers,
    })
    // An installment fee changed the cart's total: the plugin paid on a new session, which the answer names.
    const paidOn = typeof answer.session_id === "string" ? answer.session_id : session.id
    if (answer.type === "bank_page") {
      return { type: "bank_page", html: String(answer.html), invoice_id: String(answer.invoice_id), session_id: paidOn }
    }
    if (answer.status === "confirming") {
      // The gateway's answer timed out (HTTP 202): the payment may still go through. Never a failure: ask for the outcome.
      return await confirmDirectPayment(sdk, { sessionId: paidOn, cartId: input.cart.id, locale: input.locale, headers: input.headers, timeoutMs: input.confirmWithinMs })
    }
    return { status: answer.status, order_id: answer.order_id, cart_id: answer.cart_id ?? null, session_id: paidOn }
  } catch (error) {
    // Declines and limits come back with the plugin's code and its text in the shopper's language, as payDirect's.
    const refusal = shopperRefusal(error, input.locale)
    if (refusal.status === 402) {
      return { status: refusal.code === "payment_pending" ? "pending" : "failed", code: refusal.code, message: refusal.message, session_id: session.id }
    }
    if (refusal.status === 429) {
      return { status: "rate_limited", code: refusal.code, message: refusal.message, session_id: session.id }
    }
    throw error
  }
}

/**
 * Shows the bank's page a saved card's 3D payment answered, in place of the current page (as the
 * gateway's published PHP client hands it to the browser). The page posts on to the bank; the shopper
 * comes back through the plugin's 3D return. Browser only.
 */
export function showBankPage(html: string, doc: Document = document): void {
  doc.open()
  doc.write(html)
  doc.close()
}
