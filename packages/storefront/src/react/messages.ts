import type { Locale } from "../index"
import { SHOPPER_MESSAGES } from "../../../../src/lib/shopper-messages/texts"

/** Every text the components show, Turkish and English; what the shopper is told about a payment is the plugin's table (SHOPPER_MESSAGES). */
export const MESSAGES = {
  tr: {
    pay: "Güvenli ödeme sayfasında öde",
    payAmount: "{amount} öde",
    redirecting: "Ödeme sayfasına yönlendiriliyorsunuz…",
    paying: "Ödeme yapılıyor…",
    holder: "Kart üzerindeki isim",
    number: "Kart numarası",
    month: "Son kullanma ayı (AA)",
    year: "Son kullanma yılı (YYYY)",
    cvv: "Güvenlik kodu (CVV)",
    installments: "Taksit seçenekleri",
    single: "Tek çekim",
    installmentTable: "Taksit seçenekleri (kart ailesine göre)",
    feeNote: SHOPPER_MESSAGES.installment_fee_note.tr,
    count: "{count} taksit",
    perInstallment: "{count} × {amount}",
    total: "toplam {amount}",
    brand: "Kart: {brand}",
    agricultural: "Tarım kartı ödemesi",
    maturity: "Vade (ay)",
    frequency: "Ödeme sıklığı (ay)",
    typeNumber: "Taksit seçenekleri için kart numarasını girin.",
    loadingOptions: "Taksit seçenekleri yükleniyor…",
    optionsFailed: "Taksit seçenekleri alınamadı; tek çekim ile ödeyebilirsiniz.",
    invalid: "Kart bilgilerini kontrol edin.",
    failed: SHOPPER_MESSAGES.try_later.tr,
    paymentFailed: "Ödeme alınamadı",
    checkingPayment: "Ödemenizin durumu kontrol ediliyor…",
    confirming: SHOPPER_MESSAGES.payment_confirming.tr,
    paidRedirecting: "Ödemeniz alındı. Siparişinize yönlendiriliyorsunuz…",
    confirmingLater: "Ödemenizin onayı beklenenden uzun sürüyor. Siparişiniz oluşunca size e-posta ile bildireceğiz; lütfen tekrar ödeme yapmayın.",
  },
  en: {
    pay: "Pay on the secure payment page",
    payAmount: "Pay {amount}",
    redirecting: "Taking you to the payment page…",
    paying: "Paying…",
    holder: "Name on card",
    number: "Card number",
    month: "Expiry month (MM)",
    year: "Expiry year (YYYY)",
    cvv: "Security code (CVV)",
    installments: "Installment options",
    single: "Single payment",
    installmentTable: "Installment options (by card family)",
    feeNote: SHOPPER_MESSAGES.installment_fee_note.en,
    count: "{count} installments",
    perInstallment: "{count} × {amount}",
    total: "total {amount}",
    brand: "Card: {brand}",
    agricultural: "Agricultural card payment",
    maturity: "Maturity (months)",
    frequency: "Payment frequency (months)",
    typeNumber: "Enter the card number to see installment options.",
    loadingOptions: "Loading installment options…",
    optionsFailed: "Installment options could not be loaded; you can pay in a single payment.",
    invalid: "Please check the card details.",
    failed: SHOPPER_MESSAGES.try_later.en,
    paymentFailed: "Payment failed",
    checkingPayment: "Checking your payment…",
    confirming: SHOPPER_MESSAGES.payment_confirming.en,
    paidRedirecting: "Your payment was received. Taking you to your order…",
    confirmingLater: "Confirming your payment is taking longer than usual. We will e-mail you when your order is placed; please do not pay again.",
  },
} as const

export type Messages = { [K in keyof (typeof MESSAGES)["en"]]: string }

export function messagesFor(lang: Locale | undefined): Messages {
  return MESSAGES[lang === "en" ? "en" : "tr"]
}

export function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole))
}
