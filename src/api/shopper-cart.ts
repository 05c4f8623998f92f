import type { MedusaRequest } from "@medusajs/framework/http"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"

/**
 * What the shopper's way back to the storefront needs of a cart: its shipping country (the
 * storefront's /{country_code}/ routes) and, when asked, the order it became.
 */
export async function shopperCartOf(req: MedusaRequest, cartId: string, input: { withOrder?: boolean } = {}): Promise<{ country_code: string | null; order_id: string | null }> {
  if (!cartId) {
    return { country_code: null, order_id: null }
  }
  const query = req.scope.resolve(ContainerRegistrationKeys.QUERY)
  const fields = ["shipping_address.country_code", "billing_address.country_code", ...(input.withOrder ? ["order.id"] : [])]
  const { data } = await query.graph({ entity: "cart", fields, filters: { id: cartId } })
  const cart = data[0] as
    | { shipping_address?: { country_code?: string | null }; billing_address?: { country_code?: string | null }; order?: { id?: string } | null }
    | undefined
  return { country_code: cart?.shipping_address?.country_code ?? cart?.billing_address?.country_code ?? null, order_id: cart?.order?.id ?? null }
}
