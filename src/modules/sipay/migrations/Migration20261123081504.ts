import { Migration } from "@medusajs/framework/mikro-orm/migrations";

export class Migration20261123081504 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table if exists "sipay_order_payment_link" drop constraint if exists "sipay_order_payment_link_dpl_id_unique";`);
    this.addSql(`alter table if exists "sipay_order_payment_link" drop constraint if exists "sipay_order_payment_link_payment_link_id_unique";`);
    this.addSql(`create table if not exists "sipay_order_payment_link" ("id" text not null, "order_id" text not null, "payment_link_id" text not null, "dpl_id" integer not null, "amount" numeric not null, "currency_code" text not null, "email" text not null, "email_outcome" text not null, "email_error" text null, "raw_amount" jsonb not null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, constraint "sipay_order_payment_link_pkey" primary key ("id"));`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_sipay_order_payment_link_order_id" ON "sipay_order_payment_link" ("order_id") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE UNIQUE INDEX IF NOT EXISTS "IDX_sipay_order_payment_link_payment_link_id_unique" ON "sipay_order_payment_link" ("payment_link_id") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE UNIQUE INDEX IF NOT EXISTS "IDX_sipay_order_payment_link_dpl_id_unique" ON "sipay_order_payment_link" ("dpl_id") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_sipay_order_payment_link_deleted_at" ON "sipay_order_payment_link" ("deleted_at") WHERE deleted_at IS NULL;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "sipay_order_payment_link" cascade;`);
  }

}
