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
  },
} as const

export type Messages = { [K in keyof (typeof MESSAGES)["en"]]: string }

export function messagesFor(lang: Locale | undefined): Messages {
  return MESSAGES[lang === "en" ? "en" : "tr"]
}

export function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole))
}
