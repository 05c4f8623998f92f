import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { toMedusaError } from "../../../../../providers/sipay/core/sipay-base"
import { sipayModuleOf } from "../../../../sipay-responses"
import { IS_3D_MEANINGS } from "../view"
import { brandName } from "../../../../../lib/sipay/brands"

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
  const warnings: string[] = []
  if (settings.threeDEnabled && connection.is3d === 0) {
    warnings.push("3D Secure is on in the settings, but this merchant may only take direct (2D) payments")
  }
  if (settings.directPaymentEnabled && (connection.is3d === 2 || connection.is3d === 4)) {
    warnings.push("Direct payment is on in the settings, but this merchant may only take 3D Secure payments")
  }
  res.json({
    ok: true,
    is_3d: connection.is3d,
    mode: connection.mode,
    meaning: IS_3D_MEANINGS[connection.is3d] ?? `Unknown is_3d value ${connection.is3d}`,
    warnings,
    // The gateway reached, by its brand's name (README "Brands").
    brand: sipay.getOptions().brand ?? null,
    brand_name: brandName(sipay.getOptions().brand),
    base_url: client.baseUrl,
    tested_at: new Date().toISOString(),
  })
}
