import { MedusaService } from "@medusajs/framework/utils"
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

  /** The plugin's one limiter, shared by every route that limits (README "Rate limits"); in memory by default. */
  getLimiter(): Limiter {
    this.limiter_ ??= limiterFor(this.options_, databaseOf(this.cradle_))
    return this.limiter_
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
