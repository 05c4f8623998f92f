import type { MedusaContainer } from "@medusajs/framework/types"
import { defineFileConfig } from "@medusajs/framework/utils"
import { syncLedger, type LedgerSyncReport } from "../workflows/sales-ledger/sync-ledger"

/**
 * Pulls the gateway's sales into the ledger: today on every run, older days of the window once a
 * day (docs/admin.md "Sales ledger"); then acts once on refunds made in the merchant panel and chargebacks.
 */
export default async function syncSipayLedger(container: MedusaContainer): Promise<LedgerSyncReport> {
  const report = await syncLedger(container)
  const logger = container.resolve("logger")
  for (const day of report.days) {
    if (day.error) logger.warn(`Sipay ledger: syncing ${day.day} failed: ${day.error}`)
  }
  return report
}

// `off`: Medusa does not schedule the job (the test suites run it themselves).
defineFileConfig({ isDisabled: () => process.env.SIPAY_LEDGER_SCHEDULE === "off" })

export const config = {
  name: "sipay-sync-ledger",
  schedule: process.env.SIPAY_LEDGER_SCHEDULE || "*/5 * * * *",
}
