/**
 * Seconds the attempt workflows wait for (timeout) and hold at most (ttl) their lock in Medusa's
 * locking module. A lock held by a process that died is freed by its ttl (locking-redis) or with the
 * process (in-memory), so a short ttl lets a survivor settle sooner, while the ttl must stay above
 * the longest settle (gateway time-outs included). Read once at load, from the environment, since a
 * workflow's definition cannot read the plugin's options; README "Running several instances".
 */
export type LockTiming = { timeout: number; ttl: number }

function seconds(value: string | undefined, fallback: number): number {
  const parsed = Number(value)
  return value !== undefined && value !== "" && Number.isFinite(parsed) && parsed > 0 ? parsed : fallback
}

export function attemptLockTimings(env: NodeJS.ProcessEnv = process.env): { settle: LockTiming; start: LockTiming } {
  return {
    settle: { timeout: seconds(env.SIPAY_SETTLE_LOCK_TIMEOUT_SECONDS, 30), ttl: seconds(env.SIPAY_SETTLE_LOCK_TTL_SECONDS, 120) },
    start: { timeout: seconds(env.SIPAY_START_LOCK_TIMEOUT_SECONDS, 15), ttl: seconds(env.SIPAY_START_LOCK_TTL_SECONDS, 60) },
  }
}

export const ATTEMPT_LOCKS = attemptLockTimings()
