import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, defineFileConfig, Modules } from "@medusajs/framework/utils"
import { SIPAY_MODULE } from "../modules/sipay"
import type SipayModuleService from "../modules/sipay/service"
import { settlePaymentAttemptWorkflow } from "../workflows/settle-payment-attempt"

/**
 * Attempts left pending because neither the redirect nor the webhook arrived (a closed tab, a lost
 * answer, a webhook never sent) are settled on the gateway's word: paid -> the cart becomes an
 * order, failed -> recorded. One instance at a time runs it; each attempt is locked on its own too.
 */
export default async function reconcileSipayAttempts(container: MedusaContainer): Promise<{ settled: number; statuses: Record<string, number> }> {
  const sipay = container.resolve<SipayModuleService>(SIPAY_MODULE)
  const logger = container.resolve("logger")
  const options = sipay.getOptions()
  const olderThan = new Date(Date.now() - (options.reconcileAfterSeconds ?? 300) * 1000)
  const statuses: Record<string, number> = {}
  let settled = 0
  try {
    await container.resolve(Modules.LOCKING).execute(
      "sipay:reconcile-attempts",
      async () => {
        const pending = await fairBatch(container, olderThan, options.reconcileBatchSize ?? 50)
        for (const attempt of pending) {
          try {
            const { result } = await settlePaymentAttemptWorkflow(container).run({ input: { invoice_id: attempt.invoice_id, reconcile: true } })
            statuses[result.status] = (statuses[result.status] ?? 0) + 1
            settled++
          } catch (error) {
            logger.warn(`Sipay reconciliation of ${attempt.invoice_id} failed: ${(error as Error).message}`)
          }
        }
      },
      { timeout: 1 }
    )
  } catch (error) {
    logger.info(`Sipay reconciliation skipped: ${(error as Error).message}`)
  }
  if (settled) {
    logger.info(`Sipay reconciliation settled ${settled} attempt(s): ${JSON.stringify(statuses)}`)
  }
  return { settled, statuses }
}

type Knex = { raw(sql: string, bindings?: readonly unknown[]): Promise<{ rows: Array<{ invoice_id: string }> }> }

/**
 * The run's batch, fair across sessions: every session's newest pending attempt first (oldest
 * sessions first), then every session's second newest, and so on. Flooding one session with
 * attempts therefore never pushes another session's real payment out of the batch.
 */
async function fairBatch(container: MedusaContainer, olderThan: Date, size: number): Promise<Array<{ invoice_id: string }>> {
  const db = container.resolve<Knex>(ContainerRegistrationKeys.PG_CONNECTION)
  const { rows } = await db.raw(
    `SELECT invoice_id FROM (
       SELECT invoice_id, created_at, row_number() OVER (PARTITION BY session_id ORDER BY created_at DESC) AS newest
       FROM sipay_payment_attempt
       WHERE status = 'pending' AND deleted_at IS NULL AND created_at < ?
     ) ranked
     ORDER BY newest ASC, created_at ASC
     LIMIT ?`,
    [olderThan, Math.max(1, Math.floor(size))]
  )
  return rows
}

// `off`: Medusa does not schedule the job (a store that runs it by other means, the test suites that run it themselves).
defineFileConfig({ isDisabled: () => process.env.SIPAY_RECONCILE_SCHEDULE === "off" })

export const config = {
  name: "sipay-reconcile-attempts",
  schedule: process.env.SIPAY_RECONCILE_SCHEDULE || "*/5 * * * *",
}
