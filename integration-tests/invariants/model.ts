/**
 * The model of the money-invariant suite: what the shoppers, the merchant and the gateway did, as
 * the commands saw it happen. It never holds a conclusion of the plugin's: which sale a Medusa
 * payment records is read from Medusa's own payment row when a command needs it.
 */
export type Provider = "3d" | "2d"
export type CaptureMode = "auth" | "preauth"

export type Checkout = {
  /** A shopper's browser slot: a few carts are open at once. */
  slot: number
  cartId: string
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

export type Model = {
  checkouts: Checkout[]
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
  return { checkouts: [], captureMode: "auth", asked: new Map(), clockMoves: 0, log: [] }
}

export function active(model: Model, slot: number): Checkout | undefined {
  return [...model.checkouts].reverse().find((checkout) => checkout.slot === slot && checkout.orderId === null)
}

export function ask(model: Model, invoiceId: string, minor: number): void {
  model.asked.set(invoiceId, (model.asked.get(invoiceId) ?? 0) + minor)
}

/** Every session of the run: each of its attempts' invoice ids starts with one of them. */
export function sessionsOf(model: Model): string[] {
  return model.checkouts.flatMap((checkout) => checkout.sessionIds)
}

export function ordered(model: Model): Checkout[] {
  return model.checkouts.filter((checkout) => checkout.orderId !== null)
}
