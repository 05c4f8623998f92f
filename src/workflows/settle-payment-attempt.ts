import { createWorkflow, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { SettleInput, settlePaymentAttemptStep } from "./steps/settle-payment-attempt"

export type SettlePaymentAttemptInput = SettleInput

/** One attempt at a time (the step holds the invoice's lock): the redirect, the webhook and the reconciliation job may race. */
export const settlePaymentAttemptWorkflow = createWorkflow("sipay-settle-payment-attempt", (input: SettlePaymentAttemptInput) => {
  return new WorkflowResponse(settlePaymentAttemptStep(input))
})
