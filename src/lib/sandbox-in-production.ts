import { isLoopbackHost } from "./loopback"
import { BRAND_PRESETS, type SipayBrand } from "./sipay/brands"

/**
 * The sandbox takes every card as paid: a production store pointed at it by mistake gives its goods
 * away. Under NODE_ENV=production the plugin refuses the sandbox as its gateway (brand `sandbox`, or a
 * gateway on a loopback address, where only a local sandbox can be) unless the store says it means it.
 */

/** A gateway URL on this machine (a loopback host, or every interface of it): only a local sandbox is there. */
export function isLoopbackUrl(url: string | undefined): boolean {
  if (!url) return false
  try {
    const host = new URL(url).hostname
    return isLoopbackHost(host) || host === "0.0.0.0" || host === "[::]"
  } catch {
    return false
  }
}

export type GatewayChoice = { brand?: SipayBrand; baseUrl?: string; panelBaseUrl?: string; allowSandboxInProduction?: boolean }

/** Why these options must not run a production store, or null. */
export function sandboxInProductionProblem(options: GatewayChoice, nodeEnv: string | undefined): string | null {
  if (!["production", "prod"].includes(String(nodeEnv ?? "")) || options.allowSandboxInProduction === true) {
    return null
  }
  const baseUrl = options.baseUrl || (options.brand ? BRAND_PRESETS[options.brand]?.baseUrl : undefined)
  const sandbox = options.brand === "sandbox" ? `brand "sandbox"` : [baseUrl, options.panelBaseUrl].find(isLoopbackUrl)
  if (!sandbox) {
    return null
  }
  return (
    `NODE_ENV is production but the gateway is the sandbox (${sandbox}), which takes every card as paid: ` +
    `set a real brand or baseUrl, or option "allowSandboxInProduction": true (SIPAY_ALLOW_SANDBOX_IN_PRODUCTION=true) for a test store`
  )
}
