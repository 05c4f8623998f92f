import { Migration } from "@medusajs/framework/mikro-orm/migrations";

export class Migration20261122020639 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table if exists "sipay_recurring_charge" drop constraint if exists "sipay_recurring_charge_plan_code_recurring_number_unique";`);
    this.addSql(`create table if not exists "sipay_recurring_charge" ("id" text not null, "plan_code" text not null, "recurring_number" integer not null, "invoice_id" text not null, "gateway_order_id" text null, "amount" numeric not null, "currency_code" text null, "status" text not null, "attempts" integer null, "action_date" text null, "order_id" text null, "raw_amount" jsonb not null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, constraint "sipay_recurring_charge_pkey" primary key ("id"));`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_sipay_recurring_charge_invoice_id" ON "sipay_recurring_charge" ("invoice_id") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_sipay_recurring_charge_deleted_at" ON "sipay_recurring_charge" ("deleted_at") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE UNIQUE INDEX IF NOT EXISTS "IDX_sipay_recurring_charge_plan_code_recurring_number_unique" ON "sipay_recurring_charge" ("plan_code", "recurring_number") WHERE deleted_at IS NULL;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "sipay_recurring_charge" cascade;`);
  }

}
