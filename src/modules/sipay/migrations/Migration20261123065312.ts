import { Migration } from "@medusajs/framework/mikro-orm/migrations";

export class Migration20261123065312 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table if exists "sipay_ledger_sale" add column if not exists "acted_on" text null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table if exists "sipay_ledger_sale" drop column if exists "acted_on";`);
  }

}
