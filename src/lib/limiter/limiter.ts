import { createHmac, randomBytes, randomUUID } from "node:crypto"
import { AttemptLog, LoggedAttempt, MemoryAttemptLog } from "./attempt-log"
import { addressLimitKey, addressPrefixKey } from "./ip"
import { RateLimits } from "./limits"
import { LimiterStore, MemoryLimiterStore } from "./store"

/** Why a request was refused; the route answers 429 with it (docs/storefront.md "Rate limits and the client address"), the text by its code. */
export type RateLimitRefusal = {
  code: "session_limit" | "cart_limit" | "card_limit" | "address_limit" | "address_busy" | "installments_limit" | "decline_budget"
  retryAfterSeconds: number
}

/**
 * What one payment attempt is counted against; absent keys are not counted. `address`: the client's
 * canonical address when the per-address limits count it (see resolveClientAddress).
 */
export type AttemptKeys = { sessionId?: string | null; cartId?: string | null; address?: string | null; cardNumber?: string | null }

/**
 * The outcome of admitting an attempt: refused, or admitted with the ticket of its entry in the
 * address's attempt log (null when no address was counted), to bind to the attempt's invoice once it
 * exists, or to give back when it never starts.
 */
export type Admission = { refusal: RateLimitRefusal; ticket?: undefined } | { refusal: null; ticket: string | null }

/** What a direct payment's decline budgets are counted over. */
export type DeclineSignals = { bin?: string | null; address?: string | null; cartId?: string | null }

/** An entry not bound to an attempt within this long never started (its request failed): it is dropped. */
const UNBOUND_GRACE_MS = 120_000
/** A shopper who comes back has their open attempt checked at the gateway at most once per this long (README "Recovery"). */
export const GATEWAY_CHECK_INTERVAL_MS = 10_000
/** A client refused for attempts open at once is told to come back within this long. */
const BUSY_RETRY_SECONDS = 30
const PAID = new Set(["paid", "authorized", "reversed"])
const ENDED_UNPAID = new Set(["failed", "cancelled"])

/** The payment session of an invoice id (`<session id>_<attempt>`). */
function sessionOfInvoice(invoiceId: string): string {
  const cut = invoiceId.lastIndexOf("_")
  return cut > 0 ? invoiceId.slice(0, cut) : invoiceId
}

/**
 * The plugin's one limiter. Per session, cart and card: fixed windows counted in a pluggable store
 * (card numbers by a keyed hash, never stored). Per client address: the attempts it started, read
 * back with their outcome (attempts ended unpaid, attempts open at once). For direct payments:
 * decline budgets per BIN, address prefix and cart, and a store-wide one as the last resort.
 */
export class Limiter {
  constructor(
    readonly limits: RateLimits,
    readonly store: LimiterStore = new MemoryLimiterStore(),
    readonly attempts: AttemptLog = new MemoryAttemptLog(async () => new Map()),
    private readonly fingerprintKey: Buffer = randomBytes(32),
    private readonly now: () => number = Date.now
  ) {}

  /** A card number's keyed hash: equal for equal numbers in this limiter, useless without its key. */
  cardFingerprint(cardNumber: string): string {
    return createHmac("sha256", this.fingerprintKey).update(cardNumber.replace(/\D/g, "")).digest("base64url")
  }

  /**
   * Admits one payment attempt. Its session, cart and card are counted (refused or not, so a client
   * that keeps trying stays refused); then its client, by the attempts it started in the window:
   * refused when `perAddress` of them ended unpaid, or `openPerAddress` are still open.
   */
  async admitAttempt(keys: AttemptKeys): Promise<Admission> {
    if (!this.limits.enabled) {
      return { refusal: null, ticket: null }
    }
    const windowMs = this.limits.windowSeconds * 1000
    const checks: [RateLimitRefusal["code"], string, number][] = []
    if (keys.sessionId) checks.push(["session_limit", `session:${keys.sessionId}`, this.limits.perSession])
    if (keys.cartId) checks.push(["cart_limit", `cart:${keys.cartId}`, this.limits.perCart])
    if (keys.cardNumber) checks.push(["card_limit", `card:${this.cardFingerprint(keys.cardNumber)}`, this.limits.perCard])
    const nowMs = this.now()
    const counts = await Promise.all(checks.map(([, key]) => this.store.hit(key, windowMs, nowMs)))
    const index = counts.findIndex((count, i) => count.count > checks[i][2])
    if (index >= 0) {
      return { refusal: this.refusal(checks[index][0], counts[index].resetAtMs, nowMs) }
    }
    const key = keys.address ? addressLimitKey(keys.address) : null
    return key ? this.admitFromAddress(`address:${key}`, nowMs) : { refusal: null, ticket: null }
  }

