import type SipayModuleService from "../../../../modules/sipay/service"
import { linkBaseOf } from "../../../../lib/payment-links"
import { checkoutSettingsFrom, SETTING_COLUMNS, settingsAsRow } from "../../../../lib/settings"
import { CONFIGURATION_PROBLEM_TEXTS, recentSightings, SETUP_WARNING_TEXTS, setupWarningsOf } from "../../../../lib/config-alerts"

/** What an enabled feature lacks (the boot's warnings, read now) and the configuration refusals of the last 7 days. */
async function setupState(sipay: SipayModuleService) {
  const db = sipay.getDatabase()
  if (!db) return { setup_warnings: [], configuration_problems: [] }
  const [codes, sightings] = await Promise.all([setupWarningsOf(db, sipay.getOptions()), recentSightings(db)])
  return {
    setup_warnings: codes.map((code) => ({ code, message: SETUP_WARNING_TEXTS[code] })),
    configuration_problems: sightings.map((sighting) => ({
      code: sighting.cause,
      message: CONFIGURATION_PROBLEM_TEXTS[sighting.cause].en,
      last_seen_at: sighting.seen_at,
      count: sighting.seen_count,
    })),
  }
}

/** Enough of a credential to recognise it, never enough to use it. */
export function maskCredential(value: string | number | null | undefined): string | null {
  const text = value === null || value === undefined ? "" : String(value)
  if (!text) {
    return null
  }
  if (text.length <= 8) {
    return "•".repeat(text.length)
  }
  return `${text.slice(0, 4)}${"•".repeat(Math.min(12, text.length - 8))}${text.slice(-4)}`
}

/** What the settings page shows: the effective settings, what was saved, the option defaults, and the credentials masked (no secret). */
export async function settingsView(sipay: SipayModuleService) {
  const options = sipay.getOptions()
  const client = sipay.getClient()
  const [row, setup] = await Promise.all([sipay.getSettingsRow(), setupState(sipay)])
  const stored = Object.fromEntries(Object.values(SETTING_COLUMNS).map((column) => [column, row?.[column] ?? null]))
  return {
    settings: settingsAsRow(await sipay.getCheckoutSettings()),
    stored,
    defaults: settingsAsRow(checkoutSettingsFrom(options)),
    updated_at: (row as { updated_at?: Date } | null)?.updated_at ?? null,
    ...setup,
    credentials: {
      brand: options.brand ?? null,
      base_url: client.baseUrl,
      panel_base_url: client.panelBaseUrl,
      link_base_url: linkBaseOf(client.panelBaseUrl),
      merchant_id: options.merchantId !== undefined && options.merchantId !== null ? String(options.merchantId) : null,
      app_id: maskCredential(options.appId),
      merchant_key: maskCredential(options.merchantKey),
      app_secret_configured: Boolean(options.appSecret),
    },
  }
}

/** The gateway's is_3d values (the sandbox and the gateway reference): which payment flows the merchant may use. */
export const IS_3D_MEANINGS: Record<number, string> = {
  0: "2D only: direct card payments are allowed; 3D Secure payments are refused for this merchant",
  1: "2D and 3D: both direct and 3D Secure card payments are allowed",
  2: "3D only: 3D Secure payments are allowed; direct (2D) payments are refused",
  4: "Branded 3D only: payments go through the gateway's branded 3D page; direct (2D) payments are refused",
}
