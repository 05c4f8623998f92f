/** The sandbox clock: real time plus an offset that the test controls advance. */
export class SandboxClock {
  constructor(private offsetMs = 0) {}

  now(): number {
    return Date.now() + this.offsetMs
  }

  advance(seconds: number): void {
    this.offsetMs += Math.round(seconds * 1000)
  }

  get offset(): number {
    return this.offsetMs
  }

  set offset(ms: number) {
    this.offsetMs = ms
  }
}

export const ISTANBUL_OFFSET_MS = 3 * 3600 * 1000

/** 'YYYY-MM-DD HH:MM:SS' in Europe/Istanbul (UTC+3, no daylight saving since 2016). */
export function formatIstanbul(ms: number): string {
  return new Date(ms + ISTANBUL_OFFSET_MS).toISOString().slice(0, 19).replace("T", " ")
}

/** ISO 8601 with microseconds and 'Z', as the interface's created_at. */
export function formatIsoMicro(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, ".$1000Z")
}

/** The Istanbul calendar month (1-12) and year of an instant, for card expiry. */
export function istanbulYearMonth(ms: number): { year: number; month: number } {
  const date = new Date(ms + ISTANBUL_OFFSET_MS)
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1 }
}

/** A calendar date 'YYYY-MM-DD' that exists. */
export function isCalendarDate(text: string): boolean {
  const time = /^\d{4}-\d{2}-\d{2}$/.test(text) ? Date.parse(`${text}T00:00:00Z`) : NaN
  return !Number.isNaN(time) && new Date(time).toISOString().slice(0, 10) === text
}
