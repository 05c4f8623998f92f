/**
 * The opt-in a shopper gives to store a card (explicit consent, KVKK: Turkish Law No. 6698). The
 * storefront shows this text next to an unticked box and sends its version with the direct payment;
 * the store server records who consented to which version, when, for which masked card.
 */
export const CARD_CONSENT = {
  version: "2026-11",
  text: {
    tr:
      "Bu kartın, sonraki alışverişlerimde tek adımda ödeyebilmem için ödeme kuruluşu Sipay tarafından saklanmasına açık rıza veriyorum. " +
      "Mağaza kart numaramı ve güvenlik kodumu saklamaz; kartı dilediğim zaman hesabımdan silebilirim. " +
      "Kişisel verilerim 6698 sayılı Kişisel Verilerin Korunması Kanunu (KVKK) kapsamında işlenir.",
    en:
      "I explicitly consent to this card being stored by the payment institution Sipay so that I can pay in one step next time. " +
      "The store keeps neither my card number nor its security code; I can delete the card from my account at any time. " +
      "My personal data is processed under Turkish Law No. 6698 on the Protection of Personal Data (KVKK).",
  },
} as const

/** What is kept of each consent, in the customer's account holder's metadata (the newest last). */
export type CardConsentRecord = { version: string; given_at: string; masked_number: string; invoice_id: string }

export const MAX_CONSENT_RECORDS = 50

export function withConsent(records: unknown, record: CardConsentRecord): CardConsentRecord[] {
  const previous = Array.isArray(records) ? (records as CardConsentRecord[]) : []
  return [...previous, record].slice(-MAX_CONSENT_RECORDS)
}
