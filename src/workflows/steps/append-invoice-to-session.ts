import type { MedusaContainer } from "@medusajs/framework/types"
import { MedusaError, Modules } from "@medusajs/framework/utils"
import { underCartLock } from "../../lib/shared-state/lock-timings"

/** What adding an attempt's invoice id to its session changed: enough to take exactly that back. */
export type SessionInvoiceAdded = { sessionId: string; cartId: string; invoiceId: string }

export type SessionRow = { id: string; status: string; authorized_at?: Date | string | null; data?: Record<string, unknown> | null; amount: unknown; currency_code: string }

/** The session as it is now (read under the cart's lock): the one a write may start from. */
export async function currentSession(container: MedusaContainer, sessionId: string): Promise<SessionRow | undefined> {
  const [session] = await container.resolve(Modules.PAYMENT).listPaymentSessions({ id: sessionId }, { select: ["id", "status", "authorized_at", "data", "amount", "currency_code"] })
  return session as SessionRow | undefined
}

/** Still open to new attempts and to the plugin's writes: neither authorized by complete-cart nor past it. */
export const openSession = (session: SessionRow) => (session.status === "pending" || session.status === "requires_more") && !session.authorized_at

/**
 * Adds the attempt's invoice id to the session data, where the provider (which cannot read this
 * plugin's module) finds the attempts to check with the gateway, with the capture mode the store
 * intends (`intended_transaction_type`, set by the server only). Read and written under the cart's
 * lock (the one complete-cart holds while it authorizes the session): a session authorized
 * meanwhile (another tab's payment became the order) refuses the new attempt and is left as it is.
 */
export async function appendInvoiceToSession(
  container: MedusaContainer,
  target: { sessionId: string; cartId: string },
  invoiceId: string,
  intendedTransactionType: "Auth" | "PreAuth"
): Promise<SessionInvoiceAdded> {
  return underCartLock(container, target.cartId, async () => {
    const session = await currentSession(container, target.sessionId)
    if (!session || !openSession(session)) {
      throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `Payment session ${target.sessionId} is ${session?.authorized_at ? "authorized" : session?.status ?? "gone"}; no new payment can start`)
    }
    const previous = session.data ?? {}
    const invoiceIds = Array.isArray(previous.invoice_ids) ? (previous.invoice_ids as string[]) : []
    await writeSessionData(container, session, { ...previous, invoice_ids: [...invoiceIds.filter((id) => id !== invoiceId), invoiceId], intended_transaction_type: intendedTransactionType })
    return { sessionId: target.sessionId, cartId: target.cartId, invoiceId }
  })
}

/** Takes back exactly one added invoice id (a later part of starting the attempt failed), on an open session only; any other change to the session is kept. */
export async function removeInvoiceFromSession(container: MedusaContainer, added: SessionInvoiceAdded): Promise<void> {
  await underCartLock(container, added.cartId, async () => {
    const session = await currentSession(container, added.sessionId)
    const invoiceIds = Array.isArray(session?.data?.invoice_ids) ? (session!.data!.invoice_ids as string[]) : []
    if (!session || !openSession(session) || !invoiceIds.includes(added.invoiceId)) {
      return
    }
    await writeSessionData(container, session, { ...session.data, invoice_ids: invoiceIds.filter((id) => id !== added.invoiceId) })
  })
}

/** Writes a session's data (Medusa's updatePaymentSession), keeping the amount and currency it was read with. */
export function writeSessionData(container: MedusaContainer, session: SessionRow, data: Record<string, unknown>) {
  return container.resolve(Modules.PAYMENT).updatePaymentSession({ id: session.id, amount: session.amount as never, currency_code: session.currency_code, data })
}
