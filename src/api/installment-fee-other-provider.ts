import type { MedusaNextFunction, MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import { feeLineOf } from "../lib/checkout/fee-line"
import { cartOfCollection } from "../workflows/steps/load-attempt-context"
import { isSipayProvider, removeInstallmentFeeWorkflow } from "../workflows/installment-fee/remove-installment-fee"

/**
 * The installment fee is what paying by card in installments costs: no other payment method carries
 * it into an order (docs/installments.md "Another payment method"). Middlewares, not a complete-cart
 * hook: a workflow hook takes one handler, and the store's own code may need it.
 */

/**
 * Before Medusa's store route creates a payment session of another provider (`POST
 * /store/payment-collections/:id/payment-sessions`): the cart's installment fee line is removed, so
 * the session is created on the total without it. A shopper who turns back to the card pays the fee
 * again when choosing the count. Anything unexpected is left to Medusa's route to answer.
 */
export async function removeFeeForOtherProviders(req: MedusaRequest, _res: MedusaResponse, next: MedusaNextFunction) {
  const providerId = (req.body as { provider_id?: unknown } | undefined)?.provider_id
  const collectionId = req.params.id
  try {
    if (typeof providerId === "string" && providerId && !isSipayProvider(providerId) && collectionId) {
      const cartId = await cartOfCollection(req.scope.resolve(ContainerRegistrationKeys.QUERY), collectionId)
      if (cartId) {
        await removeInstallmentFeeWorkflow(req.scope).run({ input: { cart_id: cartId } })
      }
    }
  } catch (error) {
    return next(error)
  }
  next()
}

/** Sessions complete-cart may still authorize (an authorized one: the cart is being completed again). */
const LIVE = new Set(["pending", "requires_more", "authorized"])

/**
 * `POST /store/carts/:id/complete`: a cart that still holds the fee line while a live session of
 * another provider is on it (made past the store route above) is refused before Medusa authorizes anything.
 */
export async function refuseFeeWithOtherProviders(req: MedusaRequest, _res: MedusaResponse, next: MedusaNextFunction) {
  try {
    const { data } = await req.scope.resolve(ContainerRegistrationKeys.QUERY).graph({
      entity: "cart",
      fields: ["id", "completed_at", "items.id", "items.variant_id", "items.metadata", "payment_collection.payment_sessions.provider_id", "payment_collection.payment_sessions.status"],
      filters: { id: req.params.id },
    })
    const cart = data[0] as
      | { completed_at?: unknown; items?: Array<{ id: string; variant_id?: string | null; metadata?: Record<string, any> | null }>; payment_collection?: { payment_sessions?: Array<{ provider_id: string; status: string }> } | null }
      | undefined
    const sessions = (cart?.payment_collection?.payment_sessions ?? []).filter((session) => LIVE.has(session.status))
    if (cart && !cart.completed_at && feeLineOf(cart.items) && sessions.some((session) => !isSipayProvider(session.provider_id))) {
      throw new MedusaError(
        MedusaError.Types.NOT_ALLOWED,
        "This cart holds an installment fee (vade farkı), which only a card payment in installments pays: remove the fee line or choose the card payment again"
      )
    }
  } catch (error) {
    return next(error)
  }
  next()
}
