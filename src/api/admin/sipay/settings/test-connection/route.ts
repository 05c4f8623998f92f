import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { toMedusaError } from "../../../../../providers/sipay/core/sipay-base"
import { sipayModuleOf } from "../../../../sipay-responses"
import { IS_3D_MEANINGS } from "../view"
import { brandName } from "../../../../../lib/sipay/brands"
import { configurationCauseOf, isSipayError } from "../../../../../lib/sipay"

/** What a connection test warns of, by code. */
const CONNECTION_WARNINGS = {
  three_d_refused: "3D Secure is on in the settings, but this merchant may only take direct (2D) payments",
  direct_refused: "Direct payment is on in the settings, but this merchant may only take 3D Secure payments",
} as const

/** What the merchant key check found, by code (the admin words it: settings.keyCheck.<code>). */
const KEY_CHECK_PROBLEMS = {
  merchant_key_unknown: 'The gateway does not know the merchant key ("Merchant not found"): check SIPAY_MERCHANT_KEY (the merchantKey option). No card payment can be taken with it.',
  hash_refused: "The gateway refused the request's hash: the app secret does not belong to this merchant key. Check SIPAY_APP_SECRET and SIPAY_MERCHANT_KEY.",
} as const

/**
 * The merchant key and the hash, with an operation that needs both: a checkstatus of an invoice that
 * cannot exist (no invoice id of the plugin's has this prefix). "Not found" means both are right.
 */
async function checkMerchantKey(client: ReturnType<ReturnType<typeof sipayModuleOf>["getClient"]>): Promise<keyof typeof KEY_CHECK_PROBLEMS | null> {
  try {
    await client.checkStatus(`sipay_connection_test_${Date.now()}`, { includePending: true })
    return null
  } catch (error) {
    if (isSipayError(error) && configurationCauseOf(error.statusCode, error.description) === "merchant_not_found") return "merchant_key_unknown"
    if (isSipayError(error) && error.statusCode === 90) return "hash_refused"
    throw toMedusaError(error, "checkstatus")
  }
}

/**
 * Gets a fresh token with the configured credentials, reports the merchant's 2D/3D permission (is_3d),
 * and checks the merchant key and the hash (checkMerchantKey): `ok` false names the problem.
 */
export const POST = async (req: AuthenticatedMedusaRequest, res: MedusaResponse) => {
  const sipay = sipayModuleOf(req)
  const client = sipay.getClient()
  let connection: { is3d: number; mode: string }
  try {
    connection = await client.testConnection()
  } catch (error) {
    throw toMedusaError(error, "token")
  }
  const keyProblem = await checkMerchantKey(client)
  const settings = await sipay.getCheckoutSettings()
  const warningCodes: (keyof typeof CONNECTION_WARNINGS)[] = []
  if (settings.threeDEnabled && connection.is3d === 0) {
    warningCodes.push("three_d_refused")
  }
  if (settings.directPaymentEnabled && (connection.is3d === 2 || connection.is3d === 4)) {
    warningCodes.push("direct_refused")
  }
  res.json({
    ok: keyProblem === null,
    // What was checked: the token (app id and secret), then the merchant key and the hash (checkstatus).
    checks: { token: "ok", merchant_key: keyProblem ?? "ok" },
    ...(keyProblem ? { problem_code: keyProblem, problem: KEY_CHECK_PROBLEMS[keyProblem] } : {}),
    is_3d: connection.is3d,
    mode: connection.mode,
    meaning: IS_3D_MEANINGS[connection.is3d] ?? `Unknown is_3d value ${connection.is3d}`,
    warnings: warningCodes.map((code) => CONNECTION_WARNINGS[code]),
    // The same warnings by code, for the admin to word in its user's language.
    warning_codes: warningCodes,
    // The gateway reached, by its brand's name (docs/configuration.md "Brands").
    brand: sipay.getOptions().brand ?? null,
    brand_name: brandName(sipay.getOptions().brand),
    base_url: client.baseUrl,
    tested_at: new Date().toISOString(),
  })
}
