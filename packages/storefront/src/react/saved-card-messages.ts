import type { Locale } from "../index"

/** The saved-card components' texts, Turkish and English (kept apart from messages.ts). */
export const SAVED_CARD_MESSAGES = {
  tr: {
    choiceTitle: "Kayıtlı kartlarım",
    choose: "Ödeme için kayıtlı kart",
    payWithCard: "Bu kartla öde",
    toBank: "Bankanızın doğrulama sayfasına yönlendiriliyorsunuz…",
    failed: "Ödeme tamamlanamadı.",
    listTitle: "Kayıtlı kartlarım",
    none: "Kayıtlı kartınız yok.",
    expires: "Son kullanma {date}",
    remove: "Sil",
    removeCard: "{card} kartını sil",
    confirmRemove: "Silmeyi onayla",
    removing: "Siliniyor…",
    removed: "{card} kartı silindi.",
    removeFailed: "Kart silinemedi.",
    save: "Bu kartı sonraki alışverişlerimde tek adımda ödemek için kaydet",
    brands: { visa: "Visa", mastercard: "Mastercard", troy: "Troy", amex: "American Express", unknown: "Kart" },
  },
  en: {
    choiceTitle: "My saved cards",
    choose: "Saved card to pay with",
    payWithCard: "Pay with this card",
    toBank: "Taking you to your bank's verification page…",
    failed: "The payment did not go through.",
    listTitle: "My saved cards",
    none: "You have no saved card.",
    expires: "Expires {date}",
    remove: "Delete",
    removeCard: "Delete the card {card}",
    confirmRemove: "Confirm delete",
    removing: "Deleting…",
    removed: "The card {card} was deleted.",
    removeFailed: "The card could not be deleted.",
    save: "Save this card to pay in one step next time",
    brands: { visa: "Visa", mastercard: "Mastercard", troy: "Troy", amex: "American Express", unknown: "Card" },
  },
} as const

export type SavedCardMessages = (typeof SAVED_CARD_MESSAGES)["en"] | (typeof SAVED_CARD_MESSAGES)["tr"]

export function savedCardMessagesFor(lang: Locale | undefined): SavedCardMessages {
  return SAVED_CARD_MESSAGES[lang === "en" ? "en" : "tr"]
}
