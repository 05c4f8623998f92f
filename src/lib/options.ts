/**
 * The one options object given to both the plugin entry (read by this plugin's module, hence by
 * routes, workflows and jobs) and the payment provider entry (read by the provider). Pure: no I/O.
 */
import type { SipayBrand, SipayClientOptions } from "./sipay"
import { describeCutCredentials } from "./env-dollar"
import { findRateLimitProblems, type RateLimitOptions } from "./limiter/limits"
import { parseAddressList } from "./limiter/address"
import { CUSTOMER_LANGUAGES, type CustomerLanguage } from "./customer-language"
import { sandboxInProductionProblem } from "./sandbox-in-production"
import { installmentFeeRulesProblem } from "./checkout/installment-fees"

export type { SipayBrand }

/** The gateway client's settings (credentials, base URLs or brand, timeout) plus the plugin's own. */
export type SipayOptions = Omit<SipayClientOptions, "logger"> & {
  /** true: 'Auth' (captured at once); false: 'PreAuth', captured later from the admin. Default true. */
  capture?: boolean
  /** The direct (2D) provider is refused unless enabled: card data then passes through the store's server. */
  enableDirectPayment?: boolean
  /** Signed-in customers may save a card (in a direct checkout, on their opt-in) and pay with it later (docs/saved-cards.md). Default false. */
  enableSavedCards?: boolean
  /** Sale webhook key configured in the merchant panel, mapped to {backend}/hooks/payment/sipay_sipay. */
  saleWebhookKey?: string
  /** Recurring webhook key, mapped to {backend}/sipay/hooks/recurring. */
  recurringWebhookKey?: string
  /** The store server's public address, for the gateway's return and cancel redirects. */
  backendUrl?: string
  /** Storefront address; success and failure URL templates below default under it. */
  storefrontUrl?: string
  /** Template with {cart_id}, {order_id}: where a shopper lands after paying. */
  successUrl?: string
  /** Template with {cart_id}, {error}: where a shopper lands after a failed or cancelled payment. */
  failureUrl?: string
  /** Highest installment count offered (1 = single payment only). Default 12. */
  maxInstallments?: number
  /** Defaults of Settings -> Sipay's installment fees (count -> absorb | gateway | own rate); none: the merchant absorbs every count. */
  installmentFees?: import("./checkout/installment-fees").InstallmentFeeRules
  /** "inclusive" (default) or "exclusive": how the installment fee line is taxed. */
  installmentFeeTax?: import("./checkout/installment-fees").InstallmentFeeTax
  /** Offer the agricultural ('tarim') installment type to cards that support it. Default false. */
  agriculturalInstallments?: boolean
  /** Invoice description sent to the gateway; {order}, {cart_id}, {store} are replaced. Default: DEFAULT_DESCRIPTION_TEMPLATES in the customer's language. */
  descriptionTemplate?: string
  /** The language of what a customer reads (phone-order payment link, invoice description) when neither the cart or order nor the store names a locale. Default "tr". */
  defaultLocale?: CustomerLanguage
  /** Attempts left pending (no redirect, no webhook) this long are asked about by the reconciliation job, then again with a back-off by age. Default 60. */
  reconcileAfterSeconds?: number
  /** How many pending attempts one run of the reconciliation job settles. Default 50. */
  reconcileBatchSize?: number
  /** How long a process waits for another one fetching the shared gateway token before it fetches its own. Default 30000. */
  tokenLockTimeoutMs?: number
  /** Days after which an uncaptured pre-authorization is reported as near its 20-day deadline. Default 17. */
  preAuthorizationWarningDays?: number
  /** The sales ledger's sync: days back that can still change (default 45, at most 180), older days pulled per run (default 7, at most 31). docs/admin.md "Sales ledger". */
  ledger?: { windowDays?: number; olderDaysPerRun?: number }
  /** Limits per payment session, cart, card, client address and a store-wide decline budget (docs/storefront.md "Rate limits and the client address"). */
  rateLimits?: RateLimitOptions
  /** Where rate limits are counted: "memory" (each process on its own, the default) or "postgres" (shared by every instance of a cluster). */
  rateLimitStore?: "memory" | "postgres"
  /** Proxies whose X-Forwarded-For entry is believed (addresses, CIDRs, "loopback", "private"). Default none: the socket address. */
  trustedProxies?: string[]
  /** Shared secret a storefront server signs its shopper's address with (x-sipay-client-ip headers). Default none. */
  storefrontSecret?: string
  /**
   * The storefront servers' own addresses (addresses, CIDRs, "loopback", "private"): an unsigned request
   * from one of them is counted per session, cart and card only, never per address, so its shoppers do
   * not share one budget. Default none.
   */
  storefrontAddresses?: string[]
  /** Open (pending) payment attempts one payment session may have; a new form past it is refused. Default 10. */
  maxOpenAttemptsPerSession?: number
  /** Attempts authorizePayment asks the gateway about in one request (the paid one first, then newest). Default 3. */
  maxGatewayChecksPerRequest?: number
  /** How long the signed hosted-page address the store API hands out stays valid. Default 3600. */
  checkoutTokenTtlSeconds?: number
  /** Let a store with NODE_ENV=production use the sandbox (brand "sandbox" or a loopback base URL) as its gateway. Default false: it refuses to start. */
  allowSandboxInProduction?: boolean
}

