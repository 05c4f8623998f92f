import { createHmac, randomBytes } from "node:crypto"
import { RateLimits } from "./limits"
import { LimiterStore, MemoryLimiterStore } from "./store"

/** Why a request was refused; the route answers 429 with it (README "Rate limits"). */
export type RateLimitRefusal = {
  code: "session_limit" | "cart_limit" | "card_limit" | "address_limit" | "installments_limit" | "decline_budget"
  message: string
  retryAfterSeconds: number
}

/** What one payment attempt is counted against; absent keys are not counted. */
export type AttemptKeys = { sessionId?: string | null; cartId?: string | null; address?: string | null; cardNumber?: string | null }

const MESSAGES: Record<RateLimitRefusal["code"], string> = {
  session_limit: "Too many payment attempts for this checkout; please wait and try again",
  cart_limit: "Too many payment attempts for this cart; please wait and try again",
  card_limit: "Too many attempts with this card; please wait and try again",
  address_limit: "Too many payment attempts from this address; please wait and try again",
  installments_limit: "Too many installment look-ups from this address; please wait and try again",
  decline_budget: "Card payments are paused for a few minutes; please try again later or pay with 3D Secure",
}

/**
 * The plugin's one limiter: fixed windows counted in a pluggable store (in process by default).
 * Card numbers are counted by a keyed hash (HMAC-SHA256 with a key held only in memory), never stored.
 */
export class Limiter {
  constructor(
    readonly limits: RateLimits,
    readonly store: LimiterStore = new MemoryLimiterStore(),
    private readonly fingerprintKey: Buffer = randomBytes(32),
    private readonly now: () => number = Date.now
  ) {}

  /** A card number's keyed hash: equal for equal numbers in this limiter, useless without its key. */
  cardFingerprint(cardNumber: string): string {
    return createHmac("sha256", this.fingerprintKey).update(cardNumber.replace(/\D/g, "")).digest("base64url")
  }

  /**
   * Counts one payment attempt against each of its keys (every key is counted, refused or not, so a
   * client that keeps trying stays refused); null when every count is within its limit.
   */
  async countAttempt(keys: AttemptKeys): Promise<RateLimitRefusal | null> {
    if (!this.limits.enabled) {
      return null
    }
    const windowMs = this.limits.windowSeconds * 1000
    const checks: [RateLimitRefusal["code"], string, number][] = []
    if (keys.sessionId) checks.push(["session_limit", `session:${keys.sessionId}`, this.limits.perSession])
    if (keys.cartId) checks.push(["cart_limit", `cart:${keys.cartId}`, this.limits.perCart])
    if (keys.cardNumber) checks.push(["card_limit", `card:${this.cardFingerprint(keys.cardNumber)}`, this.limits.perCard])
    if (keys.address) checks.push(["address_limit", `address:${keys.address}`, this.limits.perAddress])
    const nowMs = this.now()
    const counts = await Promise.all(checks.map(([, key]) => this.store.hit(key, windowMs, nowMs)))
    const index = counts.findIndex((count, i) => count.count > checks[i][2])
    return index < 0 ? null : this.refusal(checks[index][0], counts[index].resetAtMs, nowMs)
  }

  /** Counts one installment look-up (a gateway call) for a client address. */
  async countInstallmentLookup(address: string): Promise<RateLimitRefusal | null> {
    if (!this.limits.enabled) {
      return null
    }
    const nowMs = this.now()
    const count = await this.store.hit(`installments:${address}`, this.limits.windowSeconds * 1000, nowMs)
    return count.count > this.limits.installmentsPerAddress ? this.refusal("installments_limit", count.resetAtMs, nowMs) : null
  }

  /** The store-wide decline budget, checked before a direct payment: refused for everyone once spent. */
  async checkDeclineBudget(): Promise<RateLimitRefusal | null> {
    if (!this.limits.enabled) {
      return null
    }
    const nowMs = this.now()
    const spent = await this.store.peek("declines", this.limits.declineWindowSeconds * 1000, nowMs)
    return spent.count >= this.limits.declineBudget ? this.refusal("decline_budget", spent.resetAtMs, nowMs) : null
  }

  /** One declined direct payment, spent from the store-wide budget. */
  async recordDecline(): Promise<void> {
    if (this.limits.enabled) {
      await this.store.hit("declines", this.limits.declineWindowSeconds * 1000, this.now())
    }
  }

  private refusal(code: RateLimitRefusal["code"], resetAtMs: number, nowMs: number): RateLimitRefusal {
    return { code, message: MESSAGES[code], retryAfterSeconds: Math.max(1, Math.ceil((resetAtMs - nowMs) / 1000)) }
  }
}
