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

/** Tries of one charge: a declined charge is tried again a day after each try, at most this many times in all. */
export const CHARGE_TRIES = 3

/** A declined charge still to be tried again. */
export function retryDue(plan: RecurringPlan): RecurringPlan["charges"][number] | null {
  const last = plan.charges.at(-1)
  return last && last.status === "Failed" && last.attempts < CHARGE_TRIES ? last : null
}

/** The next try's due time (a retry, else the next charge), or null when the plan makes no more charges. */
export function nextChargeAt(plan: RecurringPlan): number | null {
  if (plan.status !== "Active") return null
  const retry = retryDue(plan)
  if (retry) return chargeDueAt(plan, retry.recurring_number) + retry.attempts * DAY_MS
  if (plan.charges.length >= plan.payment_number) return null
  return chargeDueAt(plan, plan.charges.length + 1)
}
