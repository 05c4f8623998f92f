import { rowsOf, type SharedStateDatabase } from "../shared-state/database"
import type { ConfigurationCause } from "../sipay/configuration-refusal"

/** One row per cause: when it was last seen and last alerted (a hand-written migration of the plugin's module). */
export const CONFIG_ALERT_TABLE_SQL = [
  `create table if not exists "sipay_config_alert" ("cause" text not null, "alerted_at" timestamptz not null, "seen_at" timestamptz not null, "seen_count" integer not null default 1, "detail" text null, constraint "sipay_config_alert_pkey" primary key ("cause"));`,
]
export const DROP_CONFIG_ALERT_TABLE_SQL = [`drop table if exists "sipay_config_alert";`]

/** At most one alert per cause per this many seconds, whichever instance sees it. */
export const ALERT_EVERY_SECONDS = 3600

/**
 * Records that `cause` was seen and answers whether this caller is the one to alert: one atomic upsert,
 * so across every instance of a cluster at most one caller per cause per hour gets true.
 */
export async function claimAlert(db: SharedStateDatabase, cause: ConfigurationCause, detail: string): Promise<boolean> {
  const answer = await db.raw(
    `insert into "sipay_config_alert" as a ("cause", "alerted_at", "seen_at", "seen_count", "detail") values (?, now(), now(), 1, ?)
     on conflict ("cause") do update set
       "seen_at" = now(), "seen_count" = a."seen_count" + 1, "detail" = excluded."detail",
       "alerted_at" = case when a."alerted_at" <= now() - make_interval(secs => ?) then now() else a."alerted_at" end
     returning ("alerted_at" = now()) as "alert"`,
    [cause, detail, ALERT_EVERY_SECONDS]
  )
  return Boolean(rowsOf<{ alert: boolean }>(answer)[0]?.alert)
}

/** Gives the claim back when the alert could not be sent, so the next sighting alerts. */
export async function releaseAlert(db: SharedStateDatabase, cause: ConfigurationCause): Promise<void> {
  await db.raw(`update "sipay_config_alert" set "alerted_at" = to_timestamp(0) where "cause" = ?`, [cause])
}

export type ConfigurationSighting = { cause: ConfigurationCause; seen_at: Date; alerted_at: Date; seen_count: number; detail: string | null }

/** The causes seen in the last `days` days, newest first (the settings page lists them). */
export async function recentSightings(db: SharedStateDatabase, days = 7): Promise<ConfigurationSighting[]> {
  const answer = await db.raw(
    `select "cause", "seen_at", "alerted_at", "seen_count", "detail" from "sipay_config_alert" where "seen_at" > now() - make_interval(days => ?) order by "seen_at" desc`,
    [days]
  )
  return rowsOf<ConfigurationSighting>(answer)
}
