import { Migration } from "@medusajs/framework/mikro-orm/migrations"

/**
 * The day's kept sums per amount range (LedgerStore.refreshDayTotals): the Sales page's amount filters
 * add up whole ranges from here and read only the rows of the one or two ranges a bound cuts through.
 * A column of its own, so the per-group sums (totals) stay small to read.
 */
export class Migration20261202090000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table if exists "sipay_ledger_day" add column if not exists "amount_buckets" jsonb null;`)
  }

  override async down(): Promise<void> {
    this.addSql(`alter table if exists "sipay_ledger_day" drop column if exists "amount_buckets";`)
  }
}
