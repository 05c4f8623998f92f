// Not from ../options: the admin bundle imports this file, and options.ts reaches server-only modules.
import { PRE_AUTHORIZATION_DAYS } from "../pre-authorization-days"

const DAY_MS = 24 * 60 * 60 * 1000

/** When the gateway cancels a pre-authorization reserved at `reservedAt`, and whole days left (ceiling, 0 once past). */
export function preAuthorizationDeadline(reservedAt: Date, now: Date): { deadline: string; days_left: number } {
  const deadline = reservedAt.getTime() + PRE_AUTHORIZATION_DAYS * DAY_MS
  return { deadline: new Date(deadline).toISOString(), days_left: Math.max(0, Math.ceil((deadline - now.getTime()) / DAY_MS)) }
}
