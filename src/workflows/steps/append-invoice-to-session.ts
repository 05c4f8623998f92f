import type { MedusaContainer } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"

export type SessionDataWrite = { id: string; data: Record<string, unknown>; amount: unknown; currency_code: string }

/**
 * Adds the attempt's invoice id to the session data, where the provider (which cannot read this
 * plugin's module) finds the attempts to check with the gateway, with the capture mode the store
 * intends (`intended_transaction_type`, set by the server only). `session` is the session as read
 * under the session's lock (every writer of these keys takes it). Answers the write that undoes it.
 */
export async function appendInvoiceToSession(
  container: MedusaContainer,
  session: SessionDataWrite,
  invoiceId: string,
  intendedTransactionType: "Auth" | "PreAuth"
): Promise<SessionDataWrite> {
  const previous = session.data
  const invoiceIds = Array.isArray(previous.invoice_ids) ? (previous.invoice_ids as string[]) : []
  await restoreSessionData(container, {
    ...session,
    data: {
      ...previous,
      invoice_ids: [...invoiceIds.filter((id) => id !== invoiceId), invoiceId],
      intended_transaction_type: intendedTransactionType,
    },
  })
  return session
}

export async function restoreSessionData(container: MedusaContainer, write: SessionDataWrite): Promise<void> {
  await container.resolve(Modules.PAYMENT).updatePaymentSession({ id: write.id, amount: write.amount as never, currency_code: write.currency_code, data: write.data })
}
