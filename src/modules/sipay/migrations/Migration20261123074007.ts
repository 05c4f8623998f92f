import { Migration } from "@medusajs/framework/mikro-orm/migrations";

export class Migration20261123074007 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table if exists "sipay_ledger_day" add column if not exists "totals" jsonb null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table if exists "sipay_ledger_day" drop column if exists "totals";`);
  }

}
