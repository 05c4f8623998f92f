import { isCalendarDate } from "../payment-links/expiry"
import { gatewayDay } from "../sales-report/calendar"

/** Why `day` cannot be audited (not YYYY-MM-DD, no such day, after today in Istanbul), or null. */
export function auditDayProblem(day: unknown, now: Date = new Date()): string | null {
  if (typeof day !== "string" || !/^\d{4}-\d{2}-\d{2}$/.test(day)) return "the day must be written YYYY-MM-DD"
  if (!isCalendarDate(day)) return `${day} is not a calendar day`
  const today = gatewayDay(now)
  if (day > today) return `${day} is after today in Istanbul (${today}): the gateway has no sales for it yet`
  return null
}
