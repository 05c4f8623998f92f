import { Migration } from "@medusajs/framework/mikro-orm/migrations";

// Written by hand: a phone order link's settlement record (who paid the order, which sales were given back and why).
export class Migration20261123110325 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table if exists "sipay_order_payment_link" add column if not exists "settled_invoice_id" text null, add column if not exists "payment_id" text null, add column if not exists "settled_at" timestamptz null, add column if not exists "converted_draft" boolean not null default false, add column if not exists "settle_error" text null, add column if not exists "handled_invoice_ids" text[] not null default '{}', add column if not exists "refused_sales" jsonb not null default '[]';`);
    this.addSql(`CREATE UNIQUE INDEX IF NOT EXISTS "IDX_sipay_order_payment_link_settled_invoice_id_unique" ON "sipay_order_payment_link" ("settled_invoice_id") WHERE deleted_at IS NULL;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "IDX_sipay_order_payment_link_settled_invoice_id_unique";`);
    this.addSql(`alter table if exists "sipay_order_payment_link" drop column if exists "settled_invoice_id", drop column if exists "payment_id", drop column if exists "settled_at", drop column if exists "converted_draft", drop column if exists "settle_error", drop column if exists "handled_invoice_ids", drop column if exists "refused_sales";`);
  }

}
