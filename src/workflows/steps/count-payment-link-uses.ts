import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { SIPAY_MODULE } from "../../modules/sipay"
import type SipayModuleService from "../../modules/sipay/service"
import { istanbulDaysBetween, paidSalesOfLink, recordExpiryMoment } from "../../lib/payment-links"
import { toMedusaError } from "../../providers/sipay/core/sipay-base"

const PARALLEL_DAYS = 4

/**
 * The link's paid sales, from getTransactions for each Istanbul day from its creation to today (or
 * its expiry, if earlier): the interface has no operation that reads a link. Reads only.
 */
export const countPaymentLinkUsesStep = createStep(
  "sipay-count-payment-link-uses",
  async (input: { dpl_id: number; created_at: string | Date; expire_date: string }, { container }) => {
    const client = container.resolve<SipayModuleService>(SIPAY_MODULE).getClient()
    const now = new Date()
    const expiry = recordExpiryMoment(input.expire_date)
    const until = expiry && expiry.getTime() < now.getTime() ? expiry : now
    const days = istanbulDaysBetween(new Date(input.created_at), until)
    let uses = 0
    try {
      for (let index = 0; index < days.length; index += PARALLEL_DAYS) {
        const batch = await Promise.all(days.slice(index, index + PARALLEL_DAYS).map((date) => client.getTransactions({ date })))
        uses += batch.reduce((sum, sales) => sum + paidSalesOfLink(sales, input.dpl_id).length, 0)
      }
    } catch (error) {
      throw toMedusaError(error, "getTransactions")
    }
    return new StepResponse({ uses, days: days.length, counted_at: now })
  }
)