  /** The admitted attempt exists: its entry now follows the attempt's status. */
  async attemptStarted(ticket: string | null | undefined, invoiceId: string): Promise<void> {
    if (ticket) await this.attempts.bind(ticket, invoiceId)
  }

  /**
   * The started attempt ended unpaid as its route saw it (a direct payment the gateway refused), while
   * its record may stay pending until the gateway is asked again; a later paid status still wins.
   */
  async attemptEndedUnpaid(ticket: string | null | undefined): Promise<void> {
    if (ticket) await this.attempts.markEndedUnpaid(ticket)
  }

  /** The admitted attempt never started (its request failed): its entry is given back. */
  async attemptAbandoned(ticket: string | null | undefined): Promise<void> {
    if (ticket) await this.attempts.forget([ticket])
  }

  private async admitFromAddress(key: string, nowMs: number): Promise<Admission> {
    const ticket = randomUUID()
    // Entered first, counted after: two requests racing each see the other, so neither slips past a limit.
    await this.attempts.add(key, ticket, nowMs)
    // The window: the attempts started in the last windowSeconds (one started exactly that long ago has left it).
    const entries = (await this.attempts.list(key, nowMs - this.limits.windowSeconds * 1000 + 1)).filter((entry) => entry.entryId !== ticket)
    const { unpaid, open, done } = this.classify(entries, nowMs)
    if (done.length) {
      await this.attempts.forget(done)
    }
    if (unpaid.length >= this.limits.perAddress) {
      await this.attempts.forget([ticket])
      // Admitted again once enough of the unpaid ones have left the window.
      const leaving = unpaid.sort((a, b) => a - b)[unpaid.length - this.limits.perAddress]
      return { refusal: this.refusal("address_limit", leaving + this.limits.windowSeconds * 1000, nowMs) }
    }
    if (open.length >= this.limits.openPerAddress) {
      await this.attempts.forget([ticket])
      const firstToExpire = Math.min(...open) + this.limits.openSeconds * 1000
      return { refusal: this.refusal("address_busy", Math.min(firstToExpire, nowMs + BUSY_RETRY_SECONDS * 1000), nowMs) }
    }
    return { refusal: null, ticket }
  }

  /**
   * Start times of the attempts that ended unpaid (declined, cancelled, refused as their route saw it,
   * or left pending past `openSeconds`) and of those still open; the ids of entries done with (paid, and the other
   * attempts of a session that ended paid: an honest shopper's earlier declines are taken back; and
   * entries that never became an attempt).
   */
  private classify(entries: LoggedAttempt[], nowMs: number): { unpaid: number[]; open: number[]; done: string[] } {
    const openMs = this.limits.openSeconds * 1000
    const paidSessions = new Set(entries.filter((entry) => entry.invoiceId && PAID.has(entry.status ?? "")).map((entry) => sessionOfInvoice(entry.invoiceId!)))
    const unpaid: number[] = []
    const open: number[] = []
    const done: string[] = []
    for (const entry of entries) {
      const age = nowMs - entry.startedMs
      if (!entry.invoiceId) {
        if (age < UNBOUND_GRACE_MS) open.push(entry.startedMs)
        else done.push(entry.entryId)
      } else if (paidSessions.has(sessionOfInvoice(entry.invoiceId))) {
        done.push(entry.entryId)
      } else if (ENDED_UNPAID.has(entry.status ?? "") || entry.endedUnpaid || age >= openMs) {
        unpaid.push(entry.startedMs)
      } else {
        open.push(entry.startedMs)
      }
    }
    return { unpaid, open, done }
  }

