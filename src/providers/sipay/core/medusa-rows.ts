import { MedusaError } from "@medusajs/framework/utils"
import { toMinorUnits } from "../../../lib/sipay"

/**
 * Medusa's own rows the provider reads (it runs inside the payment module, whose tables these are):
 * the refund or capture Medusa created for the call, committed before the provider is called, its id
 * given as the idempotency key.
 */
export type MedusaDatabase = { raw(sql: string, bindings?: readonly unknown[]): Promise<any> }

/** The refund Medusa created for this call (its id is the idempotency key), and what the payment's other refunds add up to. */
export type RefundRow = { metadata: unknown; refundedBeforeMinor: bigint; refundedOthersMinor: bigint }

/**
 * Medusa creates (and commits) the refund row before it calls the provider, so the provider reads the
 * intent from it: a refund the ledger records carries the server's mark (lib/refunds/recorded-refund.ts).
 * A refund whose row cannot be read is refused, never sent on a guess.
 */
export async function readRefundRow(db: MedusaDatabase, refundId: string | undefined): Promise<RefundRow> {
  if (!refundId) {
    throw new MedusaError(MedusaError.Types.UNEXPECTED_STATE, "Sipay refund: Medusa gave no refund id; nothing was sent")
  }
  const result = await db.raw(
    `SELECT r.metadata,
       (SELECT coalesce(sum(o.amount), 0) FROM refund o WHERE o.payment_id = r.payment_id AND o.deleted_at IS NULL AND o.id <> r.id AND (o.created_at, o.id) < (r.created_at, r.id))::text AS refunded_before,
       (SELECT coalesce(sum(o.amount), 0) FROM refund o WHERE o.payment_id = r.payment_id AND o.deleted_at IS NULL AND o.id <> r.id)::text AS refunded_others
     FROM refund r WHERE r.id = ? AND r.deleted_at IS NULL`,
    [refundId]
  )
  const row = (Array.isArray(result) ? result : result?.rows ?? [])[0]
  if (!row) {
    throw new MedusaError(MedusaError.Types.UNEXPECTED_STATE, `Sipay refund: Medusa's refund ${refundId} cannot be read; nothing was sent`)
  }
  return { metadata: row.metadata, refundedBeforeMinor: toMinorUnits(row.refunded_before), refundedOthersMinor: toMinorUnits(row.refunded_others) }
}

/**
 * The amount of the capture Medusa created for this call (its id is the idempotency key), committed
 * before the provider is called: what the gateway must take, no more (Medusa's own route may capture
 * part of a reservation). A capture whose row cannot be read is refused, never made on a guess.
 */
export async function readCaptureAmount(db: MedusaDatabase, captureId: string | undefined): Promise<bigint> {
  const result = captureId ? await db.raw(`SELECT amount::text AS amount FROM capture WHERE id = ? AND deleted_at IS NULL`, [captureId]) : null
  const row = (Array.isArray(result) ? result : result?.rows ?? [])[0]
  if (!row) {
    throw new MedusaError(MedusaError.Types.UNEXPECTED_STATE, `Sipay capture: Medusa's capture ${captureId ?? "(no id)"} cannot be read; nothing was captured`)
  }
  return toMinorUnits(row.amount)
}

