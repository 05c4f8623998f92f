import type { MedusaContainer } from "@medusajs/framework/types"
import { defineFileConfig, Modules } from "@medusajs/framework/utils"
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
        const pending = await sipay.listPaymentAttempts(
          { status: "pending", created_at: { $lt: olderThan } },
          { take: options.reconcileBatchSize ?? 50, order: { created_at: "ASC" } }
        )
        for (const attempt of pending) {
          try {
            const { result } = await settlePaymentAttemptWorkflow(container).run({ input: { invoice_id: attempt.invoice_id } })
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

// `off`: Medusa does not schedule the job (a store that runs it by other means, the test suites that run it themselves).
defineFileConfig({ isDisabled: () => process.env.SIPAY_RECONCILE_SCHEDULE === "off" })

export const config = {
  name: "sipay-reconcile-attempts",
  schedule: process.env.SIPAY_RECONCILE_SCHEDULE || "*/5 * * * *",
}
