import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { generateHashKey } from "../../src/lib/sipay"
import type { SeededStore } from "../harness/seed"
import type { SipayStack } from "../harness/stack"
import type { SignedInCustomer } from "../harness/customers"

/**
 * The real system the model-based suite drives, and the only places its oracle reads: the sandbox's
 * own records (its test controls) and Medusa's tables (the query graph and Medusa's link tables).
 * Nothing here asks the plugin who owns a sale.
 */
export type Api = {
  get: (url: string, config?: unknown) => Promise<{ status: number; data: any }>
  post: (url: string, body?: unknown, config?: unknown) => Promise<{ status: number; data: any }>
  delete: (url: string, config?: unknown) => Promise<{ status: number; data: any }>
}

export type World = {
  api: Api
  stack: SipayStack
  store: SeededStore
  /** Two signed-in customers, who save cards and pay with them. */
  customers: SignedInCustomer[]
  admin: { headers: Record<string, string> }
  container: () => MedusaContainer
}

/** A sale as the sandbox keeps it (src/sandbox/types.ts), the fields the oracle reads. */
export type GatewaySale = {
  id: number
  invoice_id: string
  order_id: string | null
  state: "pending" | "completed" | "failed"
  transaction_type: "Auth" | "Pre-Authorization"
  total_minor: number
  captured_minor: number
  refunded_minor: number
  refunds: { amount_minor: number; refund_transaction_id: string | null }[]
  preauth: { state: string } | null
  chargeback_at_ms?: number | null
  dpl_id: number
  recurring_id: number
  /** Paid with a stored card: which, of which customer number (the sandbox's record). */
  saved_card?: { id: number; customer_number: string } | null
}

export async function control(world: World, path: string, body?: unknown, method = body === undefined ? "GET" : "POST"): Promise<any> {
  const response = await fetch(`${world.stack.sandbox.link_base}/__sandbox/${path}`, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await response.text()
  if (response.status >= 400) throw new Error(`sandbox ${method} ${path} answered ${response.status}: ${text.slice(0, 300)}`)
  return text ? JSON.parse(text) : null
}

/** Every sale the sandbox holds for these invoice ids (a recurring plan's later charges share their first payment's). */
export async function gatewaySales(world: World, invoiceIds: Iterable<string>): Promise<GatewaySale[]> {
  const wanted = new Set(invoiceIds)
  const all = (await control(world, "sales")) as GatewaySale[]
  return all.filter((sale) => wanted.has(sale.invoice_id))
}

export async function gatewayCalls(world: World): Promise<Record<string, number>> {
  return control(world, "calls")
}

/** A refund made in the merchant panel: the merchant calls the gateway's refund operation with its own credentials, Medusa is not involved. */
export async function refundInPanel(world: World, invoiceId: string, amount: string): Promise<{ status_code: number; status_description?: string }> {
  const m = world.stack.sandbox.merchant
  const token = await fetch(`${world.stack.sandbox.base_url}/api/token`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ app_id: m.app_id, app_secret: m.app_secret }),
  })
  const bearer = ((await token.json()) as any).data.token
  const body = { invoice_id: invoiceId, amount, merchant_key: m.merchant_key, app_id: m.app_id, app_secret: m.app_secret, hash_key: generateHashKey([amount, invoiceId, m.merchant_key], m.app_secret) }
  const answer = await fetch(`${world.stack.sandbox.base_url}/api/refund`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${bearer}` },
    body: JSON.stringify(body),
  })
  return (await answer.json()) as any
}

/** A pre-authorization completed in the merchant panel (the gateway's confirmPayment, status 1, with that total), outside Medusa. */
export async function captureInPanel(world: World, invoiceId: string, total: string): Promise<{ status_code: number; status_description?: string }> {
  const m = world.stack.sandbox.merchant
  const token = await fetch(`${world.stack.sandbox.base_url}/api/token`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ app_id: m.app_id, app_secret: m.app_secret }),
  })
  const bearer = ((await token.json()) as any).data.token
  const body = { invoice_id: invoiceId, merchant_key: m.merchant_key, status: "1", total, hash_key: generateHashKey([m.merchant_key, invoiceId, "1"], m.app_secret) }
  const answer = await fetch(`${world.stack.sandbox.base_url}/api/confirmPayment`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${bearer}` },
    body: JSON.stringify(body),
  })
  return (await answer.json()) as any
}

/** Medusa's record of one payment: what its data names as the sale it was paid by, and its money. */
export type MedusaPayment = {
  id: string
  payment_session_id: string | null
  payment_collection_id: string
  invoice_id: string | null
  captured_minor: number
  refunded_minor: number
  refund_notes: string[]
  canceled: boolean
  order_id: string | null
}

const minor = (value: unknown) => Math.round(Number(value ?? 0) * 100)

/** Medusa's payments of these payment collections, with their captures, refunds and order (Medusa's link table). */
export async function medusaPayments(world: World, collectionIds: string[]): Promise<MedusaPayment[]> {
  if (!collectionIds.length) return []
  const query = world.container().resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "payment",
    fields: ["id", "data", "payment_session_id", "payment_collection_id", "canceled_at", "captures.amount", "refunds.amount", "refunds.note"],
    filters: { payment_collection_id: collectionIds },
  })
  const orders = await ordersOfCollections(world, collectionIds)
  return (data as any[]).map((payment) => ({
    id: payment.id,
    payment_session_id: payment.payment_session_id ?? null,
    payment_collection_id: payment.payment_collection_id,
    invoice_id: typeof payment.data?.invoice_id === "string" ? payment.data.invoice_id : null,
    captured_minor: (payment.captures ?? []).reduce((sum: number, c: any) => sum + minor(c.amount), 0),
    refunded_minor: (payment.refunds ?? []).reduce((sum: number, r: any) => sum + minor(r.amount), 0),
    refund_notes: (payment.refunds ?? []).map((r: any) => String(r.note ?? "")),
    canceled: Boolean(payment.canceled_at),
    order_id: orders.get(payment.payment_collection_id) ?? null,
  }))
}

