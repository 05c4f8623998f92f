import { model } from "@medusajs/framework/utils"

/** When each gateway day was last synced into the ledger, and how that went. */
export const LedgerDay = model.define("sipay_ledger_day", {
  id: model.id({ prefix: "slday" }).primaryKey(),
  day: model.text().unique(),
  sale_count: model.number().default(0),
  last_synced_at: model.dateTime().nullable(),
  last_duration_ms: model.number().nullable(),
  last_error: model.text().nullable(),
  /** Count and sums per currency of the day's sales, recomputed after each sync: the unfiltered Sales page reads them instead of scanning the day. */
  totals: model.json().nullable(),
  /**
   * The same sums per amount range as well (ranges of about 1/50 of the day's sales, a range never
   * splitting one amount), recomputed with them: amount filters add up whole ranges from here.
   */
  amount_buckets: model.json().nullable(),
})
