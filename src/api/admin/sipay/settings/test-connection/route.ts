import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { toMedusaError } from "../../../../../providers/sipay/core/sipay-base"
import { sipayModuleOf } from "../../../../sipay-responses"
import { IS_3D_MEANINGS } from "../view"
import { brandName } from "../../../../../lib/sipay/brands"

/** What a connection test warns of, by code. */
const CONNECTION_WARNINGS = {
  three_d_refused: "3D Secure is on in the settings, but this merchant may only take direct (2D) payments",
  direct_refused: "Direct payment is on in the settings, but this merchant may only take 3D Secure payments",
} as const

/** Gets a fresh token with the configured credentials and reports the merchant's 2D/3D permission (is_3d). */
export const POST = async (req: AuthenticatedMedusaRequest, res: MedusaResponse) => {
  const sipay = sipayModuleOf(req)
  const client = sipay.getClient()
  let connection: { is3d: number; mode: string }
  try {
    connection = await client.testConnection()
  } catch (error) {
    throw toMedusaError(error, "token")
  }
  const settings = await sipay.getCheckoutSettings()
  const warningCodes: (keyof typeof CONNECTION_WARNINGS)[] = []
  if (settings.threeDEnabled && connection.is3d === 0) {
    warningCodes.push("three_d_refused")
  }
  if (settings.directPaymentEnabled && (connection.is3d === 2 || connection.is3d === 4)) {
    warningCodes.push("direct_refused")
  }
  res.json({
    ok: true,
    is_3d: connection.is3d,
    mode: connection.mode,
    meaning: IS_3D_MEANINGS[connection.is3d] ?? `Unknown is_3d value ${connection.is3d}`,
    warnings: warningCodes.map((code) => CONNECTION_WARNINGS[code]),
    // The same warnings by code, for the admin to word in its user's language.
    warning_codes: warningCodes,
    // The gateway reached, by its brand's name (README "Brands").
    brand: sipay.getOptions().brand ?? null,
    brand_name: brandName(sipay.getOptions().brand),
    base_url: client.baseUrl,
    tested_at: new Date().toISOString(),
  })
}
