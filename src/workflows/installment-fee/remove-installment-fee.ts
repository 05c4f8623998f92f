import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { createStep, createWorkflow, StepResponse, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { deleteLineItemsWorkflow } from "@medusajs/medusa/core-flows"
import { feeLineOf } from "../../lib/checkout/fee-line"
import { ATTEMPT_LOCKS, underLock } from "../../lib/shared-state/lock-timings"
import { PROVIDER_OF_FLOW } from "../steps/load-attempt-context"

export type RemoveInstallmentFeeInput = { cart_id: string }

/** Whether a payment provider is one of the plugin's (only those charge an installment fee). */
export function isSipayProvider(providerId: unknown): boolean {
  return Object.values(PROVIDER_OF_FLOW).includes(String(providerId))
}

/**
 * The cart's installment fee line removed, when the shopper turns to a payment method that is not
 * the plugin's: the fee is the price of paying in installments by card, and no other method pays it.
 * Under the cart's fee lock (the one choosing a count takes); nothing to remove: nothing changes.
 */
export const removeInstallmentFeeStep = createStep("sipay-remove-installment-fee", async (input: RemoveInstallmentFeeInput, { container }) => {
  return new StepResponse(await removeInstallmentFee(container, input.cart_id))
})

export const removeInstallmentFeeWorkflow = createWorkflow("sipay-remove-installment-fee", (input: RemoveInstallmentFeeInput) => {
  return new WorkflowResponse(removeInstallmentFeeStep(input))
})

async function removeInstallmentFee(container: MedusaContainer, cartId: string): Promise<{ removed: boolean }> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  return underLock(container, `sipay:installment-fee:${cartId}`, ATTEMPT_LOCKS.start, async () => {
    const { data } = await query.graph({ entity: "cart", fields: ["id", "completed_at", "items.id", "items.variant_id", "items.metadata"], filters: { id: cartId } })
    const cart = data[0] as { completed_at?: unknown; items?: Array<{ id: string; variant_id?: string | null; metadata?: Record<string, any> | null }> } | undefined
    const line = cart && !cart.completed_at ? feeLineOf(cart.items) : undefined
    if (!line) {
      return { removed: false }
    }
    await deleteLineItemsWorkflow(container).run({ input: { cart_id: cartId, ids: [line.id] } })
    return { removed: true }
  })
}
