import { Migration } from "@medusajs/framework/mikro-orm/migrations";

export class Migration20261122021539 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table if exists "sipay_payment_link" drop constraint if exists "sipay_payment_link_dpl_id_unique";`);
    this.addSql(`create table if not exists "sipay_checkout_setting" ("id" text not null, "capture" boolean null, "three_d_enabled" boolean null, "direct_payment_enabled" boolean null, "sale_webhook_key" text null, "recurring_webhook_key" text null, "max_installments" integer null, "agricultural_installments" boolean null, "storefront_url" text null, "success_url" text null, "failure_url" text null, "description_template" text null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, constraint "sipay_checkout_setting_pkey" primary key ("id"));`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_sipay_checkout_setting_deleted_at" ON "sipay_checkout_setting" ("deleted_at") WHERE deleted_at IS NULL;`);

    this.addSql(`create table if not exists "sipay_payment_link" ("id" text not null, "dpl_id" integer not null, "amount" numeric not null, "currency" integer not null, "currency_code" text not null, "payment_method" jsonb null, "type" integer not null, "expire_date" text not null, "expire_time" integer null, "max_number_of_uses" integer not null default 0, "number_of_uses" integer not null default 0, "gsm" jsonb null, "email" jsonb null, "photo" jsonb null, "name_of_product" text not null, "description" text not null, "merchant_id" integer null, "created_by" integer null, "created_by_name" text null, "modified_by" jsonb null, "modified_by_name" jsonb null, "token" text not null, "status" text not null, "is_email_send" integer not null default 0, "distance_sale_status" integer null, "is_amount_set_by_user" integer not null, "gateway_created_at" text null, "gateway_updated_at" text null, "inputs" jsonb null, "link" text not null, "photo_filename" text null, "photo_content_type" text null, "photo_size" integer null, "synced_at" timestamptz null, "synced_from" text null, "raw_amount" jsonb not null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, constraint "sipay_payment_link_pkey" primary key ("id"));`);
    this.addSql(`CREATE UNIQUE INDEX IF NOT EXISTS "IDX_sipay_payment_link_dpl_id_unique" ON "sipay_payment_link" ("dpl_id") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_sipay_payment_link_deleted_at" ON "sipay_payment_link" ("deleted_at") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_sipay_payment_link_status" ON "sipay_payment_link" ("status") WHERE deleted_at IS NULL;`);

    this.addSql(`create table if not exists "sipay_payment_link_email" ("id" text not null, "recipients" jsonb not null, "sent_at" timestamptz not null, "outcome" text check ("outcome" in ('sent', 'failed')) not null, "error_code" text null, "error_message" text null, "payment_link_id" text not null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, constraint "sipay_payment_link_email_pkey" primary key ("id"));`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_sipay_payment_link_email_payment_link_id" ON "sipay_payment_link_email" ("payment_link_id") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_sipay_payment_link_email_deleted_at" ON "sipay_payment_link_email" ("deleted_at") WHERE deleted_at IS NULL;`);

    this.addSql(`alter table if exists "sipay_payment_link_email" add constraint "sipay_payment_link_email_payment_link_id_foreign" foreign key ("payment_link_id") references "sipay_payment_link" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table if exists "sipay_payment_link_email" drop constraint if exists "sipay_payment_link_email_payment_link_id_foreign";`);

    this.addSql(`drop table if exists "sipay_checkout_setting" cascade;`);

    this.addSql(`drop table if exists "sipay_payment_link" cascade;`);

    this.addSql(`drop table if exists "sipay_payment_link_email" cascade;`);
  }

}
