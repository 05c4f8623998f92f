import { istanbulDate } from "../sipay/payment-links"

/** Link expiry as the gateway reads it: expire_date at expire_hour:00 Istanbul time (UTC+3, no DST), else 23:59:59. Pure. */

const ISTANBUL_OFFSET_MS = 3 * 3600_000
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/

/** An existing calendar day 'YYYY-MM-DD', or false. */
export function isCalendarDate(text: string): boolean {
  const match = DATE.exec(text)
  if (!match) {
    return false
  }
  const [, year, month, day] = match.map(Number)
  const date = new Date(Date.UTC(year, month - 1, day))
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
}

/** The moment a link expires. */
export function expiryMoment(expireDate: string, expireHour?: number | null): Date {
  const [year, month, day] = expireDate.split("-").map(Number)
  const local = expireHour === undefined || expireHour === null
    ? Date.UTC(year, month - 1, day, 23, 59, 59)
    : Date.UTC(year, month - 1, day, expireHour, 0, 0)
  return new Date(local - ISTANBUL_OFFSET_MS)
}

/** The moment of a record's expire_date ('YYYY-MM-DD HH:MM:SS', Istanbul), or null when unreadable. */
export function recordExpiryMoment(expireDate: string | null | undefined): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})/.exec(String(expireDate ?? ""))
  if (!match) {
    return null
  }
  const [, year, month, day, hour, minute, second] = match.map(Number)
  return new Date(Date.UTC(year, month - 1, day, hour, minute, second) - ISTANBUL_OFFSET_MS)
}

/** Every Istanbul calendar day from `from` to `to`, both included (empty when to is before from). */
export function istanbulDaysBetween(from: Date, to: Date, limit = 400): string[] {
  const days: string[] = []
  let cursor = Date.parse(`${istanbulDate(from)}T00:00:00Z`)
  const last = Date.parse(`${istanbulDate(to)}T00:00:00Z`)
  while (cursor <= last && days.length < limit) {
    days.push(new Date(cursor).toISOString().slice(0, 10))
    cursor += 86400_000
  }
  return days
}
