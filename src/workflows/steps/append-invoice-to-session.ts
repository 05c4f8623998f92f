import { Modules } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"

/**
 * Adds the attempt's invoice id to the session data, where the provider (which cannot read this
 * plugin's module) finds the attempts to check with the gateway, with the capture mode the store
 * intends (`intended_transaction_type`, set by the server only).
 */
export const appendInvoiceToSessionStep = createStep(
  "sipay-append-invoice-to-session",
  async (input: { sessionId: string; invoiceId: string; intendedTransactionType: "Auth" | "PreAuth" }, { container }) => {
    const paymentModule = container.resolve(Modules.PAYMENT)
    const session = await paymentModule.retrievePaymentSession(input.sessionId, {
      select: ["id", "data", "amount", "currency_code"],
    })
    const previous = (session.data ?? {}) as Record<string, unknown>
    const invoiceIds = Array.isArray(previous.invoice_ids) ? (previous.invoice_ids as string[]) : []
    await paymentModule.updatePaymentSession({
      id: session.id,
      amount: session.amount,
      currency_code: session.currency_code,
      data: {
        ...previous,
        invoice_ids: [...invoiceIds.filter((id) => id !== input.invoiceId), input.invoiceId],
        intended_transaction_type: input.intendedTransactionType,
      },
    })
    return new StepResponse(undefined, { id: session.id, data: previous, amount: session.amount, currency_code: session.currency_code })
  },
  async (previous, { container }) => {
    if (previous) {
      await container.resolve(Modules.PAYMENT).updatePaymentSession(previous)
    }
  }
)
