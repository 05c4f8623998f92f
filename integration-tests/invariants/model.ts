/**
 * The model of the money-invariant suite: what the shoppers, the merchant and the gateway did, as
 * the commands saw it happen. It never holds a conclusion of the plugin's: which sale a Medusa
 * payment records is read from Medusa's own payment row when a command needs it.
 */
export type Provider = "3d" | "2d"
export type CaptureMode = "auth" | "preauth"

export type Checkout = {
  cartId: string
  /** The signed-in customer (an index into the world's customers) whose cart this is; null: a guest's. */
  customer: number | null
  collectionId: string
  provider: Provider
  /** The cart's current payment session; a cart change makes Medusa delete it and the storefront start another. */
  sessionId: string
  /** Every session this cart had, so every attempt of the run can be found at the gateway. */
  sessionIds: string[]
  /** The own 3D forms (tabs) opened, each one attempt. */
  tabs: { invoiceId: string; sessionId: string; used: boolean; form: { action: string; fields: Record<string, string> } }[]
  /** The order Medusa made of the cart, once a command saw one. */
  orderId: string | null
  /** Quantities of the cart's lines (the cart's total changes with them). */
  quantities: number[]
}

/** An order taken by phone: a draft order and its single-use payment link, paid on the gateway's page. */
export type PhoneOrder = { orderId: string; dplId: number; link: string }

export type Model = {
  checkouts: Checkout[]
  phoneOrders: PhoneOrder[]
  captureMode: CaptureMode
  /**
   * Refunds asked for, per invoice id, in minor units: a panel refund of that sale, an admin refund or
   * an order cancel on the Medusa payment recorded with that sale. A give-back of an extra attempt is
   * not here: the oracle allows it only for a sale no Medusa payment records, and only in full.
   */
  asked: Map<string, number>
  /** Sandbox clock moves (a pre-authorization left to expire). */
  clockMoves: number
  /** What happened, one line per command, printed with a failure. */
  log: string[]
}

export function newModel(): Model {
  return { checkouts: [], phoneOrders: [], captureMode: "auth", asked: new Map(), clockMoves: 0, log: [] }
}

export function ask(model: Model, invoiceId: string, minor: number): void {
  model.asked.set(invoiceId, (model.asked.get(invoiceId) ?? 0) + minor)
}

/** Every session of the run: each of its attempts' invoice ids starts with one of them. */
export function sessionsOf(model: Model): string[] {
  return model.checkouts.flatMap((checkout) => checkout.sessionIds)
}

/** Every order of the run a merchant can act on: checkouts that became orders, and phone orders. */
export function ordered(model: Model): { orderId: string }[] {
  return [...model.checkouts.filter((checkout) => checkout.orderId !== null) as { orderId: string }[], ...model.phoneOrders]
}

/** Whether a gateway sale is one of the run's: an attempt of one of its sessions, or a sale of one of its phone orders' links. */
export function isRunSale(model: Model, sale: { invoice_id: string; dpl_id: number }): boolean {
  return sessionsOf(model).some((session) => sale.invoice_id.startsWith(`${session}_`)) || model.phoneOrders.some((phone) => phone.dplId === Number(sale.dpl_id))
}
