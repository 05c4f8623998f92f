import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import { formatAmount } from "../../../../../../lib/sipay"
import { planOfItems, planView } from "../../../../../recurring-plan-view"

/**
 * The charge plan of a cart holding a recurring product, for the storefront to show before the card
 * form ("12 x ₺900,00, her ay"): `{ recurring_plan: { payment_number, cycle, interval, amount, currency_code } | null }`.
 * The cart id is the caller's proof it holds the cart (as on the plugin's other store routes).
 */
export const GET = async (req: MedusaRequest, res: MedusaResponse) => {
  const query = req.scope.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({ entity: "cart", fields: ["id", "total", "currency_code", "items.product.metadata"], filters: { id: req.params.id } })
  const cart = data[0] as { total?: unknown; currency_code?: string; items?: any[] } | undefined
  if (!cart) {
    throw new MedusaError(MedusaError.Types.NOT_FOUND, "Cart not found")
  }
  const plan = planOfItems(cart.items)
  res.setHeader("Cache-Control", "no-store")
  res.json({ recurring_plan: plan ? planView(plan, formatAmount(cart.total as never), String(cart.currency_code ?? "")) : null })
}
