/**
 * The language of what a customer reads from the plugin outside the hosted page: the phone order's
 * payment link (its product name and description) and the invoice description sent to the gateway.
 * Turkish and English are written; a customer in any other language reads English. Pure.
 */
export const CUSTOMER_LANGUAGES = ["tr", "en"] as const
export type CustomerLanguage = (typeof CUSTOMER_LANGUAGES)[number]

/** When no locale is named anywhere (option `defaultLocale`'s default): the gateway's home market. */
export const DEFAULT_CUSTOMER_LANGUAGE: CustomerLanguage = "tr"

export function isCustomerLanguage(value: unknown): value is CustomerLanguage {
  return (CUSTOMER_LANGUAGES as readonly unknown[]).includes(value)
}

/**
 * The first locale named decides, in the caller's order (the cart's or order's `locale`, then the
 * store's first supported locale): a Turkish tag (tr, tr-TR) is Turkish, any other language English.
 * None named: the fallback (option `defaultLocale`).
 */
export function customerLanguage(locales: readonly (string | null | undefined)[], fallback: CustomerLanguage = DEFAULT_CUSTOMER_LANGUAGE): CustomerLanguage {
  const tag = locales.find((locale): locale is string => typeof locale === "string" && locale.trim() !== "")
  if (tag === undefined) {
    return fallback
  }
  return tag.trim().toLowerCase().split(/[-_]/)[0] === "tr" ? "tr" : "en"
}
