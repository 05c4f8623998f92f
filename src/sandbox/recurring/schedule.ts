import { ISTANBUL_OFFSET_MS } from "../core/clock"
import type { RecurringPlan, RecurringRequest } from "../types"

const DAY_MS = 24 * 3600 * 1000

/**
 * anchor + count × cycle on the Istanbul calendar, at the same time of day. A month or year step
 * that lands past a month's end is clamped to its last day (Jan 31 + 1 M = Feb 28/29).
 */
export function addCycles(anchorMs: number, cycle: RecurringRequest["cycle"], count: number): number {
  if (cycle === "D") return anchorMs + count * DAY_MS
  const local = new Date(anchorMs + ISTANBUL_OFFSET_MS)
  const months = cycle === "M" ? count : count * 12
  const year = local.getUTCFullYear() + Math.floor((local.getUTCMonth() + months) / 12)
  const month = (local.getUTCMonth() + months) % 12
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate()
  const day = Math.min(local.getUTCDate(), lastDay)
  const timeOfDay = local.getTime() % DAY_MS
  return Date.UTC(year, month, day) + timeOfDay - ISTANBUL_OFFSET_MS
}

/** When charge `number` (1 = the first payment) of a plan is due. */
export function chargeDueAt(plan: RecurringPlan, number: number): number {
  return addCycles(plan.anchor_ms, plan.cycle, (number - 1) * plan.interval)
}

/** The next charge's due time, or null when the plan makes no more charges. */
export function nextChargeAt(plan: RecurringPlan): number | null {
  if (plan.status !== "Active" || plan.charges.length >= plan.payment_number) return null
  return chargeDueAt(plan, plan.charges.length + 1)
}
