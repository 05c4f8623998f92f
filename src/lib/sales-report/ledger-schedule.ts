import { istanbulDate } from "../sipay/calendar"

/** Which days the ledger job pulls, and the `ledger` option's defaults and caps. Pure. */

const DAY_MS = 24 * 3600 * 1000

/** Defaults and caps of the `ledger` option (docs/admin.md "Sales ledger"). */
export const LEDGER_DEFAULTS = { windowDays: 45, olderDaysPerRun: 7, olderDayEveryHours: 24 }
export const LEDGER_CAPS = { windowDays: 180, olderDaysPerRun: 31 }

export type LedgerOptions = { windowDays?: number; olderDaysPerRun?: number }

export function resolveLedgerOptions(options: LedgerOptions | undefined): { windowDays: number; olderDaysPerRun: number } {
  const clamp = (value: unknown, fallback: number, max: number) =>
    Number.isInteger(value) && (value as number) >= 0 ? Math.min(value as number, max) : fallback
  return {
    windowDays: clamp(options?.windowDays, LEDGER_DEFAULTS.windowDays, LEDGER_CAPS.windowDays),
    olderDaysPerRun: clamp(options?.olderDaysPerRun, LEDGER_DEFAULTS.olderDaysPerRun, LEDGER_CAPS.olderDaysPerRun),
  }
}

/**
 * The days a scheduled run pulls: today always (sales still arrive), and days of the window (which
 * can still change: refunds, captures, chargebacks) not synced in the last 24 hours, least recently
 * synced first, at most olderDaysPerRun of them.
 */
export function daysDue(now: Date, synced: Map<string, { last_synced_at: string | null }>, options: { windowDays: number; olderDaysPerRun: number }): string[] {
  const today = istanbulDate(now)
  const older: { day: string; at: number }[] = []
  for (let back = 1; back <= options.windowDays; back++) {
    const day = istanbulDate(new Date(now.getTime() - back * DAY_MS))
    const at = synced.get(day)?.last_synced_at
    const time = at ? new Date(at).getTime() : 0
    if (now.getTime() - time >= LEDGER_DEFAULTS.olderDayEveryHours * 3600 * 1000) older.push({ day, at: time })
  }
  older.sort((a, b) => a.at - b.at || (a.day < b.day ? 1 : -1))
  return [today, ...older.slice(0, options.olderDaysPerRun).map((entry) => entry.day)]
}

/** The days of the window, newest first (today included). */
export function windowDays(now: Date, windowLength: number): string[] {
  return Array.from({ length: windowLength + 1 }, (_, back) => istanbulDate(new Date(now.getTime() - back * DAY_MS)))
}