/** The gateway cancels a pre-authorization not completed within this many days. */
export { PRE_AUTHORIZATION_DAYS } from "./pre-authorization-days"

export const REQUIRED_CREDENTIALS = ["appId", "appSecret", "merchantKey"] as const

/** The invoice description a customer reads at the gateway, in their language, unless the store sets its own. */
export const DEFAULT_DESCRIPTION_TEMPLATES: Record<CustomerLanguage, string> = {
  tr: "Sipariş {cart_id}",
  en: "Order {cart_id}",
}

/** Sipay merchant keys look like "$2y$10$…"; Medusa's loadEnv empties them unless each "$" is written "\$". */
const DOLLAR_HINT = ' (set but empty? In .env write each "$" of the key as "\\$": Medusa\'s loadEnv expands "$…" even inside quotes)'

/** A clear error naming every missing option, or nothing. `nodeEnv`: the process's NODE_ENV (the sandbox is refused in production). */
export function findOptionProblems(options: Partial<SipayOptions> | undefined, nodeEnv: string | undefined = process.env.NODE_ENV): string[] {
  const problems: string[] = []
  const given = options ?? {}
  for (const name of REQUIRED_CREDENTIALS) {
    const value = given[name]
    if (typeof value !== "string" || value.trim() === "") {
      problems.push(`option "${name}" is required${name === "merchantKey" ? DOLLAR_HINT : ""}`)
    }
  }
  if (!given.brand && !given.baseUrl) {
    problems.push(`option "baseUrl" (or "brand") is required`)
  }
  if (given.maxInstallments !== undefined && (!Number.isInteger(given.maxInstallments) || given.maxInstallments < 1 || given.maxInstallments > 12)) {
    problems.push(`option "maxInstallments" must be a whole number from 1 to 12`)
  }
  const feeProblem = installmentFeeRulesProblem(given.installmentFees)
  if (feeProblem) {
    problems.push(`option "installmentFees": ${feeProblem}`)
  }
  if (given.installmentFeeTax !== undefined && given.installmentFeeTax !== "inclusive" && given.installmentFeeTax !== "exclusive") {
    problems.push(`option "installmentFeeTax" must be "inclusive" or "exclusive"`)
  }
  for (const name of ["baseUrl", "panelBaseUrl", "backendUrl", "storefrontUrl"] as const) {
    const value = given[name]
    if (value !== undefined && value !== "" && !/^https?:\/\/[^\s]+$/.test(String(value))) {
      problems.push(`option "${name}" must be an http(s) URL`)
    }
  }
  if (given.defaultLocale !== undefined && !(CUSTOMER_LANGUAGES as readonly unknown[]).includes(given.defaultLocale)) {
    problems.push(`option "defaultLocale" must be ${CUSTOMER_LANGUAGES.map((language) => `"${language}"`).join(" or ")}`)
  }
  problems.push(...findRateLimitProblems(given.rateLimits))
  if (given.rateLimitStore !== undefined && given.rateLimitStore !== "memory" && given.rateLimitStore !== "postgres") {
    problems.push(`option "rateLimitStore" must be "memory" or "postgres"`)
  }
  for (const name of ["trustedProxies", "storefrontAddresses"] as const) {
    try {
      parseAddressList(given[name])
    } catch (error) {
      problems.push(`option "${name}": ${(error as Error).message}`)
    }
  }
  const sandbox = sandboxInProductionProblem(given, nodeEnv)
  if (sandbox) {
    problems.push(sandbox)
  }
  return problems
}

