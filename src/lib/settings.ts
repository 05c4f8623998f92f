import { SipayOptions } from "./options"
import { DEFAULT_INSTALLMENT_FEE_TAX, type InstallmentFeeRules, type InstallmentFeeTax } from "./checkout/installment-fees"

/**
 * What a new payment attempt is built with: the non-secret settings a store owner may change in the
 * admin, over the plugin options as defaults. Credentials never appear here.
 */
export type CheckoutSettings = {
  capture: boolean
  threeDEnabled: boolean
  directPaymentEnabled: boolean
  saleWebhookKey: string | null
  recurringWebhookKey: string | null
  maxInstallments: number
  agriculturalInstallments: boolean
  storefrontUrl: string | null
  successUrl: string | null
  failureUrl: string | null
  /** null: DEFAULT_DESCRIPTION_TEMPLATES, in the customer's language. */
  descriptionTemplate: string | null
  /** Per installment count: absorb (default), or the shopper pays a fee at the gateway's or the merchant's rate. */
  installmentFees: InstallmentFeeRules
  /** How the fee line is taxed (default "inclusive": the shopper pays exactly the fee shown). */
  installmentFeeTax: InstallmentFeeTax
}

export type StoredSettings = Partial<CheckoutSettings>

export function checkoutSettingsFrom(options: SipayOptions, stored: StoredSettings = {}): CheckoutSettings {
  const defaults: CheckoutSettings = {
    capture: options.capture !== false,
    threeDEnabled: true,
    directPaymentEnabled: options.enableDirectPayment === true,
    saleWebhookKey: options.saleWebhookKey ?? null,
    recurringWebhookKey: options.recurringWebhookKey ?? null,
    maxInstallments: options.maxInstallments ?? 12,
    agriculturalInstallments: options.agriculturalInstallments === true,
    storefrontUrl: options.storefrontUrl ?? null,
    successUrl: options.successUrl ?? null,
    failureUrl: options.failureUrl ?? null,
    descriptionTemplate: options.descriptionTemplate || null,
    installmentFees: options.installmentFees ?? {},
    installmentFeeTax: options.installmentFeeTax ?? DEFAULT_INSTALLMENT_FEE_TAX,
  }
  const overrides = Object.fromEntries(Object.entries(stored).filter(([, value]) => value !== undefined))
  return { ...defaults, ...overrides }
}

/** Each setting's column in the stored settings row (this plugin's module) and its admin API name. */
export const SETTING_COLUMNS = {
  capture: "capture",
  threeDEnabled: "three_d_enabled",
  directPaymentEnabled: "direct_payment_enabled",
  saleWebhookKey: "sale_webhook_key",
  recurringWebhookKey: "recurring_webhook_key",
  maxInstallments: "max_installments",
  agriculturalInstallments: "agricultural_installments",
  storefrontUrl: "storefront_url",
  successUrl: "success_url",
  failureUrl: "failure_url",
  descriptionTemplate: "description_template",
  installmentFees: "installment_fees",
  installmentFeeTax: "installment_fee_tax",
} as const satisfies Record<keyof CheckoutSettings, string>

export type SettingColumn = (typeof SETTING_COLUMNS)[keyof CheckoutSettings]
/** The stored row, as the admin API reads and writes it: null = the plugin option applies; "" = explicitly none. */
export type SettingValue = string | number | boolean | InstallmentFeeRules | null
export type SettingsRow = { [column in SettingColumn]?: SettingValue }

const OPTIONAL_TEXT: ReadonlySet<keyof CheckoutSettings> = new Set([
  "saleWebhookKey",
  "recurringWebhookKey",
  "storefrontUrl",
  "successUrl",
  "failureUrl",
])

/** The overrides a stored row makes: null columns fall back to the options; "" clears an optional text setting. */
export function storedSettingsFrom(row: SettingsRow | null | undefined): StoredSettings {
  const stored: Record<string, unknown> = {}
  if (!row) {
    return stored
  }
  for (const [name, column] of Object.entries(SETTING_COLUMNS) as [keyof CheckoutSettings, SettingColumn][]) {
    const value = row[column]
    if (value === null || value === undefined) {
      continue
    }
    stored[name] = OPTIONAL_TEXT.has(name) && value === "" ? null : value
  }
  return stored as StoredSettings
}

/** The effective settings in the admin API's names (snake_case). */
export function settingsAsRow(settings: CheckoutSettings): Record<SettingColumn, SettingValue> {
  return Object.fromEntries(
    (Object.entries(SETTING_COLUMNS) as [keyof CheckoutSettings, SettingColumn][]).map(([name, column]) => [column, settings[name]])
  ) as Record<SettingColumn, SettingValue>
}

/**
 * The storefront address as a URL: http(s), a host, no user or password (`http://shop@evil.example`
 * is evil.example), no backslash or blank. The problem in words, or null.
 */
export function storefrontUrlProblem(value: string): string | null {
  if (/[\\\s]/.test(value)) {
    return "must not contain spaces or backslashes"
  }
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return "must be an http(s) URL"
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return "must be an http(s) URL"
  }
  if (url.username || url.password || value.slice(url.protocol.length + 2).split(/[/?#]/)[0].includes("@")) {
    return "must not carry a user name or password (user@host)"
  }
  return url.hostname ? null : "must name a host"
}

/**
 * Where a shopper lands (success_url, failure_url): a path under the storefront (`/...`, not `//`),
 * or an http(s) URL on the storefront's own origin (`storefrontUrl`). The problem in words, or null.
 */
export function landingUrlProblem(value: string, storefrontUrl: string | null): string | null {
  if (/[\\\s]/.test(value)) {
    return "must not contain spaces or backslashes"
  }
  if (value.startsWith("/")) {
    return value.startsWith("//") ? "must be a path starting with a single / (// names another host)" : null
  }
  const problem = storefrontUrlProblem(value)
  if (problem) {
    return problem === "must be an http(s) URL" ? "must be a path under the storefront starting with /, or an http(s) URL on the storefront's origin" : problem
  }
  const storefrontOrigin = storefrontUrl && !storefrontUrlProblem(storefrontUrl) ? new URL(storefrontUrl).origin : null
  if (!storefrontOrigin) {
    return "must be a path starting with / while no storefront URL is set"
  }
  return new URL(value).origin === storefrontOrigin ? null : `must stay on the storefront's origin (${storefrontOrigin})`
}

/** Rules across settings, on the effective result: what a single field's validation cannot see. */
export function findSettingsProblems(settings: CheckoutSettings): string[] {
  const problems: string[] = []
  if (!settings.threeDEnabled && !settings.directPaymentEnabled) {
    problems.push("At least one payment flow must stay on: 3D Secure or direct payment")
  }
  const storefrontProblem = settings.storefrontUrl ? storefrontUrlProblem(settings.storefrontUrl) : null
  if (storefrontProblem) {
    problems.push(`storefront_url ${storefrontProblem}`)
  }
  for (const [name, value] of [["success_url", settings.successUrl], ["failure_url", settings.failureUrl]] as const) {
    const problem = value ? landingUrlProblem(value, settings.storefrontUrl) : null
    if (problem) {
      problems.push(`${name} ${problem}`)
    }
  }
  return problems
}
