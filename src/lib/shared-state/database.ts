import type { AdvisoryLockDatabase } from "./advisory-lock"

/**
 * What the shared state needs from the store's PostgreSQL: raw SQL and transactions, as the Knex
 * instance Medusa registers as PG_CONNECTION offers (every container can resolve it, the isolated
 * payment module's included).
 */
export type SharedStateDatabase = AdvisoryLockDatabase & {
  raw(sql: string, bindings?: readonly unknown[]): Promise<unknown>
}

/** A database resolved at first use (a container's PG_CONNECTION), or undefined where there is none. */
export type DatabaseSource = () => SharedStateDatabase | undefined

export function rowsOf<T>(answer: unknown): T[] {
  return ((answer as { rows?: T[] })?.rows ?? []) as T[]
}

/** The tables the shared state reaches by raw SQL (created by the module's hand-written migration). */
export const SHARED_STATE_TABLES_SQL = [
  `create table if not exists "sipay_shared_token" ("key" text not null, "sealed" text not null, "expires_at" timestamptz not null, "updated_at" timestamptz not null default now(), constraint "sipay_shared_token_pkey" primary key ("key"));`,
  `create table if not exists "sipay_rate_limit" ("key" text not null, "window_start_ms" bigint not null, "window_ms" bigint not null, "count" integer not null, constraint "sipay_rate_limit_pkey" primary key ("key"));`,
  `create index if not exists "IDX_sipay_rate_limit_window_end" on "sipay_rate_limit" (("window_start_ms" + "window_ms"));`,
]

/** The per-address limits' attempt log (a later migration: stores that ran the one above get it too). */
export const ATTEMPT_LOG_TABLE_SQL = [
  `create table if not exists "sipay_rate_limit_attempt" ("entry_id" text not null, "key" text not null, "started_ms" bigint not null, "invoice_id" text null, "ended_unpaid" boolean not null default false, constraint "sipay_rate_limit_attempt_pkey" primary key ("entry_id"));`,
  `create index if not exists "IDX_sipay_rate_limit_attempt_key_started" on "sipay_rate_limit_attempt" ("key", "started_ms");`,
  `create index if not exists "IDX_sipay_rate_limit_attempt_started" on "sipay_rate_limit_attempt" ("started_ms");`,
]

export const DROP_ATTEMPT_LOG_TABLE_SQL = [`drop table if exists "sipay_rate_limit_attempt";`]

export const DROP_SHARED_STATE_TABLES_SQL = [`drop table if exists "sipay_shared_token";`, `drop table if exists "sipay_rate_limit";`]
