import type { MedusaNextFunction, MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { ContainerRegistrationKeys, parseCorsOrigins } from "@medusajs/framework/utils"
import { SIPAY_MODULE } from "../modules/sipay"
import type SipayModuleService from "../modules/sipay/service"

/**
 * Refuses a browser's cross-site request to a route that changes state (a form another site posts
 * with the shopper's or the admin's browser). Browsers say where a request comes from (`Origin`,
 * `Sec-Fetch-Site`); a request with neither is not a browser's (a storefront server, an API token)
 * and passes. The gateway's own posts (3D return and cancel, webhooks) are not behind this check.
 */

function originOf(url: string | null | undefined): string | null {
  try {
    return url ? new URL(url).origin : null
  } catch {
    return null
  }
}

function header(req: MedusaRequest, name: string): string | undefined {
  const value = req.headers[name]
  return Array.isArray(value) ? value[0] : value
}

function matches(origin: string, allowed: (string | RegExp)[]): boolean {
  return allowed.some((entry) => (typeof entry === "string" ? originOf(entry) === origin || entry === origin : entry.test(origin)))
}

/** Which origins may post: the backend's own, plus those of `extra` (the store's or the admin's). */
type AllowedOrigins = (req: MedusaRequest) => Promise<(string | RegExp)[]>

/**
 * "pass" for a request a browser marks same-origin (or user-initiated), for one with neither header
 * (not a browser), and for an allowed Origin; "refuse" for any other Origin (`null` included) or a
 * cross-site browser request without one; "ask" when the allowed origins must be looked up.
 */
export function crossSiteVerdict(input: { site?: string; origin?: string; ownOrigin: string }): "pass" | "refuse" | "ask" {
  const { site, origin, ownOrigin } = input
  if (site === "same-origin" || site === "none" || (!origin && !site)) {
    return "pass"
  }
  if (!origin || origin === "null") {
    return "refuse"
  }
  return origin === ownOrigin ? "pass" : "ask"
}

function refuseCrossSite(allowedOrigins: AllowedOrigins) {
  return async (req: MedusaRequest, res: MedusaResponse, next: MedusaNextFunction) => {
    try {
      const origin = header(req, "origin")
      const verdict = crossSiteVerdict({ site: header(req, "sec-fetch-site"), origin, ownOrigin: `${req.protocol}://${req.get("host")}` })
      if (verdict === "pass" || (verdict === "ask" && matches(origin!, await allowedOrigins(req)))) {
        return next()
      }
      res.status(403).json({
        type: "not_allowed",
        code: "cross_site_request",
        message: "This request came from another site and was refused",
      })
    } catch (error) {
      next(error)
    }
  }
}

function httpConfig(req: MedusaRequest): { storeCors?: string; adminCors?: string } {
  const config = req.scope.resolve(ContainerRegistrationKeys.CONFIG_MODULE) as { projectConfig?: { http?: { storeCors?: string; adminCors?: string } } }
  return config.projectConfig?.http ?? {}
}

/** For shopper routes that start a payment (`sign`, `3d-form`): the backend, the storefront and Medusa's store CORS origins. */
export const refuseCrossSiteShopperPosts = refuseCrossSite(async (req) => {
  const sipay = req.scope.resolve<SipayModuleService>(SIPAY_MODULE)
  const settings = await sipay.getCheckoutSettings()
  return [sipay.getOptions().backendUrl, settings.storefrontUrl, sipay.getOptions().storefrontUrl]
    .map(originOf)
    .filter((origin): origin is string => Boolean(origin))
    .concat(parseCorsOrigins(httpConfig(req).storeCors ?? "") as never[])
})

/** For the plugin's admin routes that change state: the backend and Medusa's admin CORS origins. */
export const refuseCrossSiteAdminPosts = refuseCrossSite(async (req) => {
  const sipay = req.scope.resolve<SipayModuleService>(SIPAY_MODULE)
  return [originOf(sipay.getOptions().backendUrl)]
    .filter((origin): origin is string => Boolean(origin))
    .concat(parseCorsOrigins(httpConfig(req).adminCors ?? "") as never[])
})
