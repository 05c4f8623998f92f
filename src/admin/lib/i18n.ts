import { useCallback } from "react"
import { useTranslation } from "react-i18next"

/** The languages the plugin's admin is written in (src/admin/i18n); others fall back to English. */
export const SIPAY_LANGUAGES = ["en", "tr"] as const

/** The plugin's t(): a key under `sipay.` and its interpolation values. */
export type Translate = (key: string, options?: Record<string, unknown>) => string

/** Keys asked for but absent in the user's language (read by the browser tests; also logged). */
declare global {
  interface Window {
    __sipayMissingKeys?: string[]
  }
}

function reportMissing(language: string, key: string) {
  if (typeof window === "undefined") return
  const entry = `${language}:${key}`
  window.__sipayMissingKeys ??= []
  if (!window.__sipayMissingKeys.includes(entry)) {
    window.__sipayMissingKeys.push(entry)
    console.error(`[sipay-i18n] missing key ${entry}`)
  }
}

/**
 * The dashboard's i18next (Medusa merges src/admin/i18n into its resources), with every key
 * under `sipay.`: t("sales.title") reads `sipay.sales.title` in the language the user picked.
 */
export function useSipayT() {
  const { t, i18n } = useTranslation()
  const active = (i18n.resolvedLanguage ?? i18n.language ?? "en").split("-")[0]
  const language = (SIPAY_LANGUAGES as readonly string[]).includes(active) ? active : "en"
  const translate = useCallback(
    (key: string, options?: Record<string, unknown>): string => {
      const full = `sipay.${key}`
      const found = i18n.getResource?.(language, "translation", full) ?? i18n.getResource?.(language, "translation", `${full}_other`)
      if (found === undefined || found === null) {
        reportMissing(language, full)
      }
      return String(t(full, options as never))
    },
    [t, i18n, language]
  )
  return { t: translate, locale: language === "tr" ? "tr-TR" : "en-US", language }
}

/** A number in the user's locale, two decimals ("1,250.50" / "1.250,50"). */
export function formatNumber(amount: string | number | null | undefined, locale: string): string {
  if (amount === null || amount === undefined || amount === "") return "-"
  const value = Number(amount)
  return Number.isFinite(value) ? new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(value) : String(amount)
}

/** An amount in the user's locale with its currency code ("1,250.50 TRY" / "1.250,50 TRY"). */
export function formatAmount(amount: string | number | null | undefined, currency: string | null | undefined, locale: string): string {
  const number = formatNumber(amount, locale)
  return number !== "-" && currency ? `${number} ${currency.toUpperCase()}` : number
}

/** A Medusa date (an instant) in the browser's timezone and the user's locale. */
export function formatLocalDateTime(value: string | Date | null | undefined, locale: string): string {
  if (!value) return "-"
  const date = new Date(value)
  return Number.isNaN(date.getTime()) ? String(value) : date.toLocaleString(locale, { dateStyle: "medium", timeStyle: "short" })
}

export function formatLocalDate(value: string | Date | null | undefined, locale: string): string {
  if (!value) return "-"
  const date = new Date(value)
  return Number.isNaN(date.getTime()) ? String(value) : date.toLocaleDateString(locale, { dateStyle: "medium" })
}

/** A gateway instant shown in Istanbul time (the gateway's clock); callers label it with t("common.istanbul"). */
export function formatIstanbul(value: string | Date | null | undefined, locale: string, part: "datetime" | "time" = "datetime"): string {
  if (!value) return "-"
  const date = new Date(value)
  if (Number.isNaN(date.getTime())) return String(value)
  return part === "time"
    ? date.toLocaleTimeString(locale, { timeZone: "Europe/Istanbul", hour: "2-digit", minute: "2-digit" })
    : date.toLocaleString(locale, { timeZone: "Europe/Istanbul", dateStyle: "medium", timeStyle: "short" })
}

/** A gateway date as it writes them, Istanbul wall time: "YYYY-MM-DD" or "YYYY-MM-DD HH:MM[:SS]". */
const GATEWAY_TIME = /^(\d{4}-\d{2}-\d{2})(?:[ T](\d{2}:\d{2})(?::(\d{2}))?)?$/

/**
 * A gateway date in the user's locale, still in Istanbul time (callers label it): Turkey keeps UTC+3
 * all year since 2016. Anything else is shown as the gateway wrote it.
 */
export function formatGatewayTime(value: string | null | undefined, locale: string): string {
  if (!value) return "-"
  const parts = GATEWAY_TIME.exec(value.trim())
  if (!parts) return value
  const date = new Date(`${parts[1]}T${parts[2] ?? "00:00"}:${parts[3] ?? "00"}+03:00`)
  if (Number.isNaN(date.getTime())) return value
  return parts[2] ? formatIstanbul(date, locale) : date.toLocaleDateString(locale, { timeZone: "Europe/Istanbul", dateStyle: "medium" })
}

export function isGatewayTime(value: unknown): value is string {
  return typeof value === "string" && GATEWAY_TIME.test(value.trim())
}
