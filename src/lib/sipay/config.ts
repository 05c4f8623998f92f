import { BRAND_PRESETS, isSipayBrand } from "./brands"
import type { SipayClientOptions, SipayLogger } from "./types"

export type ResolvedConfig = {
  baseUrl: string
  panelBaseUrl: string
  appId: string
  appSecret: string
  merchantKey: string
  merchantId: string | null
  timeoutMs: number
  logger?: SipayLogger
}

const DEFAULT_TIMEOUT_MS = 30_000

function withoutTrailingSlash(url: string): string {
  return url.trim().replace(/\/+$/, "")
}

function required(options: SipayClientOptions, name: "appId" | "appSecret" | "merchantKey"): string {
  const value = options[name]
  if (typeof value !== "string" || value.trim() === "") {
    throw new Error(`SipayClient: the ${name} option is required`)
  }
  return value.trim()
}

/** Options checked and completed: brand presets, trailing slashes stripped, defaults applied. */
export function resolveConfig(options: SipayClientOptions): ResolvedConfig {
  if (!options || typeof options !== "object") {
    throw new Error("SipayClient: options are required (baseUrl or brand, appId, appSecret, merchantKey)")
  }
  if (options.brand !== undefined && !isSipayBrand(options.brand)) {
    throw new Error(`SipayClient: unknown brand "${String(options.brand)}" (${Object.keys(BRAND_PRESETS).join(", ")})`)
  }
  const preset = options.brand ? BRAND_PRESETS[options.brand] : undefined
  const baseUrl = options.baseUrl?.trim() ? withoutTrailingSlash(options.baseUrl) : preset?.baseUrl
  if (!baseUrl) {
    throw new Error("SipayClient: the baseUrl option (or a brand) is required")
  }
  const panelBaseUrl = options.panelBaseUrl?.trim()
    ? withoutTrailingSlash(options.panelBaseUrl)
    : options.baseUrl?.trim()
      ? baseUrl
      : (preset?.panelBaseUrl ?? baseUrl)
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) {
    throw new Error("SipayClient: timeoutMs must be a positive number")
  }
  return {
    baseUrl,
    panelBaseUrl,
    appId: required(options, "appId"),
    appSecret: required(options, "appSecret"),
    merchantKey: required(options, "merchantKey"),
    merchantId: options.merchantId === undefined || options.merchantId === null ? null : String(options.merchantId),
    timeoutMs,
    logger: options.logger,
  }
}
