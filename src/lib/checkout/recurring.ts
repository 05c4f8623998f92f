/**
 * A subscription is the merchant's decision, never the storefront's: a product whose metadata holds
 * `sipay_recurring: { cycle: "D"|"M"|"Y", interval, payment_number }` is charged that many times.
 */
export type RecurringPlan = { cycle: "D" | "M" | "Y"; interval: number; paymentNumber: number }

export const RECURRING_METADATA_KEY = "sipay_recurring"

function planOf(metadata: Record<string, unknown> | null): RecurringPlan | string | null {
  const raw = metadata?.[RECURRING_METADATA_KEY]
  if (raw === undefined || raw === null) {
    return null
  }
  const spec = (typeof raw === "string" ? safeJson(raw) : raw) as Record<string, unknown> | null
  const cycle = String(spec?.cycle ?? "").toUpperCase()
  const interval = Number(spec?.interval)
  const paymentNumber = Number(spec?.payment_number)
  if (!["D", "M", "Y"].includes(cycle)) {
    return `${RECURRING_METADATA_KEY}.cycle must be D, M or Y`
  }
  if (!Number.isInteger(interval) || interval < 1) {
    return `${RECURRING_METADATA_KEY}.interval must be a whole number of at least 1`
  }
  if (!Number.isInteger(paymentNumber) || paymentNumber < 2) {
    return `${RECURRING_METADATA_KEY}.payment_number must be a whole number of at least 2`
  }
  return { cycle: cycle as RecurringPlan["cycle"], interval, paymentNumber }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return null
  }
}

/** The cart's plan: none, or the one plan all its products share; a message when they disagree. */
export function recurringPlanOfCart(productMetadata: (Record<string, unknown> | null)[]): RecurringPlan | string | null {
  const plans = productMetadata.map(planOf)
  const problem = plans.find((plan): plan is string => typeof plan === "string")
  if (problem) {
    return problem
  }
  const recurring = plans.filter((plan): plan is RecurringPlan => plan !== null)
  if (!recurring.length) {
    return null
  }
  if (recurring.length !== plans.length || recurring.some((plan) => JSON.stringify(plan) !== JSON.stringify(recurring[0]))) {
    return "a recurring product must be bought on its own, or with products of the same plan"
  }
  return recurring[0]
}
