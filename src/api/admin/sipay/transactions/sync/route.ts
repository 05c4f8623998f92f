import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { zodValidator } from "@medusajs/framework"
import { MedusaError } from "@medusajs/framework/utils"
import { gatewayDay } from "../../../../../lib/sales-report"
import type { LedgerSyncReport } from "../../../../../workflows/sales-ledger/sync-ledger"
import { syncNow } from "../../../../../workflows/sales-ledger/sync-in-worker"
import { SyncBody } from "../validators"

/**
 * "Sync now": pulls one day (default today) from the gateway into the ledger, then acts on what changed.
 * On a server-mode instance of a cluster the worker runs it and this request waits for its report (syncNow).
 */
export const POST = async (req: AuthenticatedMedusaRequest, res: MedusaResponse<{ sync: LedgerSyncReport & { ran_in: "worker" | "this_instance" } }>) => {
  const body = await zodValidator(SyncBody, req.body ?? {})
  const today = gatewayDay(new Date())
  const day = body.date ?? today
  if (day > today) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, "date must not be in the future")
  }
  const report = await syncNow(req.scope, [day])
  if (!report.ran) {
    throw new MedusaError(MedusaError.Types.CONFLICT, "A ledger sync is already running; try again in a moment")
  }
  const failed = report.days.find((entry) => entry.error)
  if (failed) {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `Syncing ${failed.day} failed: ${failed.error}`)
  }
  res.json({ sync: report })
}
