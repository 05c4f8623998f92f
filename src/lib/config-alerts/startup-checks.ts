import type { SipayOptions } from "../options"
import { checkoutSettingsFrom, storedSettingsFrom, type CheckoutSettings, type SettingsRow } from "../settings"
import { rowsOf, type SharedStateDatabase } from "../shared-state/database"
import { RECURRING_METADATA_KEY } from "../checkout/recurring"

/** What an enabled feature needs and does not have, by code (the admin words it: settings.setupWarnings.<code>). */
export type SetupWarningCode = "recurring_without_webhook_key" | "direct_without_option" | "production_without_sale_webhook_key"

export const SETUP_WARNING_TEXTS: Record<SetupWarningCode, string> = {
  recurring_without_webhook_key:
    "Recurring products are on sale (product metadata sipay_recurring) but no recurring webhook key is set: their checkout is refused. Set the key defined on the merchant panel in Settings -> Sipay, or SIPAY_RECURRING_WEBHOOK_KEY.",
  direct_without_option:
    'Direct (2D) payment is offered (a region lists pp_sipay-2d_sipay, or it is on in Settings -> Sipay) but the option "enableDirectPayment" is off: the provider refuses every direct payment. Set SIPAY_ENABLE_DIRECT_PAYMENT=true (enableDirectPayment), or take the provider off the regions.',
  production_without_sale_webhook_key:
    "A production store without a sale webhook key: a shopper who pays at the bank but never comes back waits for the reconciliation job (minutes) instead of the gateway's webhook (seconds). Set the key in Settings -> Sipay or SIPAY_SALE_WEBHOOK_KEY.",
}

/** The facts the checks read from the store (the database), apart from the settings. */
export type SetupFacts = { recurringProducts: number; regionsWithDirect: number }

/** Pure: which enabled features lack what they need. */
export function findSetupWarnings(settings: CheckoutSettings, options: SipayOptions, facts: SetupFacts, nodeEnv: string | undefined): SetupWarningCode[] {
  const warnings: SetupWarningCode[] = []
  if (facts.recurringProducts > 0 && !settings.recurringWebhookKey) warnings.push("recurring_without_webhook_key")
  if ((settings.directPaymentEnabled || facts.regionsWithDirect > 0) && options.enableDirectPayment !== true) warnings.push("direct_without_option")
  if (["production", "prod"].includes(String(nodeEnv ?? "")) && !settings.saleWebhookKey) warnings.push("production_without_sale_webhook_key")
  return warnings
}

/** The effective settings and the store's facts, read with raw SQL (the loader has no service yet). */
export async function readSetupState(db: SharedStateDatabase, options: SipayOptions): Promise<{ settings: CheckoutSettings; facts: SetupFacts }> {
  const [settingsAnswer, recurringAnswer, directAnswer] = await Promise.all([
    db.raw(`select * from "sipay_checkout_setting" where "deleted_at" is null order by "created_at" asc limit 1`),
    db.raw(`select count(*)::int as "n" from "product" where "deleted_at" is null and jsonb_exists("metadata", ?)`, [RECURRING_METADATA_KEY]),
    db.raw(`select count(*)::int as "n" from "region_payment_provider" where "deleted_at" is null and "payment_provider_id" = 'pp_sipay-2d_sipay'`),
  ])
  const row = rowsOf<SettingsRow>(settingsAnswer)[0] ?? null
  return {
    settings: checkoutSettingsFrom(options, storedSettingsFrom(row)),
    facts: { recurringProducts: Number(rowsOf<{ n: number }>(recurringAnswer)[0]?.n ?? 0), regionsWithDirect: Number(rowsOf<{ n: number }>(directAnswer)[0]?.n ?? 0) },
  }
}

export async function setupWarningsOf(db: SharedStateDatabase, options: SipayOptions, nodeEnv: string | undefined = process.env.NODE_ENV): Promise<SetupWarningCode[]> {
  const { settings, facts } = await readSetupState(db, options)
  return findSetupWarnings(settings, options, facts, nodeEnv)
}
