import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { refundPaymentWorkflow } from "@medusajs/medusa/core-flows"
import { SIPAY_MODULE } from "../../modules/sipay"
import { LedgerStore, type ActionCandidate } from "../../modules/sipay/ledger/store"
import type SipayModuleService from "../../modules/sipay/service"
import { parseInvoiceId } from "../../providers/sipay/utils/session-data"
import { tryWithAdvisoryLock, type AdvisoryLockDatabase } from "../shared-state/advisory-lock"
import { fromMinorUnits, toMinorUnits } from "../sipay/amount"
import { actedOnSignature } from "./ledger-row"
import { pullDayIntoLedger } from "./ledger-pull"
import { daysDue, resolveLedgerOptions, windowDays } from "./ledger-schedule"
import { settleOrderPaymentLinks } from "../order-payment-links/settle"

/** Event emitted once per sale the ledger sees charged back (state 11) on an order of this store. */
export const CHARGEBACK_EVENT = "sipay.chargeback.received"
/** Event emitted when a refund made outside Medusa (the merchant panel) is recorded in Medusa. */
export const PANEL_REFUND_EVENT = "sipay.refund.recorded_from_gateway"

export const CHARGEBACK_STATE_ID = 11

export type DaySyncReport = { day: string; sales: number; inserted: number; updated: number; duration_ms: number; error?: string }
export type LedgerActions = { refunds_recorded: { invoice_id: string; amount: string }[]; chargebacks: { invoice_id: string; order_id: string | null }[]; failed: { invoice_id: string; error: string }[] }
export type LedgerSyncReport = { ran: boolean; days: DaySyncReport[]; actions: LedgerActions }

function ledgerOf(container: MedusaContainer): LedgerStore {
  return new LedgerStore(container.resolve(ContainerRegistrationKeys.PG_CONNECTION))
}

/** Streams one day from the gateway into the ledger (pullDayIntoLedger) and records how that went. */
export async function syncLedgerDay(container: MedusaContainer, day: string): Promise<DaySyncReport> {
  const sipay = container.resolve<SipayModuleService>(SIPAY_MODULE)
  const store = ledgerOf(container)
  const started = Date.now()
  const syncedAt = new Date()
  try {
    const pulled = await pullDayIntoLedger(sipay.getClient(), store, day, syncedAt)
    const report: DaySyncReport = { ...pulled, duration_ms: Date.now() - started }
    await store.recordDay(day, { sale_count: report.sales, synced_at: syncedAt, duration_ms: report.duration_ms, error: null })
    return report
  } catch (error) {
    const report: DaySyncReport = { day, sales: 0, inserted: 0, updated: 0, duration_ms: Date.now() - started, error: (error as Error)?.message ?? String(error) }
    await store.recordDay(day, { sale_count: 0, synced_at: syncedAt, duration_ms: report.duration_ms, error: report.error! }).catch(() => undefined)
    return report
  }
}

type PaymentWithMoney = { id: string; payment_collection_id: string; currency_code: string; captures?: { amount: unknown }[]; refunds?: { amount: unknown }[] }

const sumMinor = (entries: { amount: unknown }[] | undefined) => (entries ?? []).reduce((sum, entry) => sum + toMinorUnits(entry.amount as never), 0n)

/**
 * Acts once on what the ledger shows changed outside Medusa: a refund made in the merchant panel is
 * recorded through Medusa's refund flow (the provider sees the gateway already refunded it and does
 * not refund again), so Medusa's refunded total matches the gateway's and a later admin refund still
 * reaches the gateway; a chargeback gets the plugin's record on the order and an event.
 */
export async function actOnLedgerChanges(container: MedusaContainer, days: readonly string[]): Promise<LedgerActions> {
  const store = ledgerOf(container)
  const actions: LedgerActions = { refunds_recorded: [], chargebacks: [], failed: [] }
  const pending = (await store.actionCandidates(days)).filter((sale) => sale.acted_on !== actedOnSignature(sale))
  for (const sale of pending) {
    try {
      const done = await actOnSale(container, sale, actions)
      if (done) await store.markActedOn(sale.sale_id, actedOnSignature(sale))
    } catch (error) {
      actions.failed.push({ invoice_id: sale.invoice_id, error: (error as Error)?.message ?? String(error) })
      container.resolve("logger").warn(`Sipay ledger: acting on sale ${sale.invoice_id} failed, retried on the next sync: ${(error as Error)?.message}`)
    }
  }
  return actions
}

