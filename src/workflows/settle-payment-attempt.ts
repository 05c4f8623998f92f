import { acquireLockStep, releaseLockStep } from "@medusajs/medusa/core-flows"
import { createWorkflow, transform, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { ReportedOutcome, settlePaymentAttemptStep } from "./steps/settle-payment-attempt"
import { ATTEMPT_LOCKS } from "../lib/shared-state/lock-timings"

export type SettlePaymentAttemptInput = { invoice_id: string; reported?: ReportedOutcome; reconcile?: boolean }

/** One attempt at a time: the redirect, the webhook and the reconciliation job may race. */
export const settlePaymentAttemptWorkflow = createWorkflow(
  "sipay-settle-payment-attempt",
  (input: SettlePaymentAttemptInput) => {
    const lockKey = transform({ input }, ({ input }) => `sipay:invoice:${input.invoice_id}`)
    acquireLockStep({ key: lockKey, ...ATTEMPT_LOCKS.settle })
    const result = settlePaymentAttemptStep(input)
    releaseLockStep({ key: lockKey })
    return new WorkflowResponse(result)
  }
)
