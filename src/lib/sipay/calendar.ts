/** The calendar day in Istanbul (UTC+3, no DST), which is the gateway's clock: it dates sales and link expiries by it. */
export function istanbulDate(date: Date): string {
  return new Date(date.getTime() + 3 * 3600_000).toISOString().slice(0, 10)
}