  /**
   * Whether the gateway may be asked about `invoiceId` now on a shopper's behalf: at most once per
   * GATEWAY_CHECK_INTERVAL_MS per attempt, across every instance sharing the store, whatever the limits' switch.
   */
  async admitGatewayCheck(invoiceId: string): Promise<boolean> {
    return this.store.claim(`gateway-check:${invoiceId}`, GATEWAY_CHECK_INTERVAL_MS, this.now())
  }

  /** Counts one installment look-up (a gateway call) for a client address. */
  async countInstallmentLookup(address: string): Promise<RateLimitRefusal | null> {
    const key = addressLimitKey(address)
    if (!this.limits.enabled || !key) {
      return null
    }
    const nowMs = this.now()
    const count = await this.store.hit(`installments:${key}`, this.limits.windowSeconds * 1000, nowMs)
    return count.count > this.limits.installmentsPerAddress ? this.refusal("installments_limit", count.resetAtMs, nowMs) : null
  }

  /** The decline budgets a direct payment is checked against before any gateway call: store-wide, then its BIN, address prefix and cart. */
  private budgetsOf(signals: DeclineSignals): { key: string; limit: number }[] {
    const prefix = signals.address ? addressPrefixKey(signals.address) : null
    const budgets = [{ key: "declines", limit: this.limits.declineBudget }]
    if (signals.bin) budgets.push({ key: `declines:bin:${signals.bin}`, limit: this.limits.declinesPerBin })
    if (prefix) {
      budgets.push({ key: `declines:prefix:${prefix}`, limit: this.limits.declinesPerPrefix })
      budgets.push({ key: `invalid:prefix:${prefix}`, limit: this.limits.invalidCardsPerPrefix })
    }
    if (signals.cartId) budgets.push({ key: `declines:cart:${signals.cartId}`, limit: this.limits.declinesPerCart })
    return budgets
  }

  /** Refused (decline_budget) when any budget of the payment's signals is spent. */
  async checkDeclineBudgets(signals: DeclineSignals): Promise<RateLimitRefusal | null> {
    if (!this.limits.enabled) {
      return null
    }
    const windowMs = this.limits.declineWindowSeconds * 1000
    const nowMs = this.now()
    const budgets = this.budgetsOf(signals)
    const spent = await Promise.all(budgets.map(({ key }) => this.store.peek(key, windowMs, nowMs)))
    const index = spent.findIndex((count, i) => count.count >= budgets[i].limit)
    return index < 0 ? null : this.refusal("decline_budget", spent[index].resetAtMs, nowMs)
  }

  /**
   * One direct payment that did not succeed, spent from its signals' budgets (`invalid`: the gateway
   * called the card not valid). The store-wide budget takes at most `declinesPerPrefix` from one
   * address prefix (requests counted on no address share one such allowance).
   */
  async recordDecline(signals: DeclineSignals & { invalid?: boolean }): Promise<void> {
    if (!this.limits.enabled) {
      return
    }
    const windowMs = this.limits.declineWindowSeconds * 1000
    const nowMs = this.now()
    const [, ...own] = this.budgetsOf(signals)
    const counted = own.filter(({ key }) => signals.invalid || !key.startsWith("invalid:"))
    await Promise.all(counted.map(({ key }) => this.store.hit(key, windowMs, nowMs)))
    const prefix = signals.address ? addressPrefixKey(signals.address) : null
    const share = await this.store.hit(`declines:share:${prefix ?? "no-address"}`, windowMs, nowMs)
    if (share.count <= this.limits.declinesPerPrefix) {
      await this.store.hit("declines", windowMs, nowMs)
    }
  }

  private refusal(code: RateLimitRefusal["code"], resetAtMs: number, nowMs: number): RateLimitRefusal {
    return { code, retryAfterSeconds: Math.max(1, Math.ceil((resetAtMs - nowMs) / 1000)) }
  }
}
