import { Modules } from "@medusajs/framework/utils"

/**
 * Seconds the attempt workflows wait for (timeout) and hold at most (ttl) their lock in Medusa's
 * locking module. A lock held by a process that died is freed by its ttl (locking-redis) or with the
 * process (in-memory), so a short ttl lets a survivor settle sooner. Medusa's Redis locking renews a
 * held lease every third of its ttl while the job runs, so a settle longer than the ttl keeps its lock:
 * the settle's ttl (15 s) only bounds how long a killed settle holds its invoice. Read once at load, from the environment, since a
 * workflow's definition cannot read the plugin's options; docs/cluster.md.
 */
export type LockTiming = { timeout: number; ttl: number }

function seconds(value: string | undefined, fallback: number): number {
  const parsed = Number(value)
  return value !== undefined && value !== "" && Number.isFinite(parsed) && parsed > 0 ? parsed : fallback
}

export function attemptLockTimings(env: NodeJS.ProcessEnv = process.env): { settle: LockTiming; start: LockTiming } {
  return {
    settle: { timeout: seconds(env.SIPAY_SETTLE_LOCK_TIMEOUT_SECONDS, 30), ttl: seconds(env.SIPAY_SETTLE_LOCK_TTL_SECONDS, 15) },
    start: { timeout: seconds(env.SIPAY_START_LOCK_TIMEOUT_SECONDS, 15), ttl: seconds(env.SIPAY_START_LOCK_TTL_SECONDS, 60) },
  }
}

export const ATTEMPT_LOCKS = attemptLockTimings()

type Locking = { execute<T>(keys: string, job: () => Promise<T>, args?: { timeout?: number; expire?: number }): Promise<T> }

/**
 * Runs `job` holding `key` in Medusa's locking module (waiting at most timing.timeout, the lease
 * timing.ttl), inside the step that needs it: lock and unlock as steps of their own would cost two
 * workflow checkpoints per attempt.
 */
export function underLock<T>(container: { resolve<L>(key: string): L }, key: string, timing: LockTiming, job: () => Promise<T>): Promise<T> {
  return container.resolve<Locking>(Modules.LOCKING).execute(key, job, { timeout: timing.timeout, expire: timing.ttl })
}

/**
 * Runs `job` holding the lock Medusa's cart workflows take (the cart's id: complete-cart holds it
 * while it authorizes the cart's payment session). A write to a cart's payment session data reads
 * the session and writes it back whole (Medusa's updatePaymentSession): under this lock it can
 * never land between complete-cart's authorization and its order, where it would set an authorized
 * session back to pending and leave the order impossible to place. Never held around a Medusa
 * cart workflow (it would wait for itself).
 */
export function underCartLock<T>(container: { resolve<L>(key: string): L }, cartId: string, job: () => Promise<T>): Promise<T> {
  return underLock(container, cartId, ATTEMPT_LOCKS.start, job)
}
