import { Migration } from "@medusajs/framework/mikro-orm/migrations";

export class Migration20261123075552 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table if exists "sipay_recurring_plan" drop constraint if exists "sipay_recurring_plan_invoice_id_unique";`);
    this.addSql(`alter table if exists "sipay_recurring_plan" drop constraint if exists "sipay_recurring_plan_plan_code_unique";`);
    this.addSql(`create table if not exists "sipay_recurring_plan" ("id" text not null, "plan_code" text not null, "invoice_id" text not null, "order_id" text null, "customer_id" text null, "email" text null, "amount" numeric not null, "currency_code" text not null, "cycle" text not null, "interval" integer not null, "payment_number" integer not null, "charges_made" integer not null default 1, "status" text not null default 'Active', "next_action_date" text null, "refreshed_at" timestamptz null, "history" jsonb null, "raw_amount" jsonb not null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, constraint "sipay_recurring_plan_pkey" primary key ("id"));`);
    this.addSql(`CREATE UNIQUE INDEX IF NOT EXISTS "IDX_sipay_recurring_plan_plan_code_unique" ON "sipay_recurring_plan" ("plan_code") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE UNIQUE INDEX IF NOT EXISTS "IDX_sipay_recurring_plan_invoice_id_unique" ON "sipay_recurring_plan" ("invoice_id") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_sipay_recurring_plan_order_id" ON "sipay_recurring_plan" ("order_id") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_sipay_recurring_plan_customer_id" ON "sipay_recurring_plan" ("customer_id") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_sipay_recurring_plan_deleted_at" ON "sipay_recurring_plan" ("deleted_at") WHERE deleted_at IS NULL;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "sipay_recurring_plan" cascade;`);
  }

}
