/**
 * A calendar day ("2026-11-23") as the Date DatePicker takes and gives: local midnight of that day,
 * so the picker shows the same day whatever the browser's timezone.
 */
export function dateOfDay(day: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day)
  return match ? new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3])) : null
}

/** The day DatePicker's Date names, in the browser's calendar (the picker's own), as "YYYY-MM-DD". */
export function dayOfDate(date: Date | null | undefined): string {
  if (!date || Number.isNaN(date.getTime())) return ""
  const pad = (n: number) => String(n).padStart(2, "0")
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`
}
