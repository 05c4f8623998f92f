import { localeOfAcceptLanguage, type ShopperLocale } from "../shopper-messages"

/**
 * The words of the 3D return's own small page, in both languages; what happened is told by code
 * (shopper-messages). No id of the store's (order, session) is shown: the storefront names the order.
 */
export const RETURN_PAGE_WORDS: Record<ShopperLocale, Record<"paid" | "continue" | "title", string>> = {
  en: { paid: "Payment received.", continue: "Continue", title: "Payment" },
  tr: { paid: "Ödeme alındı.", continue: "Devam", title: "Ödeme" },
}

/**
 * The shopper's language on the gateway's return: the shopper's own browser follows the gateway's
 * redirect, so its Accept-Language is the shopper's.
 */
export const returnLocale = localeOfAcceptLanguage
