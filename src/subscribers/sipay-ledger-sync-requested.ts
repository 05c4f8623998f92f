import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { answerSyncRequest, SYNC_REQUESTED_EVENT, type SyncRequest } from "../workflows/sales-ledger/sync-in-worker"

/** "Sync now" asked of a server-mode instance, run here (the worker) and answered back (docs/cluster.md). */
export default async function sipayLedgerSyncRequestedHandler({ event, container }: SubscriberArgs<SyncRequest>) {
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
  const request = event.data
  try {
    const report = await answerSyncRequest(container, request)
    if (!report) {
      logger.warn(`Sipay ledger: "sync now" ${request.request_id} came too late (the server synced it itself)`)
      return
    }
    const days = report.days.map((day) => `${day.day}: ${day.error ? `failed (${day.error})` : `${day.sales} sales`}`).join(", ")
    logger.info(`Sipay ledger: "sync now" ${request.request_id} from a server instance ${report.ran ? `synced ${days}` : "found a sync under way"}`)
  } catch (error) {
    logger.error(`Sipay ledger: "sync now" ${request.request_id} from a server instance failed: ${(error as Error).message}`)
  }
}

export const config: SubscriberConfig = {
  event: SYNC_REQUESTED_EVENT,
}