export function assertValidOptions(options: Partial<SipayOptions> | undefined, where: string): asserts options is SipayOptions {
  const problems = findOptionProblems(options)
  if (!String(options?.merchantKey ?? "").includes("$")) {
    // A key with no "$" left is what expansion leaves of a "$2y$10$…" key: name the .env line that did it.
    const cut = describeCutCredentials()
    if (cut) {
      problems.push(cut)
    }
  }
  if (problems.length) {
    throw new Error(`Sipay ${where}: ${problems.join("; ")}`)
  }
}

/** Options from the environment variables of docs/contracts.md (used by medusa-config.ts and the demo). */
export function optionsFromEnv(env: NodeJS.ProcessEnv = process.env): SipayOptions {
  const maxInstallments = env.SIPAY_MAX_INSTALLMENTS ? Number(env.SIPAY_MAX_INSTALLMENTS) : undefined
  return {
    brand: (env.SIPAY_BRAND || undefined) as SipayBrand | undefined,
    baseUrl: env.SIPAY_BASE_URL || undefined,
    panelBaseUrl: env.SIPAY_PANEL_BASE_URL || undefined,
    appId: env.SIPAY_APP_ID ?? "",
    appSecret: env.SIPAY_APP_SECRET ?? "",
    merchantKey: env.SIPAY_MERCHANT_KEY ?? "",
    merchantId: env.SIPAY_MERCHANT_ID || undefined,
    capture: env.SIPAY_CAPTURE ? env.SIPAY_CAPTURE !== "false" : undefined,
    enableDirectPayment: env.SIPAY_ENABLE_DIRECT_PAYMENT === "true",
    enableSavedCards: env.SIPAY_ENABLE_SAVED_CARDS === "true",
    saleWebhookKey: env.SIPAY_SALE_WEBHOOK_KEY || undefined,
    recurringWebhookKey: env.SIPAY_RECURRING_WEBHOOK_KEY || undefined,
    backendUrl: env.MEDUSA_BACKEND_URL || undefined,
    storefrontUrl: env.STOREFRONT_URL || undefined,
    successUrl: env.SIPAY_SUCCESS_URL || undefined,
    failureUrl: env.SIPAY_FAILURE_URL || undefined,
    maxInstallments,
    agriculturalInstallments: env.SIPAY_AGRICULTURAL_INSTALLMENTS === "true",
    defaultLocale: (env.SIPAY_DEFAULT_LOCALE || undefined) as CustomerLanguage | undefined,
    timeoutMs: env.SIPAY_TIMEOUT_MS ? Number(env.SIPAY_TIMEOUT_MS) : undefined,
    reconcileAfterSeconds: env.SIPAY_RECONCILE_AFTER_SECONDS ? Number(env.SIPAY_RECONCILE_AFTER_SECONDS) : undefined,
    reconcileBatchSize: env.SIPAY_RECONCILE_BATCH_SIZE ? Number(env.SIPAY_RECONCILE_BATCH_SIZE) : undefined,
    rateLimitStore: env.SIPAY_RATE_LIMIT_STORE === "postgres" ? "postgres" : undefined,
    tokenLockTimeoutMs: env.SIPAY_TOKEN_LOCK_TIMEOUT_MS ? Number(env.SIPAY_TOKEN_LOCK_TIMEOUT_MS) : undefined,
    // JSON, e.g. {"windowSeconds":60,"perAddress":10}
    rateLimits: env.SIPAY_RATE_LIMITS ? (JSON.parse(env.SIPAY_RATE_LIMITS) as RateLimitOptions) : undefined,
    trustedProxies: env.SIPAY_TRUSTED_PROXIES ? env.SIPAY_TRUSTED_PROXIES.split(",").map((entry) => entry.trim()).filter(Boolean) : undefined,
    storefrontSecret: env.SIPAY_STOREFRONT_SECRET || undefined,
    allowSandboxInProduction: env.SIPAY_ALLOW_SANDBOX_IN_PRODUCTION === "true" || undefined,
    storefrontAddresses: env.SIPAY_STOREFRONT_ADDRESSES ? env.SIPAY_STOREFRONT_ADDRESSES.split(",").map((entry) => entry.trim()).filter(Boolean) : undefined,
  }
}
