import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import { deleteCustomerCard, listCustomerCards } from "../lib/saved-cards/customer-cards"
import type { SavedCardView } from "../lib/saved-cards/card-view"
import { customerNumberOfCustomer, type CustomerForHolder } from "../workflows/saved-cards/customer-holder"
import { sipayModuleOf } from "./sipay-responses"

/**
 * The saved-card routes' shared part (the customer's own, and the admin's for a customer): the
 * customer's number comes from their account holder, found through Medusa's customer link, never from
 * the request; cards are read from the gateway each time. Answers carry handles, never tokens.
 */

export async function cardsOfCustomer(req: MedusaRequest, customerId: string): Promise<SavedCardView[]> {
  const found = await customerNumberOfCustomer(req.scope, customerId)
  if (!found) {
    return []
  }
  const sipay = sipayModuleOf(req)
  return listCustomerCards(sipay.getClient(), sipay.getOptions().appSecret, found.number)
}

/** Deletes the customer's card the handle names, or answers 404 (another's, deleted, made up: the same). */
export async function removeCardOfCustomer(req: MedusaRequest, res: MedusaResponse, customerId: string, handle: string): Promise<void> {
  const found = await customerNumberOfCustomer(req.scope, customerId)
  const sipay = sipayModuleOf(req)
  const deleted = found ? await deleteCustomerCard(sipay.getClient(), sipay.getOptions().appSecret, found.number, handle) : false
  if (!deleted) {
    throw new MedusaError(MedusaError.Types.NOT_FOUND, "Saved card not found")
  }
  res.setHeader("Cache-Control", "no-store")
  res.json({ id: handle, object: "saved_card", deleted: true })
}

/** Whether the store offers saved cards (option enableSavedCards); a request to save or pay with one is refused otherwise. */
export function assertSavedCardsEnabled(req: MedusaRequest): void {
  if (!sipayModuleOf(req).getOptions().enableSavedCards) {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, "Saved cards are not offered by this store")
  }
}

/** The signed-in customer of a store request (Medusa authenticates every /store route when it can), or null. */
export function signedInCustomer(req: MedusaRequest): string | null {
  const auth = (req as MedusaRequest & { auth_context?: { actor_type?: string; actor_id?: string } }).auth_context
  return auth?.actor_type === "customer" && auth.actor_id ? auth.actor_id : null
}

/**
 * The customer who owns the cart, when it is the signed-in one; a cart of another customer (or of a
 * guest) answers like an unknown one.
 */
export async function ownCartCustomer(req: MedusaRequest, cartId: string, customerId: string): Promise<CustomerForHolder> {
  const query = req.scope.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({ entity: "cart", fields: ["id", "customer_id", "customer.id", "customer.email", "customer.first_name", "customer.last_name", "customer.phone"], filters: { id: cartId } })
  const cart = data[0] as { customer_id?: string | null; customer?: CustomerForHolder | null } | undefined
  if (!cart || cart.customer_id !== customerId || !cart.customer) {
    throw new MedusaError(MedusaError.Types.NOT_FOUND, "Cart not found")
  }
  return cart.customer
}

/** How a saved card's owner is named at the gateway. */
export function ownerOf(customer: CustomerForHolder, fallbackName: string): { name: string; email: string; phone?: string } {
  const name = [customer.first_name, customer.last_name].filter(Boolean).join(" ").trim()
  return { name: name || fallbackName, email: customer.email ?? "", phone: customer.phone ?? undefined }
}
