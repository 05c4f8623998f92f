/**
 * What a storefront shows around a card payment, the same in the kit's components and in the
 * storefront's own pages: money, installment amounts, the card's brand and the payment methods' titles.
 */
import { isSipay3D, isSipayDirect, type Locale } from "./index"

/** The BCP 47 locale amounts are written in for each shopper language (the plugin's hosted page uses the same). */
export const MONEY_LOCALE: Record<Locale, string> = { tr: "tr-TR", en: "en-US" }

/**
 * An amount for people: `Intl.NumberFormat(locale, { style: "currency", currency })`, with `locale`
 * a shopper language ("tr": ₺325,40; "en": TRY 325.40) or any BCP 47 tag.
 */
export function formatMoney(amount: number | string, currencyCode: string, locale: Locale | string = "tr"): string {
  const value = Number(amount)
  const tag = MONEY_LOCALE[locale as Locale] ?? locale
  try {
    return new Intl.NumberFormat(tag, { style: "currency", currency: currencyCode.toUpperCase() }).format(value)
  } catch {
    return `${value.toFixed(2)} ${currencyCode.toUpperCase()}`
  }
}

/** One installment of a total paid in `count` (to the cent; the bank settles the last cent). */
export function installmentAmount(total: number | string, count: number): number {
  const cents = Math.round(Number(total) * 100)
  return Math.round(cents / Math.max(1, Math.trunc(count))) / 100
}

const BRANDS: Record<string, string> = {
  VISA: "Visa",
  MASTERCARD: "Mastercard",
  MASTER: "Mastercard",
  MAESTRO: "Maestro",
  TROY: "Troy",
  AMEX: "American Express",
  "AMERICAN EXPRESS": "American Express",
}

/** The card's brand as written for people, from the scheme the gateway gave for its BIN (`card_scheme`), or null. */
export function cardBrandName(scheme: string | null | undefined): string | null {
  const key = String(scheme ?? "").trim().toUpperCase()
  if (!key) return null
  return BRANDS[key] ?? key.charAt(0) + key.slice(1).toLowerCase()
}

/**
 * The titles of the plugin's two ways to pay, for the storefront's list of payment methods: they say
 * how they differ (the bank's SMS check on a 3D payment, none on a direct one).
 */
export const PAYMENT_METHOD_TITLES = {
  "3d": { tr: "Kartla öde (3D Secure: bankanızın SMS onayıyla)", en: "Pay by card (3D Secure: your bank's SMS code)" },
  direct: { tr: "Kartla hızlı öde (SMS onayı olmadan)", en: "Quick card payment (no SMS code)" },
} as const

/** The title of a Sipay provider (`pp_sipay_…` or `pp_sipay-2d_…`) in `lang`, or null for another provider. */
export function sipayMethodTitle(providerId: string | null | undefined, lang: Locale = "tr"): string | null {
  if (isSipayDirect(providerId)) return PAYMENT_METHOD_TITLES.direct[lang]
  if (isSipay3D(providerId)) return PAYMENT_METHOD_TITLES["3d"][lang]
  return null
}
