import { MedusaError, MedusaService } from "@medusajs/framework/utils"
import { SipayClient } from "../../lib/sipay"
import { clientFor, databaseOf } from "../../lib/client-factory"
import { limiterFor } from "../../lib/shared-state/limiter-store"
import { assertValidOptions, SipayOptions } from "../../lib/options"
import type { Limiter } from "../../lib/limiter"
import { CheckoutSettings, checkoutSettingsFrom, SettingsRow, storedSettingsFrom } from "../../lib/settings"
import { CheckoutSetting } from "./models/checkout-setting"
import { Chargeback } from "./models/chargeback"
import { LedgerDay } from "./models/ledger-day"
import { LedgerSale } from "./models/ledger-sale"
import { PaymentAttempt } from "./models/payment-attempt"
import { PaymentLink } from "./models/payment-link"
import { PaymentLinkEmail } from "./models/payment-link-email"
import { RecurringCharge } from "./models/recurring-charge"
import { RecurringPlanRecord } from "./models/recurring-plan"
import { OrderPaymentLink } from "./models/order-payment-link"

/** What settling writes on an attempt. */
export type AttemptOutcome = {
  status?: "pending" | "paid" | "authorized" | "failed" | "cancelled" | "reversed"
  order_id?: string | null
  masked_card?: string | null
  gateway_order_no?: string | null
  error_code?: string | null
  error_message?: string | null
  completed_at?: Date | null
  metadata?: Record<string, unknown> | null
}

const ATTEMPT_OUTCOME_COLUMNS = ["status", "order_id", "masked_card", "gateway_order_no", "error_code", "error_message", "completed_at", "metadata"] as const

type ModuleCradle = { logger?: { debug?(m: string): void; info?(m: string): void; warn?(m: string): void; error?(m: string): void } }

/**
 * What this plugin stores, and, for routes, workflows and jobs (which cannot read the provider's
 * options), the plugin options, the effective checkout settings and one shared gateway client.
 */
class SipayModuleService extends MedusaService({
  PaymentAttempt,
  RecurringCharge,
  RecurringPlanRecord,
  OrderPaymentLink,
  PaymentLink,
  PaymentLinkEmail,
  CheckoutSetting,
  LedgerSale,
  LedgerDay,
  Chargeback,
}) {
  protected readonly options_: SipayOptions
  protected readonly logger_?: ModuleCradle["logger"]
  private client_?: SipayClient
  private limiter_?: Limiter
  private readonly cradle_: ModuleCradle

  constructor(cradle: ModuleCradle, options: SipayOptions) {
    // eslint-disable-next-line prefer-rest-params
    super(...arguments)
    assertValidOptions(options, "plugin options")
    this.options_ = options
    this.logger_ = cradle.logger
    this.cradle_ = cradle
  }

  getOptions(): SipayOptions {
    return this.options_
  }

  /** One client per process, so its token is reused across requests. */
  getClient(): SipayClient {
    this.client_ ??= clientFor(this.options_, this.logger_, this.cradle_)
    return this.client_
  }

  /** The plugin's one limiter, shared by every route that limits (docs/storefront.md "Rate limits and the client address"); in memory by default. */
  getLimiter(): Limiter {
    this.limiter_ ??= limiterFor(this.options_, databaseOf(this.cradle_))
    return this.limiter_
  }

  /**
   * An attempt's outcome in one UPDATE (no read before it, as the generated update makes): the last
   * write of every checkout. Only the given fields change.
   */
  async recordAttemptOutcome(id: string, outcome: AttemptOutcome): Promise<void> {
    const db = databaseOf(this.cradle_)()
    if (!db) {
      throw new MedusaError(MedusaError.Types.UNEXPECTED_STATE, "Sipay: the plugin's module has no database connection")
    }
    const columns = ATTEMPT_OUTCOME_COLUMNS.filter((column) => outcome[column] !== undefined)
    const values = columns.map((column) => (column === "metadata" && outcome.metadata !== null ? JSON.stringify(outcome.metadata) : outcome[column]))
    await db.raw(
      `UPDATE sipay_payment_attempt SET ${columns.map((column) => `"${column}" = ?`).join(", ")}${columns.length ? ", " : ""}updated_at = now() WHERE id = ? AND deleted_at IS NULL`,
      [...values, id]
    )
  }

  /**
   * Closes a replaced session's open attempts (its forms issued, none settled): each is marked
   * `metadata.closed` and can no longer become an order (the settle step gives back any payment made
   * on it). They stay pending, so the reconciliation job still asks the gateway about them and a
   * form paid late is given back. One UPDATE; running it again changes nothing. Answers how many it closed.
   */
  async closeSessionAttempts(sessionId: string, closed: { reason: string; replaced_by: string }): Promise<number> {
    const db = databaseOf(this.cradle_)()
    if (!db) {
      throw new MedusaError(MedusaError.Types.UNEXPECTED_STATE, "Sipay: the plugin's module has no database connection")
    }
    const result = await db.raw(
      `UPDATE sipay_payment_attempt SET metadata = COALESCE(metadata, '{}'::jsonb) || jsonb_build_object('closed', ?::jsonb)
       WHERE session_id = ? AND status = 'pending' AND deleted_at IS NULL AND (metadata IS NULL OR metadata->'closed' IS NULL)`,
      [JSON.stringify({ ...closed, at: new Date().toISOString() }), sessionId]
    )
    return Number((result as { rowCount?: number }).rowCount ?? 0)
  }

  /** The store's PostgreSQL as raw SQL (the tables the plugin reaches without a model), or undefined. */
  getDatabase() {
    return databaseOf(this.cradle_)()
  }

  /** The store owner's settings row (at most one), or null when nothing was saved. */
  async getSettingsRow(): Promise<(SettingsRow & { id: string }) | null> {
    const [row] = await this.listCheckoutSettings({}, { take: 1, order: { created_at: "ASC" } })
    return (row as (SettingsRow & { id: string }) | undefined) ?? null
  }

  /** Read for every new attempt: saved settings over the options, so a change applies without a restart. */
  async getCheckoutSettings(): Promise<CheckoutSettings> {
    return checkoutSettingsFrom(this.options_, storedSettingsFrom(await this.getSettingsRow()))
  }
}

export default SipayModuleService
