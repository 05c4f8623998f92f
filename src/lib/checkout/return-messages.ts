import type { HostedPageLocale } from "../hosted-page/messages"

/** What the 3D return tells the shopper (in the failure URL's `error` and on its own page), in both languages. */
export const RETURN_MESSAGES: Record<HostedPageLocale, Record<"unverified" | "pending" | "failed" | "refused" | "reversed" | "order_failed" | "paid" | "continue" | "title", string>> = {
  en: {
    unverified: "The payment result could not be verified. No payment was recorded; please try again.",
    pending: "The payment could not be confirmed yet. If it went through, your order will be completed shortly; otherwise, please try again.",
    failed: "The card payment did not go through.",
    refused: "The card payment did not go through. Please check the card details or try another card.",
    reversed: "This payment was returned to your card because your cart changed or was already paid.",
    order_failed: "Your payment was received, but the order could not be placed yet. We will complete it shortly.",
    paid: "Payment received. Order {order}.",
    continue: "Continue",
    title: "Payment",
  },
  tr: {
    unverified: "Ödeme sonucu doğrulanamadı. Ödeme kaydedilmedi; lütfen tekrar deneyin.",
    pending: "Ödeme henüz onaylanamadı. Ödeme gerçekleştiyse siparişiniz kısa süre içinde tamamlanacak; gerçekleşmediyse lütfen tekrar deneyin.",
    failed: "Kartla ödeme gerçekleşmedi.",
    refused: "Kartla ödeme gerçekleşmedi. Lütfen kart bilgilerini kontrol edin ya da başka bir kart deneyin.",
    reversed: "Sepetiniz değiştiği ya da zaten ödendiği için bu ödeme kartınıza iade edildi.",
    order_failed: "Ödemeniz alındı, ancak sipariş henüz oluşturulamadı. Kısa süre içinde tamamlayacağız.",
    paid: "Ödeme alındı. Sipariş {order}.",
    continue: "Devam",
    title: "Ödeme",
  },
}

/**
 * The shopper's language on the gateway's return: the shopper's own browser follows the gateway's
 * redirect, so its Accept-Language is the shopper's. Turkish when it ranks Turkish above English,
 * else English (the messages the storefront and the tests have always read).
 */
export function returnLocale(acceptLanguage: string | undefined): HostedPageLocale {
  let best: { locale: HostedPageLocale; q: number; index: number } | null = null
  ;(acceptLanguage ?? "").split(",").forEach((entry, index) => {
    const [tag, ...params] = entry.split(";")
    const language = tag.trim().toLowerCase().split(/[-_]/)[0]
    if (language !== "tr" && language !== "en") return
    const qParam = params.map((p) => p.trim()).find((p) => p.toLowerCase().startsWith("q="))
    const q = qParam ? Number(qParam.slice(2)) : 1
    if (!Number.isFinite(q) || q <= 0) return
    if (!best || q > best.q) best = { locale: language, q, index }
  })
  return (best as { locale: HostedPageLocale } | null)?.locale ?? "en"
}
