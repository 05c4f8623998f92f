import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { configurationCauseOfError, configurationDetailOf, reportConfigurationRefusal, shopperCodeOfError } from "../lib/config-alerts"
import type { ConfigurationCause } from "../lib/sipay"
import { isShopperMessageCode, shopperMessage } from "../lib/shopper-messages"
import { requestLocale } from "./rate-limits"

/**
 * The shopper's answer to a payment the store's configuration stops (the merchant is told, never the
 * shopper): 503 `{ type: "payments_unavailable", code, message }` in the request's language, with the
 * cart id when the caller knows it, after the refusal was logged and alerted. False when `error` is
 * not a configuration refusal (the caller answers it as before).
 */
export async function answerConfigurationRefusal(
  req: MedusaRequest,
  res: MedusaResponse,
  error: unknown,
  context: { operation: string; cartId?: string | null }
): Promise<boolean> {
  const cause = configurationCauseOfError(error)
  if (!cause) return false
  await reportConfigurationRefusal(req.scope, { cause, operation: context.operation, detail: configurationDetailOf(error) })
  sendPaymentsUnavailable(req, res, context.cartId ?? null)
  return true
}

/** Reports a configuration cause met in a gateway answer that was not an error (a direct payment's result). */
export async function reportGatewayConfigurationCause(req: MedusaRequest, cause: ConfigurationCause | null, operation: string, detail: string | null): Promise<void> {
  if (cause) await reportConfigurationRefusal(req.scope, { cause, operation, detail: detail ?? "" })
}

export function sendPaymentsUnavailable(req: MedusaRequest, res: MedusaResponse, cartId: string | null): void {
  res.setHeader("Cache-Control", "no-store")
  res.status(503).json({
    type: "payments_unavailable",
    code: "payments_unavailable",
    message: shopperMessage("payments_unavailable", requestLocale(req)),
    ...(cartId ? { cart_id: cartId } : {}),
  })
}

/** A refusal the plugin tells the shopper by a message code (400, `{ type: "invalid_data", code, message }`); false for any other error. */
export function answerShopperRefusal(req: MedusaRequest, res: MedusaResponse, error: unknown): boolean {
  const code = shopperCodeOfError(error)
  if (!isShopperMessageCode(code)) return false
  res.setHeader("Cache-Control", "no-store")
  res.status(400).json({ type: "invalid_data", code, message: shopperMessage(code, requestLocale(req)) })
  return true
}
