import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, defineFileConfig, Modules } from "@medusajs/framework/utils"
import { SIPAY_MODULE } from "../modules/sipay"
import type SipayModuleService from "../modules/sipay/service"
import { PRE_AUTHORIZATION_DAYS } from "../lib/options"
import { tryWithAdvisoryLock, type AdvisoryLockDatabase } from "../lib/shared-state/advisory-lock"
import { preAuthorizationDeadline } from "../lib/sales-report/pre-authorization"
import { classifyTransaction } from "../lib/sipay/outcome"
import { resolveSaleOwner } from "../workflows/sale-owner/resolve-sale-owners"

export const PRE_AUTHORIZATION_EXPIRING_EVENT = "sipay.pre_authorization.expiring"
export const PRE_AUTHORIZATION_CANCELLED_EVENT = "sipay.pre_authorization.cancelled"

export type PreAuthorizationReport = {
  expiring: { invoice_id: string; order_id: string | null; days_left: number }[]
  cancelled: { invoice_id: string; order_id: string | null; reason: string }[]
  captured: string[]
  /** true when another instance was running the check (nothing done by this run). */
  skipped?: boolean
}

/**
 * Every open pre-authorization, asked about at the gateway: captured elsewhere -> recorded;
 * cancelled by the gateway (the 20-day deadline) or for a cancelled order -> the payment is
 * cancelled in Medusa too (this also retries cancels that Medusa's order-cancel flow only logged);
 * near the deadline -> reported (log and event).
 * One run at a time across every process (an advisory lock on the store's PostgreSQL): a run that
 * starts while another instance's is under way is skipped (`skipped: true`), so nothing is cancelled
 * or announced twice.
 */
export default async function watchSipayPreAuthorizations(container: MedusaContainer): Promise<PreAuthorizationReport> {
  const database = container.resolve<AdvisoryLockDatabase>(ContainerRegistrationKeys.PG_CONNECTION)
  const run = await tryWithAdvisoryLock(database, "sipay:job:pre-authorizations", () => checkPreAuthorizations(container))
  if (!run.ran) {
    container.resolve("logger").info("Sipay pre-authorization check skipped: another instance is running it")
    return { expiring: [], cancelled: [], captured: [], skipped: true }
  }
  return run.value
}

async function checkPreAuthorizations(container: MedusaContainer): Promise<PreAuthorizationReport> {
  const sipay = container.resolve<SipayModuleService>(SIPAY_MODULE)
  const paymentModule = container.resolve(Modules.PAYMENT)
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const eventBus = container.resolve(Modules.EVENT_BUS)
  const logger = container.resolve("logger")
  const warningDays = sipay.getOptions().preAuthorizationWarningDays ?? 17
  const report: PreAuthorizationReport = { expiring: [], cancelled: [], captured: [] }
  const open = await sipay.listPaymentAttempts({ status: "authorized" }, { take: 500, order: { completed_at: "ASC" } })

  for (const attempt of open) {
    try {
      const transaction = await sipay.getClient().checkStatus(attempt.invoice_id)
      const outcome = classifyTransaction(transaction)
      // The Medusa payment this sale paid (resolveSaleOwner), never another attempt's of the same session.
      const owner = await resolveSaleOwner(container, { invoice_id: attempt.invoice_id }, { attempts: [attempt as never] })
      const [payment] = owner.kind === "payment" ? await paymentModule.listPayments({ id: owner.payment_id }) : []
      const { data: orders } = attempt.order_id
        ? await query.graph({ entity: "order", fields: ["id", "status", "canceled_at"], filters: { id: attempt.order_id } })
        : { data: [] as any[] }
      const orderCancelled = Boolean((orders[0] as any)?.canceled_at)

      if (outcome === "captured") {
        await sipay.updatePaymentAttempts({ id: attempt.id, status: "paid" })
        report.captured.push(attempt.invoice_id)
        continue
      }
      if (outcome === "cancelled" || outcome === "failed" || orderCancelled) {
        // Medusa's cancel asks the gateway: a reservation still open is cancelled there, a gone one is accepted.
        if (payment && !payment.canceled_at && !payment.captured_at) {
          await paymentModule.cancelPayment(payment.id)
        }
        const reason = orderCancelled && outcome === "authorized" ? "order cancelled" : transaction.reason || "cancelled by the gateway"
        await sipay.updatePaymentAttempts({ id: attempt.id, status: "cancelled", error_message: reason })
        report.cancelled.push({ invoice_id: attempt.invoice_id, order_id: attempt.order_id ?? null, reason })
        await eventBus.emit({ name: PRE_AUTHORIZATION_CANCELLED_EVENT, data: { invoice_id: attempt.invoice_id, order_id: attempt.order_id, payment_id: payment?.id, reason } })
        continue
      }
      const { days_left: daysLeft } = preAuthorizationDeadline(new Date(attempt.completed_at ?? attempt.created_at), new Date())
      if (PRE_AUTHORIZATION_DAYS - daysLeft >= warningDays) {
        report.expiring.push({ invoice_id: attempt.invoice_id, order_id: attempt.order_id ?? null, days_left: daysLeft })
        logger.warn(`Sipay pre-authorization ${attempt.invoice_id} (order ${attempt.order_id}) is cancelled by the gateway in ${daysLeft} day(s) unless captured`)
        await eventBus.emit({ name: PRE_AUTHORIZATION_EXPIRING_EVENT, data: { invoice_id: attempt.invoice_id, order_id: attempt.order_id, payment_id: payment?.id, days_left: daysLeft } })
      }
    } catch (error) {
      logger.warn(`Sipay pre-authorization check of ${attempt.invoice_id} failed: ${(error as Error).message}`)
    }
  }
  return report
}

// `off`: Medusa does not schedule the job (a store that runs it by other means, the test suites that run it themselves).
defineFileConfig({ isDisabled: () => process.env.SIPAY_PRE_AUTHORIZATION_SCHEDULE === "off" })

export const config = {
  name: "sipay-pre-authorizations",
  schedule: process.env.SIPAY_PRE_AUTHORIZATION_SCHEDULE || "17 * * * *",
}
