/**
 * The plugin's rate limits (option `rateLimits`): every limit and window with its default. Pure.
 */
export type RateLimitOptions = {
  /** false turns every limit off (a test or a store behind its own limiter). Default true. */
  enabled?: boolean
  /** Length of the window of the per-session, per-cart, per-card and per-address limits. Default 600 s. */
  windowSeconds?: number
  /** Payment attempts (3D forms, hosted-page sign, direct card tries) per payment session per window. Default 10. */
  perSession?: number
  /** Payment attempts per cart per window, over all of its payment sessions. Default 20. */
  perCart?: number
  /** Direct card tries per card number (keyed hash, never stored) per window. Default 5. */
  perCard?: number
  /** Payment attempts per client address per window. Default 30. */
  perAddress?: number
  /** Installment look-ups per client address per window. Default 60. */
  installmentsPerAddress?: number
  /** Store-wide declined direct payments per decline window; past it, direct payments are refused for everyone until the window ends. Default 100. */
  declineBudget?: number
  /** Length of the decline budget's window. Default 900 s. */
  declineWindowSeconds?: number
}

export type RateLimits = Required<RateLimitOptions>

export const DEFAULT_RATE_LIMITS: RateLimits = {
  enabled: true,
  windowSeconds: 600,
  perSession: 10,
  perCart: 20,
  perCard: 5,
  perAddress: 30,
  installmentsPerAddress: 60,
  declineBudget: 100,
  declineWindowSeconds: 900,
}

const COUNTS = ["windowSeconds", "perSession", "perCart", "perCard", "perAddress", "installmentsPerAddress", "declineBudget", "declineWindowSeconds"] as const

export function findRateLimitProblems(given: unknown): string[] {
  if (given === undefined || given === null) {
    return []
  }
  if (typeof given !== "object" || Array.isArray(given)) {
    return [`option "rateLimits" must be an object`]
  }
  const problems: string[] = []
  for (const [name, value] of Object.entries(given)) {
    if (name === "enabled") {
      if (typeof value !== "boolean") problems.push(`option "rateLimits.enabled" must be true or false`)
    } else if (!(COUNTS as readonly string[]).includes(name)) {
      problems.push(`option "rateLimits.${name}" is not a rate limit (known: enabled, ${COUNTS.join(", ")})`)
    } else if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) {
      problems.push(`option "rateLimits.${name}" must be a positive number`)
    }
  }
  return problems
}

export function resolveRateLimits(given: RateLimitOptions | undefined): RateLimits {
  const defined = Object.fromEntries(Object.entries(given ?? {}).filter(([, value]) => value !== undefined))
  return { ...DEFAULT_RATE_LIMITS, ...defined }
}
