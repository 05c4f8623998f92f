/**
 * Every message a shopper reads about a payment, Turkish and English, by a stable code: the server's
 * answers carry the code and the text in the request's language; the storefront kit
 * (packages/storefront, which bundles this file) shows the text of the code in its own language.
 * A decline is told by its class only (declined, card not valid, try later), never per gateway code:
 * one text per card state would tell a card tester what each card is. Pure and import-free.
 */

export type ShopperLocale = "tr" | "en"

export const SHOPPER_MESSAGES = {
  // A payment that did not go through, by class.
  card_declined: {
    en: "The card payment was not approved. Please try again or use another card.",
    tr: "Kartla ödeme onaylanmadı. Lütfen tekrar deneyin ya da başka bir kart kullanın.",
  },
  card_not_valid: {
    en: "This card cannot be used for this payment. Please check the card details or use another card.",
    tr: "Bu kart bu ödeme için kullanılamıyor. Lütfen kart bilgilerini kontrol edin ya da başka bir kart kullanın.",
  },
  try_later: {
    en: "The payment could not be made right now. Please try again in a few minutes.",
    tr: "Ödeme şu anda yapılamadı. Lütfen birkaç dakika sonra tekrar deneyin.",
  },
  // The store's configuration refused by the gateway (the merchant is alerted): nothing the shopper can change.
  payments_unavailable: {
    en: "Card payments are unavailable right now. Please try again later; your cart is kept.",
    tr: "Kartla ödeme şu anda kullanılamıyor. Lütfen daha sonra tekrar deneyin; sepetiniz saklanıyor.",
  },
  // A recurring product is charged on its plan, never in installments (a storefront that still offered them).
  recurring_no_installments: {
    en: "A recurring payment cannot be paid in installments; it is charged to your card on its plan. Please choose single payment.",
    tr: "Tekrarlı ödeme taksitle ödenemez; planındaki takvimle kartınızdan çekilir. Lütfen tek çekimi seçin.",
  },
  // Other ends of a payment.
  payment_pending: {
    en: "The payment could not be confirmed yet. If it went through, your order will be completed shortly; otherwise, please try again.",
    tr: "Ödeme henüz onaylanamadı. Ödeme gerçekleştiyse siparişiniz kısa süre içinde tamamlanacak; gerçekleşmediyse lütfen tekrar deneyin.",
  },
  payment_confirming: {
    en: "We are confirming your payment with the bank. This usually takes less than a minute; please do not pay again.",
    tr: "Ödemeniz bankayla doğrulanıyor. Bu genellikle bir dakikadan kısa sürer; lütfen tekrar ödeme yapmayın.",
  },
  payment_cancelled: { en: "The payment was cancelled.", tr: "Ödeme iptal edildi." },
  card_not_saved: {
    en: "The payment succeeded, but the card could not be saved; you can save it with a later payment.",
    tr: "Ödeme başarılı oldu ancak kart kaydedilemedi; bir sonraki ödemenizde kaydedebilirsiniz.",
  },
  payment_unverified: {
    en: "The payment result could not be verified. No payment was recorded; please try again.",
    tr: "Ödeme sonucu doğrulanamadı. Ödeme kaydedilmedi; lütfen tekrar deneyin.",
  },
  payment_reversed: {
    en: "This payment was returned to your card because your cart changed or was already paid.",
    tr: "Sepetiniz değiştiği ya da zaten ödendiği için bu ödeme kartınıza iade edildi.",
  },
  order_failed: {
    en: "Your payment was received, but the order could not be placed yet. We will complete it shortly.",
    tr: "Ödemeniz alındı, ancak sipariş henüz oluşturulamadı. Kısa süre içinde tamamlayacağız.",
  },
  // The card checked before anything is sent to the gateway.
  card_number_invalid: { en: "The card number is not valid; please check it.", tr: "Kart numarası geçersiz; lütfen kontrol edin." },
  card_expiry_invalid: { en: "The expiry date is not valid; please check it.", tr: "Son kullanma tarihi geçersiz; lütfen kontrol edin." },
  card_expired: { en: "The card has expired.", tr: "Kartın son kullanma tarihi geçmiş." },
  // Limits (HTTP 429, docs/storefront.md "Rate limits and the client address").
  session_limit: {
    en: "Too many payment attempts for this checkout. Please wait a few minutes and try again.",
    tr: "Bu ödeme için çok fazla deneme yapıldı. Lütfen birkaç dakika bekleyip tekrar deneyin.",
  },
  cart_limit: {
    en: "Too many payment attempts for this cart. Please wait a few minutes and try again.",
    tr: "Bu sepet için çok fazla ödeme denemesi yapıldı. Lütfen birkaç dakika bekleyip tekrar deneyin.",
  },
  card_limit: {
    en: "Too many attempts with this card. Please wait a few minutes or use another card.",
    tr: "Bu kartla çok fazla deneme yapıldı. Lütfen birkaç dakika bekleyin ya da başka bir kart kullanın.",
  },
  address_limit: {
    en: "Too many unsuccessful payment attempts from your connection. Please wait a few minutes and try again.",
    tr: "Bağlantınızdan çok fazla başarısız ödeme denemesi yapıldı. Lütfen birkaç dakika bekleyip tekrar deneyin.",
  },
  address_busy: {
    en: "Many payments are in progress from your connection. Please try again in a moment.",
    tr: "Bağlantınızdan şu anda çok sayıda ödeme yapılıyor. Lütfen biraz sonra tekrar deneyin.",
  },
  installments_limit: {
    en: "Too many installment look-ups. Please wait a few minutes; you can still pay in a single payment.",
    tr: "Çok fazla taksit sorgusu yapıldı. Lütfen birkaç dakika bekleyin; tek çekim ile ödeyebilirsiniz.",
  },
  decline_budget: {
    en: "Direct card payment is paused for a few minutes. Please try again later or pay with 3D Secure.",
    tr: "Doğrudan kartla ödeme birkaç dakikalığına durduruldu. Lütfen daha sonra tekrar deneyin ya da 3D Secure ile ödeyin.",
  },
  // The installment fee (vade farkı): the cart line's title ({count} is the installment count) and its note in an option.
  installment_fee_line: { en: "Installment fee ({count} installments)", tr: "Vade farkı ({count} taksit)" },
  installment_fee_note: { en: "(+{fee} installment fee)", tr: "(+{fee} vade farkı)" },
  installment_fee_needs_card: {
    en: "This installment option's fee depends on the card: please enter the card number first.",
    tr: "Bu taksit seçeneğinin vade farkı karta göre değişir: lütfen önce kart numarasını girin.",
  },
} as const satisfies Record<string, Record<ShopperLocale, string>>

export type ShopperMessageCode = keyof typeof SHOPPER_MESSAGES

export function isShopperMessageCode(code: unknown): code is ShopperMessageCode {
  return typeof code === "string" && Object.prototype.hasOwnProperty.call(SHOPPER_MESSAGES, code)
}

/** The text of `code` in `locale` (Turkish unless English is asked for). */
export function shopperMessage(code: ShopperMessageCode, locale: ShopperLocale | string | null | undefined): string {
  return SHOPPER_MESSAGES[code][locale === "en" ? "en" : "tr"]
}
