import { acquireLockStep, capturePaymentWorkflow, releaseLockStep } from "@medusajs/medusa/core-flows"
import { createWorkflow, transform, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { ATTEMPT_LOCKS } from "../lib/shared-state/lock-timings"
import { confirmPartialCaptureStep } from "./steps/confirm-partial-capture"

export type CapturePreAuthorizationInput = { payment_id: string; amount: string; captured_by?: string }

/** A partial capture: the gateway confirms that total (releasing the rest), then Medusa captures it. */
export const capturePreAuthorizationWorkflow = createWorkflow(
  "sipay-capture-pre-authorization",
  (input: CapturePreAuthorizationInput) => {
    // One capture of a payment at a time, across instances: the second sees the first's capture and is refused.
    const lockKey = transform({ input }, ({ input }) => `sipay:payment:${input.payment_id}`)
    acquireLockStep({ key: lockKey, ...ATTEMPT_LOCKS.settle })
    const confirmed = confirmPartialCaptureStep({ payment_id: input.payment_id, amount: input.amount })
    const payment = capturePaymentWorkflow.runAsStep({
      input: transform({ confirmed, input }, ({ confirmed, input }) => ({
        payment_id: confirmed.payment_id,
        amount: confirmed.amount,
        captured_by: input.captured_by,
      })),
    })
    releaseLockStep({ key: lockKey })
    return new WorkflowResponse(payment)
  }
)
