/** The sandbox merchant's pricing: 2.5 % commission on the amount taken, no fixed fee, no rolling reserve. */
export const MERCHANT_PRICING = {
  merchant_commission_percentage: 2.5,
  merchant_commission_fixed: 0,
  end_user_commission_percentage: 0,
  end_user_commission_fixed: 0,
  merchant_rolling_percentage: 0,
  cot_percentage: 0,
  cot_fixed: 0,
}

/** The merchant's commission on an amount taken, in minor units (rounded half up to cents). */
export function merchantCommissionMinor(capturedMinor: number): number {
  return Math.round((capturedMinor * MERCHANT_PRICING.merchant_commission_percentage) / 100)
}
