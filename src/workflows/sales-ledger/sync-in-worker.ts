import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { answerThroughNotices, askThroughNotices, NoAnswererError, type NoticeDatabase } from "../../lib/shared-state/pg-requests"
import { syncLedger, type LedgerSyncReport } from "./sync-ledger"

/** The event a server-mode instance hands "sync now" to the worker with (docs/cluster.md). */
export const SYNC_REQUESTED_EVENT = "sipay.ledger.sync_requested"
export const SYNC_CHANNEL = "sipay_ledger_sync"

/** How long a server waits for the worker to take the request before syncing in its own process. */
export const WORKER_TAKES_WITHIN_MS = 15_000
/** How long a taken request may run (a busy day syncs in about a minute). */
const WORKER_DONE_WITHIN_MS = 15 * 60_000

export type SyncRequest = { request_id: string; days: string[]; requested_at: string }

/** Whether this process is a server-mode instance of a cluster (the worker runs jobs and subscribers). */
export function isServerInstance(container: MedusaContainer): boolean {
  const config = container.resolve(ContainerRegistrationKeys.CONFIG_MODULE) as { projectConfig?: { workerMode?: string } }
  return config.projectConfig?.workerMode === "server"
}

/** A report cut to fit a notice: the day lines whole, each list of actions to its first entries. */
function compactReport(report: LedgerSyncReport): LedgerSyncReport {
  const cut = <T>(entries: T[]) => entries.slice(0, 10)
  const { refunds_recorded, chargebacks, not_recorded, failed } = report.actions
  return {
    ...report,
    actions: { refunds_recorded: cut(refunds_recorded), chargebacks: cut(chargebacks), not_recorded: cut(not_recorded), failed: cut(failed) },
    actions_cut_to: 10,
  } as LedgerSyncReport
}

/**
 * "Sync now" where the sync belongs. In a server-mode instance the worker runs it (the event
 * SYNC_REQUESTED_EVENT; the worker's report comes back through PostgreSQL): a busy day's sync does not
 * share the server's memory and CPU with the admin and the shoppers. If no worker takes it within
 * WORKER_TAKES_WITHIN_MS, and in any other mode, this process syncs. Same report either way, plus `ran_in`.
 */
export async function syncNow(container: MedusaContainer, days: string[]): Promise<LedgerSyncReport & { ran_in: "worker" | "this_instance" }> {
  if (isServerInstance(container)) {
    const db = container.resolve(ContainerRegistrationKeys.PG_CONNECTION) as unknown as NoticeDatabase
    const eventBus = container.resolve(Modules.EVENT_BUS)
    try {
      const report = await askThroughNotices<LedgerSyncReport>(
        db,
        SYNC_CHANNEL,
        async (requestId) => {
          const request: SyncRequest = { request_id: requestId, days, requested_at: new Date().toISOString() }
          await eventBus.emit({ name: SYNC_REQUESTED_EVENT, data: request })
        },
        { startMs: WORKER_TAKES_WITHIN_MS, doneMs: WORKER_DONE_WITHIN_MS }
      )
      return { ...report, ran_in: "worker" }
    } catch (error) {
      if (!(error instanceof NoAnswererError)) throw error
      container.resolve(ContainerRegistrationKeys.LOGGER).warn(`Sipay ledger: no worker took "sync now" within ${WORKER_TAKES_WITHIN_MS / 1000} s; syncing in this server instance`)
    }
  }
  return { ...(await syncLedger(container, { days })), ran_in: "this_instance" }
}

/**
 * The worker's side (the subscriber): runs the requested sync and answers the server waiting for it.
 * A request older than the server's wait was synced by that server itself: skipped.
 */
export async function answerSyncRequest(container: MedusaContainer, request: SyncRequest, now = new Date()): Promise<LedgerSyncReport | null> {
  const age = now.getTime() - Date.parse(request.requested_at)
  if (!(age < WORKER_TAKES_WITHIN_MS)) return null
  const db = container.resolve(ContainerRegistrationKeys.PG_CONNECTION) as unknown as NoticeDatabase
  return answerThroughNotices(db, SYNC_CHANNEL, request.request_id, () => syncLedger(container, { days: request.days }), compactReport)
}
