import { MedusaError } from "@medusajs/framework/utils"
import { createStep, createWorkflow, StepResponse, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { SIPAY_MODULE } from "../../modules/sipay"
import type SipayModuleService from "../../modules/sipay/service"
import { checkoutSettingsFrom, findSettingsProblems, SETTING_COLUMNS, SettingsRow, storedSettingsFrom } from "../../lib/settings"

const COLUMNS = Object.values(SETTING_COLUMNS)

type SavedSettings = { id: string; previous: SettingsRow | null; created: boolean }

/**
 * Saves the store owner's settings (the one row; null = back to the plugin option), after checking
 * the settings they produce together. Compensation puts the previous row back.
 */
export const saveCheckoutSettingsStep = createStep(
  "sipay-save-checkout-settings",
  async ({ changes }: { changes: SettingsRow }, { container }) => {
    const sipay = container.resolve<SipayModuleService>(SIPAY_MODULE)
    const existing = await sipay.getSettingsRow()
    const next: SettingsRow = { ...(existing ?? {}), ...changes }
    const problems = findSettingsProblems(checkoutSettingsFrom(sipay.getOptions(), storedSettingsFrom(next)))
    if (problems.length) {
      throw new MedusaError(MedusaError.Types.INVALID_DATA, problems.join("; "))
    }
    if (existing) {
      const previous = Object.fromEntries(COLUMNS.map((column) => [column, existing[column] ?? null]))
      await sipay.updateCheckoutSettings({ id: existing.id, ...changes } as any)
      return new StepResponse(await sipay.getCheckoutSettings(), { id: existing.id, previous, created: false } as SavedSettings)
    }
    const row = await sipay.createCheckoutSettings(changes as any)
    return new StepResponse(await sipay.getCheckoutSettings(), { id: row.id, previous: null, created: true } as SavedSettings)
  },
  async (saved, { container }) => {
    if (!saved) {
      return
    }
    const sipay = container.resolve<SipayModuleService>(SIPAY_MODULE)
    if (saved.created) {
      await sipay.deleteCheckoutSettings(saved.id)
    } else {
      await sipay.updateCheckoutSettings({ id: saved.id, ...saved.previous } as any)
    }
  }
)

/** The admin's settings change: in effect for the next payment attempt, no restart. */
export const updateCheckoutSettingsWorkflow = createWorkflow("sipay-update-checkout-settings", (input: { changes: SettingsRow }) => {
  return new WorkflowResponse(saveCheckoutSettingsStep(input))
})
