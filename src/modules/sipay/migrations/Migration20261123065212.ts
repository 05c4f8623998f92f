import { Migration } from "@medusajs/framework/mikro-orm/migrations";

export class Migration20261123065212 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table if exists "sipay_ledger_sale" drop constraint if exists "sipay_ledger_sale_sale_id_unique";`);
    this.addSql(`alter table if exists "sipay_ledger_day" drop constraint if exists "sipay_ledger_day_day_unique";`);
    this.addSql(`alter table if exists "sipay_chargeback" drop constraint if exists "sipay_chargeback_sale_id_unique";`);
    this.addSql(`create table if not exists "sipay_chargeback" ("id" text not null, "sale_id" text not null, "invoice_id" text not null, "order_id" text null, "payment_id" text null, "amount" numeric not null, "currency_code" text not null, "detected_at" timestamptz not null, "raw_amount" jsonb not null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, constraint "sipay_chargeback_pkey" primary key ("id"));`);
    this.addSql(`CREATE UNIQUE INDEX IF NOT EXISTS "IDX_sipay_chargeback_sale_id_unique" ON "sipay_chargeback" ("sale_id") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_sipay_chargeback_invoice_id" ON "sipay_chargeback" ("invoice_id") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_sipay_chargeback_deleted_at" ON "sipay_chargeback" ("deleted_at") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_sipay_chargeback_order_id" ON "sipay_chargeback" ("order_id") WHERE deleted_at IS NULL;`);

    this.addSql(`create table if not exists "sipay_ledger_day" ("id" text not null, "day" text not null, "sale_count" integer not null default 0, "last_synced_at" timestamptz null, "last_duration_ms" integer null, "last_error" text null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, constraint "sipay_ledger_day_pkey" primary key ("id"));`);
    this.addSql(`CREATE UNIQUE INDEX IF NOT EXISTS "IDX_sipay_ledger_day_day_unique" ON "sipay_ledger_day" ("day") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_sipay_ledger_day_deleted_at" ON "sipay_ledger_day" ("deleted_at") WHERE deleted_at IS NULL;`);

    this.addSql(`create table if not exists "sipay_ledger_sale" ("id" text not null, "sale_id" text not null, "day" text not null, "sale_created_at" timestamptz not null, "invoice_id" text not null, "gateway_order_id" text null, "transaction_state_id" integer not null, "transaction_state_label" text not null, "currency_code" text not null, "currency_id" integer not null, "payment_type_id" integer not null, "gross" numeric not null, "net" numeric not null, "merchant_commission" numeric not null, "total_refunded_amount" numeric not null, "installment" integer not null, "dpl_id" integer null, "recurring_id" integer null, "credit_card_no" text null, "record" jsonb not null, "synced_at" timestamptz not null, "raw_gross" jsonb not null, "raw_net" jsonb not null, "raw_merchant_commission" jsonb not null, "raw_total_refunded_amount" jsonb not null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, constraint "sipay_ledger_sale_pkey" primary key ("id"));`);
    this.addSql(`CREATE UNIQUE INDEX IF NOT EXISTS "IDX_sipay_ledger_sale_sale_id_unique" ON "sipay_ledger_sale" ("sale_id") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_sipay_ledger_sale_invoice_id" ON "sipay_ledger_sale" ("invoice_id") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_sipay_ledger_sale_deleted_at" ON "sipay_ledger_sale" ("deleted_at") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_sipay_ledger_sale_day_sale_created_at" ON "sipay_ledger_sale" ("day", "sale_created_at") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_sipay_ledger_sale_day_transaction_state_id" ON "sipay_ledger_sale" ("day", "transaction_state_id") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_sipay_ledger_sale_dpl_id" ON "sipay_ledger_sale" ("dpl_id") WHERE deleted_at IS NULL;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "sipay_chargeback" cascade;`);

    this.addSql(`drop table if exists "sipay_ledger_day" cascade;`);

    this.addSql(`drop table if exists "sipay_ledger_sale" cascade;`);
  }

}
