import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { buildPaymentRequest } from "../../lib/checkout/payment-request"
import type { PaymentRequest } from "../../lib/sipay"
import { buildInvoiceId } from "../../providers/sipay/utils/session-data"
import { appendInvoiceToSession, restoreSessionData, SessionDataWrite } from "./append-invoice-to-session"
import { loadAttemptContext } from "./load-attempt-context"
import type { StartPaymentAttemptInput } from "../start-payment-attempt"
import { deletePaymentAttempt, recordPaymentAttempt } from "./record-payment-attempt"

export type StartedAttempt = { invoice_id: string; cart_id: string; request: PaymentRequest }

type Undo = { attemptId?: string; session?: SessionDataWrite }

/**
 * One step (under the session's lock, taken by the workflow): the context read server-side, the
 * gateway request built from it, the attempt recorded, its invoice id added to the session data.
 * Undone in reverse when a later part fails (the attempt deleted, the session data restored).
 */
export const startPaymentAttemptStep = createStep(
  "sipay-start-payment-attempt-step",
  async (input: StartPaymentAttemptInput, { container }) => {
    const choice = { installmentsNumber: Number(input.installments_number), maturityPeriod: input.maturity_period, paymentFrequency: input.payment_frequency }
    const context = await loadAttemptContext(container, { session_id: input.session_id, flow: input.flow, choice, cart_id: input.cart_id })
    const invoiceId = buildInvoiceId(context.sessionId, context.attemptNumber)
    const request = buildPaymentRequest({
      invoiceId,
      cart: context.cart,
      amount: context.amount,
      currencyCode: context.currencyCode,
      choice,
      settings: context.settings,
      backendUrl: context.backendUrl,
      recurring: context.recurring,
      ip: input.ip,
    })
    const undo: Undo = {}
    try {
      undo.attemptId = await recordPaymentAttempt(container, { sessionId: context.sessionId, cartId: context.cart.id, attemptNumber: context.attemptNumber, flow: input.flow, request })
      undo.session = await appendInvoiceToSession(
        container,
        { id: context.sessionId, data: context.sessionData, amount: context.sessionAmount, currency_code: context.sessionCurrencyCode },
        invoiceId,
        (request.transactionType ?? "Auth") as "Auth" | "PreAuth"
      )
    } catch (error) {
      await undoStart(container, undo)
      throw error
    }
    return new StepResponse<StartedAttempt, Undo>({ invoice_id: invoiceId, cart_id: context.cart.id, request }, undo)
  },
  async (undo, { container }) => {
    if (undo) {
      await undoStart(container, undo)
    }
  }
)

async function undoStart(container: Parameters<typeof loadAttemptContext>[0], undo: Undo): Promise<void> {
  if (undo.session) {
    await restoreSessionData(container, undo.session)
  }
  if (undo.attemptId) {
    await deletePaymentAttempt(container, undo.attemptId)
  }
}
