import { CODES, fail, requireField, UnauthenticatedError } from "../core/codes"
import type { Gateway } from "../core/gateway"
import type { RequestContext } from "../http/router"
import type { Merchant } from "../types"

/** The body's merchant_key: required (1), known (14), and the bearer token's own merchant (else 401). */
export function requestMerchant(ctx: RequestContext, gateway: Gateway): Merchant {
  const merchant = gateway.merchants.byKey(requireField(ctx.body, "merchant_key"))
  if (!merchant) fail(CODES.MERCHANT_NOT_FOUND, "Merchant not found.")
  if (ctx.merchant && ctx.merchant.merchant_key !== merchant.merchant_key) throw new UnauthenticatedError()
  return merchant
}
