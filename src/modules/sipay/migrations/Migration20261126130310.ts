import { Migration } from "@medusajs/framework/mikro-orm/migrations";

/** What a charged-back sale was to Medusa (sale_kind): a chargeback is recorded on the order its sale paid, or on none. */
export class Migration20261126130310 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table if exists "sipay_chargeback" add column if not exists "sale_kind" text not null default 'payment';`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table if exists "sipay_chargeback" drop column if exists "sale_kind";`);
  }

}
