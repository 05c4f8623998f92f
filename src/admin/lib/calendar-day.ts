/**
 * A calendar day ("2026-11-23") as the Date DatePicker takes and gives: local midnight of that day,
 * so the picker shows the same day whatever the browser's timezone. Any year round-trips: while a
 * year is typed the picker reports years 2, 20 and 202 on the way to 2027.
 */
export function dateOfDay(day: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day)
  if (!match) return null
  const date = new Date(2000, 0, 1)
  // setFullYear, unlike the Date constructor, does not read years 0-99 as 1900-1999.
  date.setFullYear(Number(match[1]), Number(match[2]) - 1, Number(match[3]))
  return date
}

/** The day DatePicker's Date names, in the browser's calendar (the picker's own), as "YYYY-MM-DD". */
export function dayOfDate(date: Date | null | undefined): string {
  if (!date || Number.isNaN(date.getTime())) return ""
  const pad = (n: number, width = 2) => String(n).padStart(width, "0")
  return `${pad(date.getFullYear(), 4)}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`
}
