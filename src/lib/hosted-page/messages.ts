import { SHOPPER_MESSAGES } from "../shopper-messages"

export type HostedPageLocale = "tr" | "en"

/**
 * Every text of the hosted card page, in both languages; `{name}` marks a value filled in later. What
 * the shopper is told about a payment (a refused card, a limit) is the shared table's (shopper-messages).
 */
export const MESSAGES = {
  tr: {
    pageTitle: "Kartla ödeme",
    loading: "Ödeme sayfası yükleniyor…",
    linkInvalid: "Bu ödeme bağlantısı geçersiz ya da süresi dolmuş. Lütfen mağazaya dönüp ödemeyi yeniden başlatın.",
    loadFailed: "Ödeme sayfası yüklenemedi. Lütfen sayfayı yenileyin.",
    amountLabel: "Ödenecek tutar",
    gatewayLabel: "Ödeme kuruluşu",
    switchLanguage: "English",
    holderLabel: "Kart üzerindeki ad soyad",
    numberLabel: "Kart numarası",
    expiryLegend: "Son kullanma tarihi",
    monthLabel: "Ay (AA)",
    yearLabel: "Yıl (YYYY)",
    cvvLabel: "Güvenlik kodu (CVV)",
    cvvHint: "Kartın arkasındaki 3 veya 4 haneli kod.",
    installmentsLegend: "Taksit seçenekleri",
    installmentsHint: "Kart numarasının ilk 6 hanesini girdiğinizde taksit seçenekleri gösterilir.",
    installmentsLoading: "Taksit seçenekleri yükleniyor…",
    installmentsLoaded: "Bu kart için {count} ödeme seçeneği var.",
    installmentsNone: "Bu kart için yalnızca tek çekim kullanılabilir.",
    installmentsFailed: "Taksit seçenekleri alınamadı; tek çekim ile ödeyebilirsiniz.",
    singlePayment: "Tek çekim",
    installmentCount: "{count} taksit",
    installmentTotal: "toplam {amount}",
    installmentBreakdown: "{count} x {each} = {amount}",
    installmentFee: SHOPPER_MESSAGES.installment_fee_note.tr,
    agricultural: "Tarım kartı ile vadeli ödeme",
    maturityLabel: "Vade süresi",
    frequencyLabel: "Ödeme sıklığı",
    pay: "{amount} öde",
    paying: "İşleniyor…",
    secureNote:
      "Kart bilgileriniz doğrudan ödeme kuruluşuna gönderilir; mağaza kart bilgilerinizi görmez. Ardından bankanızın 3D Secure doğrulama sayfasına yönlendirilirsiniz.",
    cancel: "İptal et ve mağazaya dön",
    noScript: "Bu ödeme sayfası JavaScript gerektirir. Lütfen JavaScript'i açıp sayfayı yenileyin.",
    errorSummary: "Ödeme yapılamadı: lütfen işaretli alanları düzeltin.",
    errorHolderRequired: "Kart üzerindeki adı girin.",
    errorHolderTooLong: "Ad en fazla 100 karakter olabilir.",
    errorNumberRequired: "Kart numarasını girin.",
    errorNumberInvalid: SHOPPER_MESSAGES.card_number_invalid.tr,
    errorMonth: "Ayı 01 ile 12 arasında girin.",
    errorYear: "Yılı 4 haneli girin (örneğin 2030).",
    errorExpired: SHOPPER_MESSAGES.card_expired.tr,
    errorCvv: "Güvenlik kodu 3 veya 4 rakam olmalı.",
    signFailed: SHOPPER_MESSAGES.try_later.tr,
    paidTitle: "Ödeme alındı",
    paidBody: "Bu ödeme zaten yapıldı; yeniden ödemenize gerek yok.",
    paidOrderLink: "Siparişinize gidin",
    paidStoreLink: "Mağazaya dönün",
  },
  en: {
    pageTitle: "Card payment",
    loading: "Loading the payment page…",
    linkInvalid: "This payment link is not valid or has expired. Please go back to the store and start the payment again.",
    loadFailed: "The payment page could not be loaded. Please reload the page.",
    amountLabel: "Amount to pay",
    gatewayLabel: "Payment institution",
    switchLanguage: "Türkçe",
    holderLabel: "Name on card",
    numberLabel: "Card number",
    expiryLegend: "Expiry date",
    monthLabel: "Month (MM)",
    yearLabel: "Year (YYYY)",
    cvvLabel: "Security code (CVV)",
    cvvHint: "The 3 or 4 digit code on the back of the card.",
    installmentsLegend: "Installments",
    installmentsHint: "Installment options appear once you enter the first 6 digits of the card number.",
    installmentsLoading: "Loading installment options…",
    installmentsLoaded: "{count} payment options are available for this card.",
    installmentsNone: "Only single payment is available for this card.",
    installmentsFailed: "Installment options could not be loaded; you can pay in a single payment.",
    singlePayment: "Single payment",
    installmentCount: "{count} installments",
    installmentTotal: "total {amount}",
    installmentBreakdown: "{count} x {each} = {amount}",
    installmentFee: SHOPPER_MESSAGES.installment_fee_note.en,
    agricultural: "Deferred payment with an agricultural card",
    maturityLabel: "Maturity period",
    frequencyLabel: "Payment frequency",
    pay: "Pay {amount}",
    paying: "Processing…",
    secureNote:
      "Your card details go straight to the payment provider; the store never sees them. You will then be taken to your bank's 3D Secure page.",
    cancel: "Cancel and return to the store",
    noScript: "This payment page needs JavaScript. Please turn JavaScript on and reload the page.",
    errorSummary: "The payment was not sent: please correct the highlighted fields.",
    errorHolderRequired: "Enter the name on the card.",
    errorHolderTooLong: "The name can be at most 100 characters.",
    errorNumberRequired: "Enter the card number.",
    errorNumberInvalid: SHOPPER_MESSAGES.card_number_invalid.en,
    errorMonth: "Enter the month as 01 to 12.",
    errorYear: "Enter the year with 4 digits (for example 2030).",
    errorExpired: SHOPPER_MESSAGES.card_expired.en,
    errorCvv: "The security code must be 3 or 4 digits.",
    signFailed: SHOPPER_MESSAGES.try_later.en,
    paidTitle: "Payment received",
    paidBody: "This payment has already been made; there is nothing more to pay.",
    paidOrderLink: "Go to your order",
    paidStoreLink: "Back to the store",
  },
} satisfies Record<HostedPageLocale, Record<string, string>>

export type HostedPageMessages = (typeof MESSAGES)["tr"]

/** The BCP 47 locale used to format amounts for each page language. */
export const NUMBER_LOCALE: Record<HostedPageLocale, string> = { tr: "tr-TR", en: "en-US" }

export function fillTemplate(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => (key in values ? String(values[key]) : whole))
}