/** True when everything the sale's state asks for is done (or is not this store's business). */
async function actOnSale(container: MedusaContainer, sale: ActionCandidate, actions: LedgerActions): Promise<boolean> {
  if (!parseInvoiceId(sale.invoice_id)) return true
  const sipay = container.resolve<SipayModuleService>(SIPAY_MODULE)
  const [attempt] = await sipay.listPaymentAttempts({ invoice_id: sale.invoice_id }, { take: 1 })
  if (!attempt) return true
  const paymentModule = container.resolve(Modules.PAYMENT)
  const [payment] = (await paymentModule.listPayments({ payment_session_id: attempt.session_id }, { relations: ["captures", "refunds"] })) as unknown as PaymentWithMoney[]
  if (!payment) return false
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data: links } = await query.graph({ entity: "order_payment_collection", fields: ["order_id"], filters: { payment_collection_id: payment.payment_collection_id } })
  const orderId = (links[0] as { order_id?: string } | undefined)?.order_id ?? attempt.order_id ?? null
  const eventBus = container.resolve(Modules.EVENT_BUS)

  const gatewayRefunded = toMinorUnits(sale.total_refunded_amount)
  const medusaRefunded = sumMinor(payment.refunds)
  const captured = sumMinor(payment.captures)
  const missing = gatewayRefunded - medusaRefunded
  if (missing > 0n) {
    if (!orderId || captured <= medusaRefunded) return false
    const amount = missing < captured - medusaRefunded ? missing : captured - medusaRefunded
    await refundPaymentWorkflow(container).run({
      input: { payment_id: payment.id, amount: Number(fromMinorUnits(amount)), note: "Refunded in the Sipay merchant panel (recorded from the sales ledger)" },
    })
    actions.refunds_recorded.push({ invoice_id: sale.invoice_id, amount: fromMinorUnits(amount) })
    await eventBus.emit({ name: PANEL_REFUND_EVENT, data: { invoice_id: sale.invoice_id, order_id: orderId, payment_id: payment.id, amount: fromMinorUnits(amount), currency_code: sale.currency_code } })
  }

  if (sale.transaction_state_id === CHARGEBACK_STATE_ID) {
    const [known] = await sipay.listChargebacks({ sale_id: sale.sale_id }, { take: 1 })
    if (!known) {
      const chargeback = await sipay.createChargebacks({
        sale_id: sale.sale_id,
        invoice_id: sale.invoice_id,
        order_id: orderId,
        payment_id: payment.id,
        amount: Number(sale.gross),
        currency_code: sale.currency_code,
        detected_at: new Date(),
      })
      actions.chargebacks.push({ invoice_id: sale.invoice_id, order_id: orderId })
      await eventBus.emit({ name: CHARGEBACK_EVENT, data: { id: chargeback.id, invoice_id: sale.invoice_id, order_id: orderId, payment_id: payment.id, amount: sale.gross, currency_code: sale.currency_code } })
    }
  }
  return true
}

/**
 * A sync run: the given days (the admin's "sync now"), else those due (daysDue), then the actions.
 * One run at a time across every process (an advisory lock); a run finding one under way returns ran: false.
 */
export async function syncLedger(container: MedusaContainer, input: { days?: string[]; now?: Date } = {}): Promise<LedgerSyncReport> {
  const pg = container.resolve(ContainerRegistrationKeys.PG_CONNECTION) as unknown as AdvisoryLockDatabase
  const empty: LedgerActions = { refunds_recorded: [], chargebacks: [], failed: [] }
  const outcome = await tryWithAdvisoryLock(pg, "sipay:ledger-sync", async () => {
    const now = input.now ?? new Date()
    let days = input.days
    if (!days) {
      const options = resolveLedgerOptions(container.resolve<SipayModuleService>(SIPAY_MODULE).getOptions().ledger)
      days = daysDue(now, await ledgerOf(container).days(windowDays(now, options.windowDays)), options)
    }
    const reports: DaySyncReport[] = []
    for (const day of days) reports.push(await syncLedgerDay(container, day))
    const synced = reports.filter((report) => !report.error).map((report) => report.day)
    const actions = await actOnLedgerChanges(container, synced)
    // Phone orders paid (or paid wrongly) through their links, once (src/lib/order-payment-links/settle.ts).
    await settleOrderPaymentLinks(container)
    return { days: reports, actions }
  })
  return outcome.ran ? { ran: true, ...outcome.value } : { ran: false, days: [], actions: empty }
}
