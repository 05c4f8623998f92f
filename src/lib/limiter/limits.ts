/**
 * The plugin's rate limits (option `rateLimits`): every limit and window with its default. Pure.
 * docs/storefront.md "Rate limits and the client address" documents each one.
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
  /**
   * Payment attempts per client (an IPv4 address or an IPv6 /64) that ended unpaid (declined,
   * cancelled, expired) within the window; a paid attempt takes back its own count and its
   * session's. Default 30.
   */
  perAddress?: number
  /** Payment attempts one client may have open at once (started, not yet ended): a burst behind one NAT address. Default 100. */
  openPerAddress?: number
  /** How long a started attempt counts as open; one still pending after it counts as unpaid (expired). Default 300 s (half the window when that is shorter). */
  openSeconds?: number
  /** Installment look-ups per client per window. Default 60. */
  installmentsPerAddress?: number
  /** Window of the decline budgets below. Default 900 s. */
  declineWindowSeconds?: number
  /** Direct payments that did not succeed per card BIN (first 6 digits); past it, that BIN pays by 3D only. Default 20. */
  declinesPerBin?: number
  /** Direct payments that did not succeed per address prefix (IPv4 /24, IPv6 /48). Default 10. */
  declinesPerPrefix?: number
  /** Of those, tries the gateway called not a valid card (what random card numbers get), per prefix. Default 3. */
  invalidCardsPerPrefix?: number
  /** Direct payments that did not succeed per cart. Default 5. */
  declinesPerCart?: number
  /**
   * The last resort, store-wide: past it every direct payment is refused until its window ends. Each
   * address prefix adds at most `declinesPerPrefix` to it, so one tester (a few prefixes) cannot spend it. Default 300.
   */
  declineBudget?: number
}

export type RateLimits = Required<RateLimitOptions>

export const DEFAULT_RATE_LIMITS: RateLimits = {
  enabled: true,
  windowSeconds: 600,
  perSession: 10,
  perCart: 20,
  perCard: 5,
  perAddress: 30,
  openPerAddress: 100,
  openSeconds: 300,
  installmentsPerAddress: 60,
  declineWindowSeconds: 900,
  declinesPerBin: 20,
  declinesPerPrefix: 10,
  invalidCardsPerPrefix: 3,
  declinesPerCart: 5,
  declineBudget: 300,
}

const COUNTS = Object.keys(DEFAULT_RATE_LIMITS).filter((name) => name !== "enabled")

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
    } else if (!COUNTS.includes(name)) {
      problems.push(`option "rateLimits.${name}" is not a rate limit (known: enabled, ${COUNTS.join(", ")})`)
    } else if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) {
      problems.push(`option "rateLimits.${name}" must be a positive number`)
    }
  }
  if (!problems.length && (given as RateLimitOptions).openSeconds !== undefined) {
    const limits = resolveRateLimits(given as RateLimitOptions)
    if (limits.openSeconds >= limits.windowSeconds) {
      problems.push(`option "rateLimits.openSeconds" (${limits.openSeconds}) must be shorter than "rateLimits.windowSeconds" (${limits.windowSeconds}), or an attempt left open would never count as unpaid`)
    }
  }
  return problems
}

export function resolveRateLimits(given: RateLimitOptions | undefined): RateLimits {
  const defined = Object.fromEntries(Object.entries(given ?? {}).filter(([, value]) => value !== undefined))
  const limits = { ...DEFAULT_RATE_LIMITS, ...defined }
  // A short window without its own openSeconds: attempts left open count as unpaid halfway through it.
  return given?.openSeconds === undefined ? { ...limits, openSeconds: Math.min(DEFAULT_RATE_LIMITS.openSeconds, limits.windowSeconds / 2) } : limits
}
