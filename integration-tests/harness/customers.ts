import { generateHashKey } from "../../src/lib/sipay"
import type { SeededStore } from "./seed"
import type { SipayStack } from "./stack"
import { startPaymentSession, storeHeaders } from "./shopper"

/** Signed-in customers and their saved cards, over real HTTP (issue 31). */

type Api = {
  get: (url: string, config?: unknown) => Promise<{ status: number; data: any }>
  post: (url: string, body?: unknown, config?: unknown) => Promise<{ status: number; data: any }>
}

export type SignedInCustomer = { id: string; email: string; headers: { headers: Record<string, string> } }

/** Registers a customer through Medusa's auth API and signs them in: the headers a storefront sends for them. */
export async function signedInCustomer(api: Api, store: SeededStore, email: string, password = "supersecret-123"): Promise<SignedInCustomer> {
  const registered = await api.post("/auth/customer/emailpass/register", { email, password })
  const pk = storeHeaders(store).headers
  const created = await api.post("/store/customers", { email, first_name: "Ayşe", last_name: "Yılmaz", phone: "5551234567" }, { headers: { ...pk, authorization: `Bearer ${registered.data.token}` } })
  const login = await api.post("/auth/customer/emailpass", { email, password })
  return { id: created.data.customer.id, email, headers: { headers: { ...pk, authorization: `Bearer ${login.data.token}` } } }
}

/** The signed-in customer's cart (Medusa sets its customer from the auth header). */
export async function customerCart(api: Api, store: SeededStore, customer: SignedInCustomer, quantities: number[] = [1, 0]) {
  const items = quantities.map((quantity, index) => ({ variant_id: store.products[index].variantId, quantity })).filter((i) => i.quantity > 0)
  const address = { first_name: "Ayşe", last_name: "Yılmaz", address_1: "İstiklal Cd. 1", city: "İstanbul", country_code: "tr", postal_code: "34430", phone: "5551234567" }
  const { data } = await api.post("/store/carts", { region_id: store.regionId, items, shipping_address: address, billing_address: address }, customer.headers)
  return data.cart as { id: string; total: number; customer_id: string }
}

/** A payment session the customer starts (Medusa creates their account holder for the provider). */
export async function customerSession(api: Api, store: SeededStore, customer: SignedInCustomer, cartId: string, providerId: string) {
  return (await startPaymentSession(api, store, cartId, providerId, undefined, customer.headers)).session
}

async function merchantCall(stack: SipayStack, operation: string, body: Record<string, unknown>): Promise<any> {
  const m = stack.sandbox.merchant
  const token = await fetch(`${stack.sandbox.base_url}/api/token`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ app_id: m.app_id, app_secret: m.app_secret }) })
  const bearer = ((await token.json()) as any).data.token
  const answer = await fetch(`${stack.sandbox.base_url}/api/${operation}`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${bearer}` },
    body: JSON.stringify({ merchant_key: m.merchant_key, ...body }),
  })
  return answer.json()
}

/** The gateway's own list of a customer number's cards, asked with the merchant's credentials (no plugin involved). */
export async function gatewayCards(stack: SipayStack, customerNumber: string): Promise<{ card_token: string; card_number: string }[]> {
  return (await merchantCall(stack, "getCardTokens", { customer_number: customerNumber })).data ?? []
}

/** A card deleted in the merchant panel: the merchant calls deleteCard with its own credentials. */
export async function deleteAtGateway(stack: SipayStack, customerNumber: string, cardToken: string): Promise<any> {
  const m = stack.sandbox.merchant
  return merchantCall(stack, "deleteCard", { customer_number: customerNumber, card_token: cardToken, hash_key: generateHashKey([m.merchant_key, customerNumber, cardToken], m.app_secret) })
}
