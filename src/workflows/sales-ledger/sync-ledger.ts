import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { SIPAY_MODULE } from "../../modules/sipay"
import { LedgerStore } from "../../modules/sipay/ledger/store"
import type SipayModuleService from "../../modules/sipay/service"
import { tryWithAdvisoryLock, type AdvisoryLockDatabase } from "../../lib/shared-state/advisory-lock"
import { pullDayIntoLedger } from "../../lib/sales-report/ledger-pull"
import { daysDue, resolveLedgerOptions, windowDays } from "../../lib/sales-report/ledger-schedule"
import { settleOrderPaymentLinks } from "../order-payment-links/settle-links"
import { actOnLedgerChanges, noLedgerActions, type LedgerActions } from "./act-on-ledger"

export { CHARGEBACK_EVENT, PANEL_REFUND_EVENT } from "./act-on-ledger"
export type { LedgerActions } from "./act-on-ledger"

export type DaySyncReport = { day: string; sales: number; inserted: number; updated: number; duration_ms: number; error?: string }
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

/**
 * A sync run: the given days (the admin's "sync now"), else those due (daysDue), then the actions on
 * what changed outside Medusa (act-on-ledger.ts), then the phone orders paid through their links.
 * One run at a time across every process (an advisory lock); a run finding one under way returns ran: false.
 */
export async function syncLedger(container: MedusaContainer, input: { days?: string[]; now?: Date } = {}): Promise<LedgerSyncReport> {
  const pg = container.resolve(ContainerRegistrationKeys.PG_CONNECTION) as unknown as AdvisoryLockDatabase
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
    await settleOrderPaymentLinks(container)
    return { days: reports, actions }
  })
  return outcome.ran ? { ran: true, ...outcome.value } : { ran: false, days: [], actions: noLedgerActions() }
}
