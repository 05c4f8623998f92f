import { MedusaError } from "@medusajs/framework/utils"
import { isConfigurationCause, type ConfigurationCause } from "../sipay/configuration-refusal"
import { isSipayError } from "../sipay/errors"
import { configurationCauseOf } from "../sipay/configuration-refusal"
import { CONFIGURATION_PROBLEM_TEXTS } from "./texts"

const CODE_PREFIX = "sipay_configuration:"
/** A MedusaError code naming the shopper message that tells a refusal to the shopper (shopper-messages). */
export const SHOPPER_CODE_PREFIX = "sipay_shopper:"

/** The shopper message code an error names (also after a workflow engine serialised it), or null. */
export function shopperCodeOfError(error: unknown): string | null {
  const code = String((error as { code?: unknown } | null)?.code ?? "")
  return code.startsWith(SHOPPER_CODE_PREFIX) ? code.slice(SHOPPER_CODE_PREFIX.length) : null
}
const MESSAGE = /^Sipay configuration problem \(([a-z_]+)\)/

/** The plugin's own refusal of a payment the store is not set up for, before anything reaches the gateway. */
export function configurationRefusalError(cause: ConfigurationCause): MedusaError {
  return new MedusaError(MedusaError.Types.NOT_ALLOWED, `Sipay configuration problem (${cause}): ${CONFIGURATION_PROBLEM_TEXTS[cause].en}`, `${CODE_PREFIX}${cause}`)
}

/**
 * The configuration cause an error carries: the plugin's own refusal (also after a workflow engine
 * serialised it: by its code or its message), or a gateway error whose code and text are one.
 */
export function configurationCauseOfError(error: unknown): ConfigurationCause | null {
  if (isSipayError(error)) return configurationCauseOf(error.statusCode, error.description)
  const code = String((error as { code?: unknown } | null)?.code ?? "")
  const fromCode = code.startsWith(CODE_PREFIX) ? code.slice(CODE_PREFIX.length) : null
  const fromMessage = MESSAGE.exec(String((error as { message?: unknown } | null)?.message ?? ""))?.[1] ?? null
  const cause = fromCode ?? fromMessage
  return isConfigurationCause(cause) ? cause : null
}

/** The gateway's description or the plugin's own words, for the log line (never a secret). */
export function configurationDetailOf(error: unknown): string {
  if (isSipayError(error)) return error.description
  return "refused by the plugin before anything was sent to the gateway"
}
