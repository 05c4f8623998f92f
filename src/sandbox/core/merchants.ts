import { createHash } from "node:crypto"
import type { Merchant, MerchantConfig, MerchantSetting } from "../types"

export const DEFAULT_INSTALLMENTS = [1, 2, 3, 6, 9, 12]

function derive(seed: string, label: string, length: number): string {
  return createHash("sha256").update(`${seed}:${label}`).digest("hex").slice(0, length)
}

/** The demo merchant of a sandbox started without a config, derived from the state's seed. */
export function demoMerchant(seed: string): MerchantConfig {
  return {
    merchant_id: 10000 + (parseInt(derive(seed, "id", 6), 16) % 90000),
    merchant_key: `$2y$10$${derive(seed, "merchant_key", 40)}`,
    app_id: derive(seed, "app_id", 32),
    app_secret: derive(seed, "app_secret", 32),
    name: "Sandbox Demo Store",
  }
}

export function normalizeMerchant(config: MerchantConfig): Merchant {
  for (const field of ["merchant_key", "app_id", "app_secret"] as const) {
    if (typeof config[field] !== "string" || config[field].length === 0) {
      throw new Error(`sandbox merchant config: ${field} must be a non-empty string`)
    }
  }
  const is3d = config.is_3d ?? 1
  if (![0, 1, 2, 4].includes(is3d)) {
    throw new Error("sandbox merchant config: is_3d must be 0, 1, 2 or 4")
  }
  const installments = [...new Set(config.installments ?? DEFAULT_INSTALLMENTS)].sort((a, b) => a - b)
  if (!installments.every((n) => Number.isInteger(n) && n >= 1)) {
    throw new Error("sandbox merchant config: installments must be positive integers")
  }
  return {
    merchant_id: config.merchant_id,
    merchant_key: config.merchant_key,
    app_id: config.app_id,
    app_secret: config.app_secret,
    is_3d: is3d,
    installments,
    sale_webhooks: { ...(config.sale_webhooks ?? {}) },
    recurring_webhooks: { ...(config.recurring_webhooks ?? {}) },
    name: config.name ?? `Merchant ${config.merchant_id}`,
    commissions: (config.commissions ?? []).map((row) => ({ ...row })),
  }
}

/**
 * A configured merchant whose credentials are left out gets them derived from the state's seed, as
 * the demo merchant's (the same on every start with the same data file): a store owner's config then
 * names only the webhooks, and the credentials to put in `.env` are the ones the start prints.
 */
export function withSeedCredentials(seed: string, configs: MerchantSetting[]): MerchantConfig[] {
  return configs.map((config, index) => {
    const derived = demoMerchant(index === 0 ? seed : `${seed}:${index}`)
    return {
      ...config,
      merchant_id: config.merchant_id ?? derived.merchant_id,
      merchant_key: config.merchant_key ?? derived.merchant_key,
      app_id: config.app_id ?? derived.app_id,
      app_secret: config.app_secret ?? derived.app_secret,
      name: config.name ?? derived.name,
    }
  })
}

/** The configured merchants, looked up by merchant_key or app_id. */
export class MerchantDirectory {
  readonly all: Merchant[]

  constructor(configs: MerchantConfig[]) {
    this.all = configs.map(normalizeMerchant)
    const keys = new Set(this.all.map((m) => m.merchant_key))
    if (keys.size !== this.all.length) throw new Error("sandbox merchant config: merchant_key must be unique")
  }

  byKey(merchantKey: string): Merchant | undefined {
    return this.all.find((m) => m.merchant_key === merchantKey)
  }

  byCredentials(appId: string, appSecret: string): Merchant | undefined {
    return this.all.find((m) => m.app_id === appId && m.app_secret === appSecret)
  }

  allows3d(merchant: Merchant): boolean {
    return merchant.is_3d !== 0
  }

  allows2d(merchant: Merchant): boolean {
    return merchant.is_3d === 0 || merchant.is_3d === 1
  }
}
