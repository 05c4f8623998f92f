import { Migration } from "@medusajs/framework/mikro-orm/migrations";

export class Migration20261122015135 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table if exists "sipay_payment_attempt" drop constraint if exists "sipay_payment_attempt_invoice_id_unique";`);
    this.addSql(`create table if not exists "sipay_payment_attempt" ("id" text not null, "invoice_id" text not null, "session_id" text not null, "cart_id" text null, "attempt_number" integer not null, "flow" text not null, "amount" numeric not null, "currency_code" text not null, "transaction_type" text check ("transaction_type" in ('Auth', 'PreAuth')) not null, "installments" integer not null default 1, "items" jsonb not null, "status" text check ("status" in ('pending', 'paid', 'authorized', 'failed', 'cancelled', 'reversed')) not null default 'pending', "gateway_order_no" text null, "masked_card" text null, "error_code" text null, "error_message" text null, "order_id" text null, "completed_at" timestamptz null, "metadata" jsonb null, "raw_amount" jsonb not null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, constraint "sipay_payment_attempt_pkey" primary key ("id"));`);
    this.addSql(`CREATE UNIQUE INDEX IF NOT EXISTS "IDX_sipay_payment_attempt_invoice_id_unique" ON "sipay_payment_attempt" ("invoice_id") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_sipay_payment_attempt_session_id" ON "sipay_payment_attempt" ("session_id") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_sipay_payment_attempt_deleted_at" ON "sipay_payment_attempt" ("deleted_at") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_sipay_payment_attempt_status" ON "sipay_payment_attempt" ("status") WHERE deleted_at IS NULL;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "sipay_payment_attempt" cascade;`);
  }

}
