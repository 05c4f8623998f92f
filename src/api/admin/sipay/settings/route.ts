import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { updateCheckoutSettingsWorkflow } from "../../../../workflows/steps/save-checkout-settings"
import { sipayModuleOf } from "../../../sipay-responses"
import type { UpdateSettingsBody } from "./validators"
import { settingsView } from "./view"

export const GET = async (req: AuthenticatedMedusaRequest, res: MedusaResponse) => {
  res.json(await settingsView(sipayModuleOf(req)))
}

/** Saves the changed settings; the next payment attempt uses them (no restart). */
export const POST = async (req: AuthenticatedMedusaRequest<UpdateSettingsBody>, res: MedusaResponse) => {
  await updateCheckoutSettingsWorkflow(req.scope).run({ input: { changes: req.validatedBody } })
  res.json(await settingsView(sipayModuleOf(req)))
}