type Knex = { raw(sql: string, bindings?: readonly unknown[]): Promise<{ rows: any[] }> }
const pg = (world: World) => world.container().resolve<Knex>(ContainerRegistrationKeys.PG_CONNECTION)

async function ordersOfCollections(world: World, collectionIds: string[]): Promise<Map<string, string>> {
  const { rows } = await pg(world).raw(`SELECT payment_collection_id, order_id FROM order_payment_collection WHERE deleted_at IS NULL AND payment_collection_id = ANY(?)`, [collectionIds])
  return new Map(rows.map((row) => [row.payment_collection_id, row.order_id]))
}

/** Every order Medusa made of each cart (Medusa's order-cart link), not only the first. */
export async function ordersOfCarts(world: World, cartIds: string[]): Promise<Map<string, string[]>> {
  const orders = new Map<string, string[]>()
  if (!cartIds.length) return orders
  const { rows } = await pg(world).raw(`SELECT cart_id, order_id FROM order_cart WHERE deleted_at IS NULL AND cart_id = ANY(?)`, [cartIds])
  for (const row of rows) orders.set(row.cart_id, [...(orders.get(row.cart_id) ?? []), row.order_id])
  return orders
}

/** The payment collection of each cart (Medusa's cart-collection link). */
export async function collectionsOfCarts(world: World, cartIds: string[]): Promise<Map<string, string[]>> {
  const collections = new Map<string, string[]>()
  if (!cartIds.length) return collections
  const { rows } = await pg(world).raw(`SELECT cart_id, payment_collection_id FROM cart_payment_collection WHERE deleted_at IS NULL AND cart_id = ANY(?)`, [cartIds])
  for (const row of rows) collections.set(row.cart_id, [...(collections.get(row.cart_id) ?? []), row.payment_collection_id])
  return collections
}

/** The payment collections of each order (Medusa's order-collection link): a phone order's payment is on its order's. */
export async function collectionsOfOrders(world: World, orderIds: string[]): Promise<Map<string, string[]>> {
  const collections = new Map<string, string[]>()
  if (!orderIds.length) return collections
  const { rows } = await pg(world).raw(`SELECT order_id, payment_collection_id FROM order_payment_collection WHERE deleted_at IS NULL AND order_id = ANY(?)`, [orderIds])
  for (const row of rows) collections.set(row.order_id, [...(collections.get(row.order_id) ?? []), row.payment_collection_id])
  return collections
}

export async function orderStates(world: World, orderIds: string[]): Promise<Map<string, { status: string; canceled: boolean }>> {
  if (!orderIds.length) return new Map()
  const query = world.container().resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({ entity: "order", fields: ["id", "status", "canceled_at"], filters: { id: orderIds } })
  return new Map((data as any[]).map((order) => [order.id, { status: order.status, canceled: Boolean(order.canceled_at) }]))
}

/** The plugin's chargeback records: checked as an output (which order each names), never asked who owns a sale. */
export async function chargebackRecords(world: World, invoiceIds: string[]): Promise<{ invoice_id: string; order_id: string | null }[]> {
  if (!invoiceIds.length) return []
  const { rows } = await pg(world).raw(`SELECT invoice_id, order_id FROM sipay_chargeback WHERE deleted_at IS NULL AND invoice_id = ANY(?)`, [invoiceIds])
  return rows
}

/** The payment module's options as its webhook route reads them (Medusa's `webhook_delay`). */
export function paymentModuleOf(world: World): Record<string, any> {
  return world.container().resolve(Modules.PAYMENT) as unknown as Record<string, any>
}

/**
 * For each payment session, the gateway customer numbers of the customer whose cart it pays, as Medusa's
 * tables link them (session -> collection -> cart -> customer -> account holders); empty for a guest's cart.
 */
export async function customerNumbersOfSessions(world: World, sessionIds: string[]): Promise<Map<string, string[]>> {
  const numbers = new Map<string, string[]>()
  if (!sessionIds.length) return numbers
  const { rows } = await pg(world).raw(
    `SELECT ps.id AS session_id, ah.external_id
       FROM payment_session ps
       JOIN cart_payment_collection cpc ON cpc.payment_collection_id = ps.payment_collection_id AND cpc.deleted_at IS NULL
       JOIN cart c ON c.id = cpc.cart_id
       LEFT JOIN customer_account_holder cah ON cah.customer_id = c.customer_id AND cah.deleted_at IS NULL
       LEFT JOIN account_holder ah ON ah.id = cah.account_holder_id AND ah.deleted_at IS NULL
      WHERE ps.id = ANY(?)`,
    [sessionIds]
  )
  for (const row of rows) numbers.set(row.session_id, [...(numbers.get(row.session_id) ?? []), ...(row.external_id ? [String(row.external_id)] : [])])
  return numbers
}

/** A customer's number at the gateway, as their Medusa account holder records it (null before their first signed-in session). */
export async function customerNumberOf(world: World, customerId: string): Promise<string | null> {
  const { rows } = await pg(world).raw(
    `SELECT ah.external_id FROM customer_account_holder cah JOIN account_holder ah ON ah.id = cah.account_holder_id AND ah.deleted_at IS NULL
      WHERE cah.customer_id = ? AND cah.deleted_at IS NULL AND ah.provider_id LIKE 'pp_sipay%' LIMIT 1`,
    [customerId]
  )
  return rows[0]?.external_id ? String(rows[0].external_id) : null
}
