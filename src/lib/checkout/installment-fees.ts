import { fromMinorUnits, toMinorUnits, type AmountInput } from "../sipay"

/**
 * The merchant's choice per installment count (Settings -> Sipay): absorb the commission (the
 * default: the total does not change), or pass it to the shopper at the gateway's rate (getpos's
 * `payable_amount` for the card's BIN and count) or at the merchant's own rate (a percentage of the
 * amount, rounded half up to the kuruş, plus a fixed part). Pure functions: no I/O.
 */
export type InstallmentFeeRule = { mode: "absorb" } | { mode: "gateway" } | { mode: "own"; percentage: number; fixed: number }

/** Stored and sent by the admin API: count ("2".."12") -> rule; a missing count absorbs. */
export type InstallmentFeeRules = Record<string, InstallmentFeeRule>

/**
 * How the fee line is taxed. "inclusive" (the default): the fee is a tax-inclusive price, so the
 * shopper pays exactly the fee shown and the store's tax is carved out of it; "exclusive": the
 * region's tax is added on top of the fee, as on any tax-exclusive line.
 */
export type InstallmentFeeTax = "inclusive" | "exclusive"
export const DEFAULT_INSTALLMENT_FEE_TAX: InstallmentFeeTax = "inclusive"

export function feeRuleFor(rules: InstallmentFeeRules | null | undefined, installments: number): InstallmentFeeRule {
  if (installments <= 1) {
    return { mode: "absorb" }
  }
  return rules?.[String(installments)] ?? { mode: "absorb" }
}

/** The problem with a set of rules in words, or null (admin input). */
export function installmentFeeRulesProblem(value: unknown): string | null {
  if (value === null || value === undefined) return null
  if (typeof value !== "object" || Array.isArray(value)) return "installment_fees must be an object of installment count -> rule"
  for (const [count, rule] of Object.entries(value as Record<string, unknown>)) {
    if (!/^(?:[2-9]|1[0-2])$/.test(count)) return `installment_fees: ${count} is not an installment count from 2 to 12`
    const mode = (rule as { mode?: unknown } | null)?.mode
    if (mode === "absorb" || mode === "gateway") continue
    if (mode !== "own") return `installment_fees.${count}.mode must be absorb, gateway or own`
    const { percentage, fixed } = rule as { percentage?: unknown; fixed?: unknown }
    if (typeof percentage !== "number" || !Number.isFinite(percentage) || percentage < 0 || percentage > 100 || Math.abs(percentage * 100 - Math.round(percentage * 100)) > 1e-6) {
      return `installment_fees.${count}.percentage must be a number from 0 to 100 with at most 2 decimals`
    }
    if (typeof fixed !== "number" || !Number.isFinite(fixed) || fixed < 0 || fixed > 100000 || Math.abs(fixed * 100 - Math.round(fixed * 100)) > 1e-6) {
      return `installment_fees.${count}.fixed must be an amount from 0 with at most 2 decimals`
    }
  }
  return null
}

/** percentage % of an amount in minor units, half up, plus a fixed part (major units). */
export function rateFee(amountMinor: bigint, percentage: number, fixed: number): bigint {
  const basisPoints = BigInt(Math.round(percentage * 100))
  return (amountMinor * basisPoints + 5000n) / 10000n + toMinorUnits(fixed)
}

/**
 * The fee for a count, in minor units. `gatewayPayable`: getpos's payable_amount for the card's BIN and
 * this count (required for the gateway's rate; null when the gateway offers no such row, then no fee
 * can be computed and the caller refuses the count).
 */
export function installmentFeeMinor(amount: AmountInput, rule: InstallmentFeeRule, gatewayPayable?: AmountInput | null): bigint | null {
  const base = toMinorUnits(amount)
  switch (rule.mode) {
    case "absorb":
      return 0n
    case "own":
      return rateFee(base, rule.percentage, rule.fixed)
    case "gateway": {
      if (gatewayPayable === null || gatewayPayable === undefined) return null
      const difference = toMinorUnits(gatewayPayable) - base
      return difference > 0n ? difference : 0n
    }
  }
}

/** One row of what the shopper sees: n x per-installment = total (+ fee). The last installment takes the remainder. */
export type InstallmentPrice = { installments: number; fee: string; total: string; per_installment: string }

export function installmentPrice(amount: AmountInput, installments: number, feeMinor: bigint): InstallmentPrice {
  const total = toMinorUnits(amount) + feeMinor
  // Rounded half up, as banks show it ("3 x 111,80"); the bank settles any remainder on one installment.
  const per = (total * 2n + BigInt(installments)) / (2n * BigInt(installments))
  return { installments, fee: fromMinorUnits(feeMinor), total: fromMinorUnits(total), per_installment: fromMinorUnits(per) }
}
