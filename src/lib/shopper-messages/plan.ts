import type { ShopperLocale } from "./texts"

/**
 * A recurring product's charge plan as the shopper reads it before paying: "12 x ₺900,00, her ay" /
 * "12 x ₺900.00, every month". The amount comes formatted in the shopper's locale. Pure and import-free
 * (bundled by the storefront kit, as texts.ts).
 */
export type RecurringPlanView = { payment_number: number; cycle: "D" | "M" | "Y"; interval: number; amount: string; currency_code: string }

const EVERY: Record<ShopperLocale, Record<RecurringPlanView["cycle"], [one: string, many: string]>> = {
  en: { D: ["every day", "every {n} days"], M: ["every month", "every {n} months"], Y: ["every year", "every {n} years"] },
  tr: { D: ["her gün", "{n} günde bir"], M: ["her ay", "{n} ayda bir"], Y: ["her yıl", "{n} yılda bir"] },
}

/** Words around the plan: its title, and that it cannot be paid in installments. */
export const PLAN_WORDS: Record<ShopperLocale, { title: string; noInstallments: string }> = {
  en: { title: "Recurring payment", noInstallments: "Charged to your card on this schedule; a recurring payment cannot be split into installments." },
  tr: { title: "Tekrarlı ödeme", noInstallments: "Kartınızdan bu takvimle çekilir; tekrarlı ödeme taksitlendirilemez." },
}

export function recurringPlanText(plan: Pick<RecurringPlanView, "payment_number" | "cycle" | "interval">, formattedAmount: string, locale: ShopperLocale | string | null | undefined): string {
  const lang: ShopperLocale = locale === "en" ? "en" : "tr"
  const [one, many] = EVERY[lang][plan.cycle]
  const every = plan.interval === 1 ? one : many.replace("{n}", String(plan.interval))
  return `${plan.payment_number} x ${formattedAmount}, ${every}`
}
