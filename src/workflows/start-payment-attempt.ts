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
  /** The card's first 6 digits: needed when the count's fee is the gateway's rate for the card. */
  bin?: string
}

/**
 * A new attempt at paying a session: the cart's installment fee line made the choice's (a new
 * session when that moved the cart's total: the answer's `session_id`), invoice id <session>_<n>,
 * the gateway request built from the cart and the settings (never from storefront data), recorded,
 * and (3D) added to the session data, in one step under the session's lock (each step of a workflow
 * costs a checkpoint of everything before it, and one read of the cart serves the fee and the
 * request). The card is not part of it: it goes from the shopper to the gateway (3D) or through the
 * route (2D; only its first 6 digits come in, for a fee that is the gateway's rate).
 */
export const startPaymentAttemptWorkflow = createWorkflow("sipay-start-payment-attempt", (input: StartPaymentAttemptInput) => {
  return new WorkflowResponse(startPaymentAttemptStep(input))
})
