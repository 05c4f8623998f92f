import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { buildPaymentRequest } from "../../lib/checkout/payment-request"
import type { PaymentRequest } from "../../lib/sipay"
import { buildInvoiceId } from "../../providers/sipay/utils/session-data"
import { appendInvoiceToSession, removeInvoiceFromSession, SessionInvoiceAdded } from "./append-invoice-to-session"
import { loadAttemptContext } from "./load-attempt-context"
import type { StartPaymentAttemptInput } from "../start-payment-attempt"
import { deletePaymentAttempt, recordPaymentAttempt } from "./record-payment-attempt"
import { ATTEMPT_LOCKS, underLock } from "../../lib/shared-state/lock-timings"

export type StartedAttempt = { invoice_id: string; cart_id: string; request: PaymentRequest }

type Undo = { attemptId?: string; session?: SessionInvoiceAdded }

/**
 * One step under the session's lock: the context read server-side, the gateway request built from
 * it, the attempt recorded and, for a 3D form, its invoice id added to the session data (the shopper
 * leaves for the bank, and a storefront's own complete-cart must find it). A direct (2D) attempt is
 * settled in the same request: the settle step adds it with the gateway's confirmation, in one write.
 * Undone in reverse when a later part fails (the attempt deleted, the session data restored).
 */
export const startPaymentAttemptStep = createStep(
  "sipay-start-payment-attempt-step",
  async (input: StartPaymentAttemptInput, { container }) => {
    const { started, undo } = await underLock(container, `sipay:session:${input.session_id}`, ATTEMPT_LOCKS.start, () => startAttempt(container, input))
    return new StepResponse<StartedAttempt, Undo>(started, undo)
  },
  async (undo, { container }) => {
    if (undo) {
      await undoStart(container, undo)
    }
  }
)

async function startAttempt(container: Parameters<typeof loadAttemptContext>[0], input: StartPaymentAttemptInput): Promise<{ started: StartedAttempt; undo: Undo }> {
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
    storeName: context.storeName,
    language: context.language,
  })
  const undo: Undo = {}
  try {
    undo.attemptId = await recordPaymentAttempt(container, { sessionId: context.sessionId, cartId: context.cart.id, attemptNumber: context.attemptNumber, flow: input.flow, request })
    if (input.flow === "3d") {
      undo.session = await appendInvoiceToSession(container, { sessionId: context.sessionId, cartId: context.cart.id }, invoiceId, (request.transactionType ?? "Auth") as "Auth" | "PreAuth")
    }
  } catch (error) {
    await undoStart(container, undo)
    throw error
  }
  return { started: { invoice_id: invoiceId, cart_id: context.cart.id, request }, undo }
}

async function undoStart(container: Parameters<typeof loadAttemptContext>[0], undo: Undo): Promise<void> {
  if (undo.session) {
    await removeInvoiceFromSession(container, undo.session)
  }
  if (undo.attemptId) {
    await deletePaymentAttempt(container, undo.attemptId)
  }
}
