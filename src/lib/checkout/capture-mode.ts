import type { SipayClient, TransactionStatus } from "../sipay"
import { AdvisoryLockDatabase, withAdvisoryLock } from "../shared-state/advisory-lock"
import { classifyTransaction } from "../sipay/outcome"

/** The store's PostgreSQL (Medusa's PG_CONNECTION, a Knex instance): the capture lock lives there. */
export type LockDatabase = AdvisoryLockDatabase

export type IntendedTransactionType = "Auth" | "PreAuth" | null | undefined

export type CaptureModeResult = {
  /** The gateway's record after enforcement (captured, released, or as it was). */
  transaction: TransactionStatus
  /** What enforcement did. */
  action: "none" | "captured" | "released" | "charged_at_once"
  /** Why the payment was released, for the attempt's record and the shopper. */
  error?: string
}

/** How long a settle path waits for another one capturing the same invoice. */
const CAPTURE_LOCK_MS = 30000

export const RELEASED_MESSAGE = "The store takes payment at once, but the card was only reserved and the reservation could not be captured: it was released"
export const CHARGED_AT_ONCE_NOTE = "charged at once although the store pre-authorizes"

/** The lock every settle path (return, webhook, reconciliation, authorizePayment) takes before capturing an invoice. */
export function captureLockKey(invoiceId: string): string {
  return `sipay:capture-mode:${invoiceId}`
}

function totalOf(transaction: TransactionStatus): string {
  return String(transaction.productPrice ?? transaction.transactionAmount ?? "0")
}

/**
 * The capture mode is the store's, not the shopper's: `transaction_type` is not covered by the
 * form's hash, so the gateway's record is compared with what the attempt intended.
 * - intended Auth, gateway holds a Pre-Authorization: captured at once, in full, under a lock every
 *   process shares, re-checked after the lock is taken, so however many settle paths race there is
 *   exactly one confirmPayment; when the capture fails the reservation is cancelled (released).
 * - intended PreAuth, gateway took the money at once (Auth): nothing is lost; reported so the
 *   attempt is marked.
 */
export async function enforceCaptureMode(input: {
  client: SipayClient
  db: LockDatabase
  invoiceId: string
  intended: IntendedTransactionType
  transaction: TransactionStatus
}): Promise<CaptureModeResult> {
  const { client, invoiceId, transaction } = input
  const outcome = classifyTransaction(transaction)
  if (input.intended === "PreAuth" && outcome === "captured" && transaction.transactionType !== "Pre-Authorization") {
    return { transaction, action: "charged_at_once" }
  }
  if (input.intended !== "Auth" || outcome !== "authorized") {
    return { transaction, action: "none" }
  }
  return withAdvisoryLock(
    input.db,
    captureLockKey(invoiceId),
    async () => {
      const fresh = await client.checkStatus(invoiceId)
      if (classifyTransaction(fresh) !== "authorized") {
        // Another settle path captured or released it while this one waited for the lock.
        return { transaction: fresh, action: "none" as const }
      }
      try {
        await client.confirmPayment(invoiceId, "complete", totalOf(fresh))
      } catch {
        // A lost answer may still have captured it: the gateway's record decides.
        const after = await client.checkStatus(invoiceId)
        if (classifyTransaction(after) === "captured") {
          return { transaction: after, action: "captured" as const }
        }
        try {
          await client.confirmPayment(invoiceId, "cancel", totalOf(fresh))
        } catch {
          // Checked below: a reservation left open is reported by the pre-authorization job.
        }
        const released = await client.checkStatus(invoiceId)
        return { transaction: released, action: "released" as const, error: RELEASED_MESSAGE }
      }
      const captured = await client.checkStatus(invoiceId)
      return { transaction: captured, action: "captured" as const }
    },
    { timeoutMs: CAPTURE_LOCK_MS }
  )
}
