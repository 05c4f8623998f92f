/**
 * The gateway's refusals that are the store's configuration, not the card: the merchant key it does
 * not know, a recurring or sale webhook key missing or not configured on the merchant panel, a flow
 * (3D or 2D) the merchant may not use. The merchant must act; the shopper can only wait. Anything else
 * (102 "Pos was not defined", a decline, a validation of the card) is not one of these.
 */
export type ConfigurationCause =
  | "merchant_not_found"
  | "recurring_webhook_key_missing"
  | "recurring_webhook_key_invalid"
  | "sale_webhook_key_invalid"
  | "integration_not_allowed"

export const CONFIGURATION_CAUSES: readonly ConfigurationCause[] = [
  "merchant_not_found",
  "recurring_webhook_key_missing",
  "recurring_webhook_key_invalid",
  "sale_webhook_key_invalid",
  "integration_not_allowed",
]

const MERCHANT_NOT_FOUND = 14
const INTEGRATION_NOT_ALLOWED = 34
const INVALID_WEBHOOK_KEY = 56
const VALIDATION = 1

/**
 * The configuration cause of a gateway answer (its status code and description), or null. Code 1 is
 * the gateway's validation code for any field, so only its text says it is the recurring webhook key
 * ("The recurring_web_hook_key field is required."); 56 names the sale or the recurring key in its text.
 */
export function configurationCauseOf(statusCode: number | string | null | undefined, description?: string | null): ConfigurationCause | null {
  const code = Number(String(statusCode ?? "").trim())
  const text = String(description ?? "").toLowerCase()
  if (code === MERCHANT_NOT_FOUND) return "merchant_not_found"
  if (code === INTEGRATION_NOT_ALLOWED) return "integration_not_allowed"
  if (code === INVALID_WEBHOOK_KEY) return /recurring/.test(text) ? "recurring_webhook_key_invalid" : "sale_webhook_key_invalid"
  if (code === VALIDATION && /recurring_web_?hook_key/.test(text)) return "recurring_webhook_key_missing"
  return null
}

export function isConfigurationCause(value: unknown): value is ConfigurationCause {
  return typeof value === "string" && (CONFIGURATION_CAUSES as readonly string[]).includes(value)
}
