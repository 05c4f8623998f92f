/** Money as integer minor units (2 decimals for TRY, USD, EUR); never a float. */

const DECIMAL = /^(\d+)(?:\.(\d+))?$/

/** Parses '5', '5.00', '10.5', 10.5 to minor units; null when not a non-negative decimal with at most 2 significant decimals. */
export function parseAmount(value: unknown): number | null {
  if (typeof value === "number") {
    if (!Number.isFinite(value) || value < 0) return null
    value = String(value)
  }
  if (typeof value !== "string") return null
  const match = DECIMAL.exec(value.trim())
  if (!match) return null
  const [, whole, fraction = ""] = match
  if (fraction.length > 2 && /[^0]/.test(fraction.slice(2))) return null
  const minor = Number(whole) * 100 + Number((fraction + "00").slice(0, 2))
  return Number.isSafeInteger(minor) ? minor : null
}

/** The gateway's (PHP) way: 20, 0.1, 10.5, no trailing zeros. */
export function formatAmount(minor: number): string {
  const whole = Math.floor(minor / 100)
  const fraction = String(minor % 100).padStart(2, "0").replace(/0+$/, "")
  return fraction ? `${whole}.${fraction}` : String(whole)
}

/** For JSON bodies: the same value as a number (exact for 2 decimals). */
export function amountNumber(minor: number): number {
  return Number(formatAmount(minor))
}
