import type { ShopperLocale } from "./texts"

/**
 * The shopper's language from an Accept-Language header: Turkish when it ranks Turkish above English,
 * else English (the messages the storefront and the tests have always read).
 */
export function localeOfAcceptLanguage(acceptLanguage: string | undefined): ShopperLocale {
  let best: { locale: ShopperLocale; q: number } | null = null
  for (const entry of (acceptLanguage ?? "").split(",")) {
    const [tag, ...params] = entry.split(";")
    const language = tag.trim().toLowerCase().split(/[-_]/)[0]
    if (language !== "tr" && language !== "en") continue
    const qParam = params.map((p) => p.trim()).find((p) => p.toLowerCase().startsWith("q="))
    const q = qParam ? Number(qParam.slice(2)) : 1
    if (!Number.isFinite(q) || q <= 0) continue
    if (!best || q > best.q) best = { locale: language, q }
  }
  return best?.locale ?? "en"
}
