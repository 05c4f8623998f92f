import type SipayModuleService from "../../../../modules/sipay/service"
import { linkBaseOf } from "../../../../lib/payment-links"
import { checkoutSettingsFrom, SETTING_COLUMNS, settingsAsRow } from "../../../../lib/settings"

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
  const row = await sipay.getSettingsRow()
  const stored = Object.fromEntries(Object.values(SETTING_COLUMNS).map((column) => [column, row?.[column] ?? null]))
  return {
    settings: settingsAsRow(await sipay.getCheckoutSettings()),
    stored,
    defaults: settingsAsRow(checkoutSettingsFrom(options)),
    updated_at: (row as { updated_at?: Date } | null)?.updated_at ?? null,
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
