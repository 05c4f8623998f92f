import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { SIPAY_MODULE } from "../../modules/sipay"
import { LedgerStore } from "../../modules/sipay/ledger/store"
import type SipayModuleService from "../../modules/sipay/service"
import { istanbulDaysBetween, paidSalesOfLink, recordExpiryMoment } from "../../lib/payment-links"
import { pullDayIntoLedger } from "../../lib/sales-report/ledger-pull"
import type { SaleRecord } from "../../lib/sipay"
import { istanbulDate } from "../../lib/sipay/calendar"
import { toMedusaError } from "../../providers/sipay/core/sipay-base"

/**
 * The link's paid sales, counted in the sales ledger: the interface has no operation that reads a
 * link. Days of the link's life the ledger never had, and today (still taking payments), are pulled
 * from the gateway into the ledger first; the other days are the ledger's (the sync job keeps them).
 */
export const countPaymentLinkUsesStep = createStep(
  "sipay-count-payment-link-uses",
  async (input: { dpl_id: number; created_at: string | Date; expire_date: string }, { container }) => {
    const client = container.resolve<SipayModuleService>(SIPAY_MODULE).getClient()
    const ledger = new LedgerStore(container.resolve(ContainerRegistrationKeys.PG_CONNECTION))
    const now = new Date()
    const expiry = recordExpiryMoment(input.expire_date)
    const until = expiry && expiry.getTime() < now.getTime() ? expiry : now
    const days = istanbulDaysBetween(new Date(input.created_at), until)
    const synced = await ledger.days(days)
    const today = istanbulDate(now)
    const toPull = days.filter((day) => day === today || !synced.get(day)?.last_synced_at)
    try {
      for (const day of toPull) {
        const pulled = await pullDayIntoLedger(client, ledger, day, now)
        await ledger.recordDay(day, { sale_count: pulled.sales, synced_at: now, duration_ms: 0, error: null })
      }
    } catch (error) {
      throw toMedusaError(error, "getTransactions")
    }
    const sales = (await ledger.linkSales(input.dpl_id)).map((sale) => ({ ...sale, dpl_id: input.dpl_id }) as unknown as SaleRecord)
    const uses = paidSalesOfLink(sales, input.dpl_id).length
    const ledgerSyncedAt = days
      .map((day) => (toPull.includes(day) ? now.toISOString() : synced.get(day)?.last_synced_at ?? null))
      .reduce<string | null>((oldest, at) => (at && (!oldest || at < oldest) ? at : oldest), null)
    return new StepResponse({ uses, days: days.length, pulled_days: toPull.length, counted_at: now, ledger_synced_at: ledgerSyncedAt })
  }
)
