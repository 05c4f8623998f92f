/**
 * Money as the gateway sees it: decimal strings with 2 decimals (TRY, USD, EUR), never through float arithmetic.
 * One formatter serves the request body and the hash, so the two cannot drift.
 */

/** A string, a number, Medusa's BigNumber (`raw.value`) or any value with a decimal `toString()` (bignumber.js). */
export type AmountInput = string | number | { raw?: { value: string | number }; value?: string | number; toString(): string }

const DECIMAL = /^([+-])?(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/
const MINOR_DIGITS = 2

function amountText(amount: AmountInput): string {
  if (typeof amount === "number") {
    if (!Number.isFinite(amount)) {
      throw new Error(`Invalid amount: ${amount} is not a finite number`)
    }
    return String(amount)
  }
  if (typeof amount === "string") {
    return amount
  }
  if (amount !== null && typeof amount === "object") {
    // Medusa's BigNumber keeps its exact value in `raw.value`; a raw amount (`{ value, precision }`) is passed as is.
    const raw = amount.raw?.value ?? amount.value
    if (raw !== undefined && raw !== null) {
      return amountText(raw)
    }
    if (typeof amount.toString === "function" && amount.toString !== Object.prototype.toString) {
      return amount.toString()
    }
  }
  throw new Error(`Invalid amount: expected a decimal string, a number or a BigNumber, got ${typeof amount}`)
}

/** Digits before and after the point, exponent applied, sign checked; throws on anything that is not a decimal. */
function parseDecimal(text: string): { negative: boolean; whole: string; fraction: string } {
  const trimmed = text.trim()
  const match = DECIMAL.exec(trimmed)
  if (!match || `${match[2] ?? ""}${match[3] ?? ""}` === "") {
    throw new Error(`Invalid amount: "${trimmed.slice(0, 40)}" is not a decimal number`)
  }
  const [, sign, wholeDigits = "", fractionDigits = "", exponentText] = match
  const exponent = exponentText ? Number(exponentText) : 0
  if (!Number.isSafeInteger(exponent) || Math.abs(exponent) > 1000) {
    throw new Error(`Invalid amount: "${trimmed.slice(0, 40)}" is out of range`)
  }
  let digits = wholeDigits + fractionDigits
  let point = wholeDigits.length + exponent
  if (point < 0) {
    digits = "0".repeat(-point) + digits
    point = 0
  }
  if (point > digits.length) {
    digits = digits + "0".repeat(point - digits.length)
  }
  return { negative: sign === "-", whole: digits.slice(0, point) || "0", fraction: digits.slice(point) }
}

/** Minor units (cents/kuruş), rounded half-up at the third decimal. Accepts the gateway's PHP-style totals ("20", "0.1"). */
export function toMinorUnits(value: AmountInput): bigint {
  const { negative, whole, fraction } = parseDecimal(amountText(value))
  const padded = fraction.padEnd(MINOR_DIGITS + 1, "0")
  let minor = BigInt(whole + padded.slice(0, MINOR_DIGITS))
  if (padded.charCodeAt(MINOR_DIGITS) >= "5".charCodeAt(0)) {
    minor += 1n
  }
  if (negative && (minor !== 0n || /[1-9]/.test(fraction))) {
    throw new Error("Invalid amount: negative amounts are not accepted")
  }
  return minor
}

/** "10.50" from 1050n. */
export function fromMinorUnits(minor: bigint): string {
  const sign = minor < 0n ? "-" : ""
  const digits = (minor < 0n ? -minor : minor).toString().padStart(MINOR_DIGITS + 1, "0")
  return `${sign}${digits.slice(0, -MINOR_DIGITS)}.${digits.slice(-MINOR_DIGITS)}`
}

/** The one amount format sent to the gateway, in bodies and hashes alike: "10.50", "1234.00". */
export function formatAmount(amount: AmountInput): string {
  return fromMinorUnits(toMinorUnits(amount))
}

/** Equal in minor units: "20", "20.00" and 20 are the same amount. */
export function amountsEqual(a: AmountInput, b: AmountInput): boolean {
  return toMinorUnits(a) === toMinorUnits(b)
}

/** formatAmount, or null when the value is absent or not a decimal (for reading gateway answers). */
export function formatAmountOrNull(value: unknown): string | null {
  if (value === null || value === undefined || value === "") {
    return null
  }
  try {
    return formatAmount(value as AmountInput)
  } catch {
    return null
  }
}
