import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, defineFileConfig, Modules } from "@medusajs/framework/utils"
import { SIPAY_MODULE } from "../modules/sipay"
import type SipayModuleService from "../modules/sipay/service"
import { settlePaymentAttemptWorkflow } from "../workflows/settle-payment-attempt"
import { DEFAULT_RECONCILE_AFTER_SECONDS, DEFAULT_RECONCILE_SCHEDULE, RECONCILE_MAX_INTERVAL_SECONDS } from "../lib/reconcile-defaults"

/**
 * Attempts left pending because neither the redirect nor the webhook arrived (a closed tab, a lost
 * answer, a webhook never sent) are settled on the gateway's word: paid -> the cart becomes an
 * order, failed -> recorded. One instance at a time runs it; each attempt is locked on its own too.
 * Back-off by age: an attempt is asked about again once it has waited half its age since the last
 * look (at least reconcileAfterSeconds), so an abandoned form is asked about at about 1, 2, 4, 8 and
 * 16 minutes, the last after the 15-minute grace that judges it. reconcileAfterSeconds 0: every run asks about every pending attempt.
 */
export default async function reconcileSipayAttempts(
  container: MedusaContainer,
  run: { now?: boolean } = {}
): Promise<{ settled: number; statuses: Record<string, number> }> {
  const sipay = container.resolve<SipayModuleService>(SIPAY_MODULE)
  const logger = container.resolve("logger")
  const options = sipay.getOptions()
  // `now` (the admin's "settle pending payments now"): every pending attempt, whatever its age and back-off.
  const afterSeconds = run.now ? 0 : Math.max(0, options.reconcileAfterSeconds ?? DEFAULT_RECONCILE_AFTER_SECONDS)
  const statuses: Record<string, number> = {}
  let settled = 0
  try {
    await container.resolve(Modules.LOCKING).execute(
      "sipay:reconcile-attempts",
      async () => {
        const pending = await fairBatch(container, afterSeconds, options.reconcileBatchSize ?? 50)
        logger.debug(`Sipay reconciliation: ${pending.length} attempt(s) due`)
        for (const attempt of pending) {
          try {
            // The look is counted before it is made: one cut short (a killed worker) waits its back-off like any other.
            await lookedAt(container, attempt.invoice_id)
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
 * The run's batch, fair across sessions: every session's newest due attempt first (oldest
 * sessions first), then every session's second newest, and so on. Flooding one session with
 * attempts therefore never pushes another session's real payment out of the batch. Due: pending at
 * least `afterSeconds`, and not looked at (updated_at, which every look and every outcome moves)
 * for half its age, at least `afterSeconds`, at most RECONCILE_MAX_INTERVAL_SECONDS.
 */
async function fairBatch(container: MedusaContainer, afterSeconds: number, size: number): Promise<Array<{ invoice_id: string }>> {
  const db = container.resolve<Knex>(ContainerRegistrationKeys.PG_CONNECTION)
  const { rows } = await db.raw(
    `SELECT invoice_id FROM (
       SELECT invoice_id, created_at, row_number() OVER (PARTITION BY session_id ORDER BY created_at DESC) AS newest
       FROM sipay_payment_attempt
       WHERE status = 'pending' AND deleted_at IS NULL
         AND created_at <= now() - make_interval(secs => ?)
         AND (? = 0 OR updated_at <= now() - make_interval(secs => greatest(?, least(extract(epoch FROM now() - created_at) / 2, ?))))
     ) ranked
     ORDER BY newest ASC, created_at ASC
     LIMIT ?`,
    [afterSeconds, afterSeconds, afterSeconds, RECONCILE_MAX_INTERVAL_SECONDS, Math.max(1, Math.floor(size))]
  )
  return rows
}

/** Marks a look at the attempt (its updated_at), from which its back-off counts. */
async function lookedAt(container: MedusaContainer, invoiceId: string): Promise<void> {
  const db = container.resolve<Knex>(ContainerRegistrationKeys.PG_CONNECTION)
  await db.raw(`UPDATE sipay_payment_attempt SET updated_at = now() WHERE invoice_id = ? AND status = 'pending' AND deleted_at IS NULL`, [invoiceId])
}

// `off`: Medusa does not schedule the job (a store that runs it by other means, the test suites that run it themselves).
defineFileConfig({ isDisabled: () => process.env.SIPAY_RECONCILE_SCHEDULE === "off" })

export const config = {
  name: "sipay-reconcile-attempts",
  schedule: process.env.SIPAY_RECONCILE_SCHEDULE || DEFAULT_RECONCILE_SCHEDULE,
}
