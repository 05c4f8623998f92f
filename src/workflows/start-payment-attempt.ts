import { createWorkflow, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import type { AttemptFlow } from "./steps/load-attempt-context"
import { startPaymentAttemptStep } from "./steps/start-payment-attempt"

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
 * cart and the settings (never from storefront data), recorded, and (3D) added to the session data,
 * in one step under the session's lock (each step of a workflow costs a checkpoint of everything
 * before it). The card is not part of it: it goes from the shopper to the gateway (3D) or through
 * the route (2D).
 */
export const startPaymentAttemptWorkflow = createWorkflow("sipay-start-payment-attempt", (input: StartPaymentAttemptInput) => {
  return new WorkflowResponse(startPaymentAttemptStep(input))
})
