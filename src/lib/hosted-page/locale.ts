import type { HostedPageLocale } from "./messages"

function localeOf(tag: string | undefined): HostedPageLocale | null {
  const language = (tag ?? "").trim().toLowerCase().split(/[-_]/)[0]
  return language === "tr" || language === "en" ? language : null
}

/**
 * The page language: an explicit `?lang=` wins, then the best of tr/en in Accept-Language
 * (by q-value, then order), else Turkish.
 */
export function pickLocale(queryLang?: string, acceptLanguage?: string): HostedPageLocale {
  const explicit = localeOf(queryLang)
  if (explicit) {
    return explicit
  }
  const ranked = (acceptLanguage ?? "")
    .split(",")
    .map((entry, index) => {
      const [tag, ...params] = entry.split(";")
      const qParam = params.map((p) => p.trim()).find((p) => p.toLowerCase().startsWith("q="))
      const q = qParam ? Number(qParam.slice(2)) : 1
      return { locale: localeOf(tag), q: Number.isFinite(q) ? q : 0, index }
    })
    .filter((entry) => entry.locale && entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index)
  return ranked[0]?.locale ?? "tr"
}
