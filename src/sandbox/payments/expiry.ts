import type { Gateway } from "../core/gateway"

/** The interface's completion window: a pre-authorization neither completed nor cancelled by then is cancelled. */
export const PRE_AUTHORIZATION_WINDOW_MS = 20 * 24 * 3600 * 1000

/** Sweeper: cancels reserved pre-authorizations older than 20 days (checkstatus: Failed, reason 'Expired'). */
export function expirePreAuthorizations(gateway: Gateway, now: number): boolean {
  let changed = false
  for (const sale of gateway.store.state.sales) {
    const preauth = sale.preauth
    if (sale.state !== "completed" || preauth?.state !== "reserved") continue
    const expiresAt = preauth.reserved_at_ms + PRE_AUTHORIZATION_WINDOW_MS
    if (now < expiresAt) continue
    Object.assign(preauth, { state: "expired", settled_at_ms: expiresAt })
    Object.assign(sale, { state: "failed", reason: "Expired", updated_at_ms: expiresAt })
    changed = true
  }
  return changed
}
