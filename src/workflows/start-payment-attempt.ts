import { acquireLockStep, releaseLockStep } from "@medusajs/medusa/core-flows"
import { createWorkflow, transform, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { buildPaymentRequest } from "../lib/checkout/payment-request"
import { buildInvoiceId } from "../providers/sipay/utils/session-data"
import { appendInvoiceToSessionStep } from "./steps/append-invoice-to-session"
import { AttemptFlow, loadAttemptContextStep } from "./steps/load-attempt-context"
import { recordPaymentAttemptStep } from "./steps/record-payment-attempt"
import { ATTEMPT_LOCKS } from "../lib/shared-state/lock-timings"

export type StartPaymentAttemptInput = {
  session_id: string
  flow: AttemptFlow
  installments_number: number
  maturity_period?: number
  payment_frequency?: number
  ip?: string
  /** When given, the session must pay this cart (the store API's caller proves it holds the cart). */
  cart_id?: string
}

/**
 * A new attempt at paying a session: invoice id <session>_<n>, the gateway request built from the
 * cart and the settings (never from storefront data), recorded, and added to the session data.
 * The card is not part of it: it goes from the shopper to the gateway (3D) or through the route (2D).
 */
export const startPaymentAttemptWorkflow = createWorkflow(
  "sipay-start-payment-attempt",
  (input: StartPaymentAttemptInput) => {
    const lockKey = transform({ input }, ({ input }) => `sipay:session:${input.session_id}`)
    acquireLockStep({ key: lockKey, ...ATTEMPT_LOCKS.start })
    const choice = transform({ input }, ({ input }) => ({
      installmentsNumber: Number(input.installments_number),
      maturityPeriod: input.maturity_period,
      paymentFrequency: input.payment_frequency,
    }))
    const context = loadAttemptContextStep({ session_id: input.session_id, flow: input.flow, choice, cart_id: input.cart_id })
    const attempt = transform({ context, input, choice }, ({ context, input, choice }) => {
      const invoiceId = buildInvoiceId(context.sessionId, context.attemptNumber)
      return {
        sessionId: context.sessionId,
        cartId: context.cart.id,
        attemptNumber: context.attemptNumber,
        flow: input.flow,
        request: buildPaymentRequest({
          invoiceId,
          cart: context.cart,
          amount: context.amount,
          currencyCode: context.currencyCode,
          choice,
          settings: context.settings,
          backendUrl: context.backendUrl,
          recurring: context.recurring,
          ip: input.ip,
        }),
      }
    })
    recordPaymentAttemptStep(attempt)
    appendInvoiceToSessionStep(
      transform({ attempt }, ({ attempt }) => ({
        sessionId: attempt.sessionId,
        invoiceId: attempt.request.invoiceId,
        intendedTransactionType: (attempt.request.transactionType ?? "Auth") as "Auth" | "PreAuth",
      }))
    )
    releaseLockStep({ key: lockKey })
    return new WorkflowResponse(
      transform({ attempt }, ({ attempt }) => ({
        invoice_id: attempt.request.invoiceId,
        cart_id: attempt.cartId,
        request: attempt.request,
      }))
    )
  }
)
