import type { CommissionOverride, Merchant } from "../types"

/**
 * The merchant's commission table, per installment count and card program, as /api/commissions answers
 * it (sipay-php-sdk CommissionMapper / sipay-node CommissionData): `merchant_commission_*` is what the
 * merchant pays the gateway, `user_commission_*` what getpos adds to `payable_amount` when the shopper pays
 * the difference. Percentages with 2 decimals, fixed parts in major units.
 */
export type CommissionRate = {
  merchant_commission_percentage: number
  merchant_commission_fixed: number
  user_commission_percentage: number
  user_commission_fixed: number
}

/** The card families of the sandbox's cards (cards.ts) and the gateway's titles for them. */
export const CARD_PROGRAMS: { program: string; title: string }[] = [
  { program: "BONUS", title: "Bonus" },
  { program: "WORLD", title: "World" },
  { program: "MAXIMUM", title: "Maximum" },
  { program: "AXESS", title: "Axess" },
  { program: "CARD_FNS", title: "CardFinans" },
  { program: "PARAF", title: "Paraf" },
  { program: "ADVANT", title: "Advantage" },
  { program: "COMBO", title: "Bankkart Combo" },
]

/** End-user commission (%) per installment count on the BONUS program; other programs add a small step each. */
const USER_PERCENTAGES: Record<number, number> = { 1: 0, 2: 1.95, 3: 3.07, 4: 4.05, 5: 5.02, 6: 5.99, 7: 6.95, 8: 7.9, 9: 8.85, 10: 9.8, 11: 10.74, 12: 11.68 }
const MERCHANT_PERCENTAGE = 1.79

/** The default table: every program, every installment count the merchant has; a merchant config's rows replace single cells. */
export function commissionRate(merchant: Merchant, program: string, installment: number): CommissionRate | null {
  const override = merchant.commissions.find((row) => row.card_program === program && row.installment === installment)
  const index = CARD_PROGRAMS.findIndex((entry) => entry.program === program)
  if (!merchant.installments.includes(installment) || (index < 0 && !override)) return null
  const base: CommissionRate = {
    merchant_commission_percentage: MERCHANT_PERCENTAGE,
    merchant_commission_fixed: 0,
    user_commission_percentage: installment === 1 ? 0 : round2((USER_PERCENTAGES[installment] ?? installment) + Math.max(0, index) * 0.05),
    user_commission_fixed: 0,
  }
  const { card_program: _program, installment: _installment, ...rest } = override ?? ({} as CommissionOverride)
  return { ...base, ...rest }
}

/** The end-user commission on an amount, in minor units: percentage rounded half up to the kuruş, plus the fixed part. */
export function userCommission(amountMinor: number, rate: CommissionRate): number {
  const basisPoints = Math.round(rate.user_commission_percentage * 100)
  return Math.floor((amountMinor * basisPoints + 5000) / 10000) + Math.round(rate.user_commission_fixed * 100)
}

function round2(value: number): number {
  return Math.round(value * 100) / 100
}
