import { Migration } from "@medusajs/framework/mikro-orm/migrations"

/** Settings -> Sipay: the installment fee per count (absorb, gateway rate, own rate) and the fee line's tax treatment. */
export class Migration20261201100000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table if exists "sipay_checkout_setting" add column if not exists "installment_fees" jsonb null, add column if not exists "installment_fee_tax" text null;`)
  }

  override async down(): Promise<void> {
    this.addSql(`alter table if exists "sipay_checkout_setting" drop column if exists "installment_fees", drop column if exists "installment_fee_tax";`)
  }
}
