import fc from "fast-check"
import { createCart, DECLINING_CARD, issueThreeDForm, PAYING_CARD, payAtGateway, returnToStore, startPaymentSession, storeHeaders } from "../harness/shopper"
import { active, ask, ordered, type Model } from "./model"
import { safetyViolations } from "./oracle"
import { quiesce, runLedgerSync, runPreAuthorizationWatch, runReconciliation } from "./quiesce"
import { control, medusaPayments, ordersOfCarts, refundInPanel, type World } from "./world"

/**
 * The commands of the money-invariant suite: a shopper, the gateway, the merchant, the plugin's jobs
 * and faults, each acting on the real system over HTTP (or the job as Medusa runs it). After every
 * command the safety invariants are checked; a failure names the command and what was seen.
 */
type Command = fc.AsyncCommand<Model, World>

const PROVIDER_IDS = { "3d": "pp_sipay_sipay", "2d": "pp_sipay-2d_sipay" } as const

abstract class Step implements Command {
  abstract check(model: Readonly<Model>): boolean
  protected abstract act(model: Model, world: World): Promise<string>
  abstract toString(): string
  async run(model: Model, world: World): Promise<void> {
    const said = await this.act(model, world)
    model.log.push(`${this.toString()} -> ${said}`)
    await refreshOrders(model, world)
    const problems = await safetyViolations(world, model)
    if (problems.length) {
      throw new Error(`safety invariant broken after ${this.toString()}:\n  ${problems.join("\n  ")}\nsequence so far:\n  ${model.log.join("\n  ")}`)
    }
  }
}

/** The order Medusa made of each open cart (Medusa's order-cart link): the model's view of which carts are done. */
async function refreshOrders(model: Model, world: World): Promise<void> {
  const open = model.checkouts.filter((checkout) => checkout.orderId === null)
  const orders = await ordersOfCarts(world, open.map((checkout) => checkout.cartId))
  for (const checkout of open) checkout.orderId = orders.get(checkout.cartId)?.[0] ?? null
}

const answer = <T>(promise: Promise<T>) => promise.catch((error: any) => error?.response ?? { status: 0, data: { message: String(error?.message ?? error) } })

// ---- shopper -------------------------------------------------------------------------------

/** A shopper fills a cart and chooses card payment: 3D (own form) or direct. */
export class NewCheckout extends Step {
  constructor(readonly slot: number, readonly provider: "3d" | "2d", readonly quantities: number[]) {
    super()
  }
  check(model: Readonly<Model>) {
    return !active(model as Model, this.slot)
  }
  async act(model: Model, world: World) {
    const cart = await createCart(world.api, world.store, this.quantities)
    const { collectionId, session } = await startPaymentSession(world.api, world.store, cart.id, PROVIDER_IDS[this.provider])
    model.checkouts.push({ slot: this.slot, cartId: cart.id, collectionId, provider: this.provider, sessionId: session.id, sessionIds: [session.id], tabs: [], orderId: null, quantities: this.quantities })
    return `cart ${cart.id} ${cart.total} ${cart.currency_code}, session ${session.id}`
  }
  toString() {
    return `NewCheckout(slot ${this.slot}, ${this.provider}, [${this.quantities}])`
  }
}

/** One more tab with the own 3D form: a new attempt on the session. */
export class OpenForm extends Step {
  constructor(readonly slot: number) {
    super()
  }
  check(model: Readonly<Model>) {
    const checkout = active(model as Model, this.slot)
    return Boolean(checkout && checkout.provider === "3d" && checkout.tabs.filter((tab) => tab.sessionId === checkout.sessionId).length < 3)
  }
  async act(model: Model, world: World) {
    const checkout = active(model, this.slot)!
    const form = await issueThreeDForm(world.api, world.store, checkout.sessionId).catch((error: Error) => error)
    if (form instanceof Error) return `refused: ${form.message.slice(0, 200)}`
    checkout.tabs.push({ invoiceId: form.invoice_id, sessionId: checkout.sessionId, used: false, form })
    return `tab ${form.invoice_id}`
  }
  toString() {
    return `OpenForm(slot ${this.slot})`
  }
}

/** The shopper pays (or declines, or cancels) one open tab at the bank page, and comes back, or does not. */
export class PayTab extends Step {
  constructor(readonly slot: number, readonly tab: number, readonly card: "good" | "declining", readonly bank: "confirm" | "cancel", readonly redirect: "deliver" | "lose") {
    super()
  }
  private pick(model: Model) {
    const checkout = model.checkouts.filter((c) => c.slot === this.slot && c.tabs.some((tab) => !tab.used)).at(-1)
    const open = checkout?.tabs.filter((tab) => !tab.used) ?? []
    return checkout && open.length ? { checkout, tab: open[this.tab % open.length] } : null
  }
  check(model: Readonly<Model>) {
    return this.pick(model as Model) !== null
  }
  async act(model: Model, world: World) {
    const { tab } = this.pick(model)!
    tab.used = true
    const result = await payAtGateway(tab.form, this.card === "good" ? PAYING_CARD : DECLINING_CARD, { cancel: this.bank === "cancel" })
    if (this.redirect === "lose") return `${tab.invoiceId} at the bank: ${result.fields.status_code ?? result.fields.error_code ?? "?"}; the redirect is lost`
    const landing = await returnToStore(result)
    return `${tab.invoiceId}: back at ${landing.pathname}${landing.searchParams.get("error") ? ` (${landing.searchParams.get("error")})` : ""}`
  }
  toString() {
    return `PayTab(slot ${this.slot}, tab ${this.tab}, ${this.card}, ${this.bank}, ${this.redirect})`
  }
}

/** A direct payment submitted 1 to 3 times at once (a double click, a retry after a timeout). */
export class PayDirect extends Step {
  constructor(readonly slot: number, readonly times: number, readonly card: "good" | "declining") {
    super()
  }
  check(model: Readonly<Model>) {
    return active(model as Model, this.slot)?.provider === "2d"
  }
  async act(model: Model, world: World) {
    const checkout = active(model, this.slot)!
    const card = this.card === "good" ? PAYING_CARD : DECLINING_CARD
    const body = {
      installments_number: 1,
      card: { holder_name: card.cc_holder_name, number: card.cc_no, expiry_month: card.expiry_month, expiry_year: card.expiry_year, cvv: card.cvv },
    }
    const answers = await Promise.all(
      Array.from({ length: this.times }, () => answer(world.api.post(`/store/sipay/payment-sessions/${checkout.sessionId}/pay-2d`, body, storeHeaders(world.store))))
    )
    return answers.map((a) => `${a.status} ${a.data?.status ?? a.data?.code ?? ""} ${a.data?.invoice_id ?? ""}`).join("; ")
  }
  toString() {
    return `PayDirect(slot ${this.slot}, x${this.times}, ${this.card})`
  }
}

/** The shopper adds a line after a form was issued: Medusa deletes the session, the storefront starts another. */
export class ChangeCart extends Step {
  constructor(readonly slot: number) {
    super()
  }
  check(model: Readonly<Model>) {
    return Boolean(active(model as Model, this.slot))
  }
  async act(model: Model, world: World) {
    const checkout = active(model, this.slot)!
    const product = world.store.products[2]
    const added = await answer(world.api.post(`/store/carts/${checkout.cartId}/line-items`, { variant_id: product.variantId, quantity: 1 }, storeHeaders(world.store)))
    if (added.status !== 200) return `refused ${added.status}: ${added.data?.message}`
    const { collectionId, session } = await startPaymentSession(world.api, world.store, checkout.cartId, PROVIDER_IDS[checkout.provider]).catch(() => ({ collectionId: checkout.collectionId, session: null as any }))
    if (session) {
      checkout.sessionId = session.id
      checkout.sessionIds.push(session.id)
      checkout.collectionId = collectionId
    }
    return `total now ${added.data.cart.total}, session ${checkout.sessionId}`
  }
  toString() {
    return `ChangeCart(slot ${this.slot})`
  }
}

/** The storefront's own complete-cart call, racing whatever the plugin does. */
export class CompleteCart extends Step {
  constructor(readonly slot: number) {
    super()
  }
  check(model: Readonly<Model>) {
    return Boolean(active(model as Model, this.slot))
  }
  async act(model: Model, world: World) {
    const checkout = active(model, this.slot)!
    const done = await answer(world.api.post(`/store/carts/${checkout.cartId}/complete`, {}, storeHeaders(world.store)))
    return `${done.status} ${done.data?.type ?? ""} ${done.data?.order?.id ?? done.data?.error?.message ?? done.data?.message ?? ""}`.slice(0, 200)
  }
  toString() {
    return `CompleteCart(slot ${this.slot})`
  }
}

// ---- gateway -------------------------------------------------------------------------------

/** The next sale webhook is duplicated, delayed or never sent. */
export class WebhookFault extends Step {
  constructor(readonly kind: "duplicate" | "delay" | "drop") {
    super()
  }
  check() {
    return true
  }
  async act(_model: Model, world: World) {
    await control(world, "faults", { operation: "sale_webhook", kind: this.kind, times: 1, ...(this.kind === "delay" ? { ms: 1500 } : {}) })
    return "set"
  }
  toString() {
    return `WebhookFault(${this.kind})`
  }
}

/** Every sale of the run the gateway holds money for (captured, not all refunded). */
async function refundableSales(model: Model, world: World) {
  const sessions = model.checkouts.flatMap((checkout) => checkout.sessionIds)
  const sales = (await control(world, "sales")) as any[]
  return sales.filter((sale) => sessions.some((session) => sale.invoice_id.startsWith(`${session}_`)) && sale.state === "completed" && sale.captured_minor > sale.refunded_minor)
}

/** The merchant refunds a sale in the gateway's panel, outside Medusa: any sale of the run, kept or given back. */
export class PanelRefund extends Step {
  constructor(readonly pick: number, readonly share: "full" | "half") {
    super()
  }
  check(model: Readonly<Model>) {
    return model.checkouts.length > 0
  }
  async act(model: Model, world: World) {
    const sales = await refundableSales(model, world)
    if (!sales.length) return "no sale to refund"
    const sale = sales[this.pick % sales.length]
    const left = sale.captured_minor - sale.refunded_minor
    const amount = this.share === "full" ? left : Math.max(1, Math.floor(left / 2))
    const answer = await refundInPanel(world, sale.invoice_id, (amount / 100).toFixed(2))
    if (answer.status_code === 100) ask(model, sale.invoice_id, amount)
    return `${sale.invoice_id} ${(amount / 100).toFixed(2)}: ${answer.status_code}`
  }
  toString() {
    return `PanelRefund(sale ${this.pick}, ${this.share})`
  }
}

/** The issuer takes a sale's money back (any sale of the run). */
export class Chargeback extends Step {
  constructor(readonly pick: number) {
    super()
  }
  check(model: Readonly<Model>) {
    return model.checkouts.length > 0
  }
  async act(model: Model, world: World) {
    const sales = (await refundableSales(model, world)).filter((sale) => !sale.chargeback_at_ms)
    if (!sales.length) return "no sale to charge back"
    const sale = sales[this.pick % sales.length]
    await control(world, "chargeback", { invoice_id: sale.invoice_id })
    return sale.invoice_id
  }
  toString() {
    return `Chargeback(sale ${this.pick})`
  }
}

/** The store moves on 21 days: the gateway cancels every pre-authorization left open (20 days). */
export class ExpirePreAuthorizations extends Step {
  check(model: Readonly<Model>) {
    return model.clockMoves < 1 && model.checkouts.length > 0
  }
  async act(model: Model, world: World) {
    model.clockMoves++
    const clock = await control(world, "clock", { advance_seconds: 21 * 86400 })
    return `gateway clock ${clock.now}`
  }
  toString() {
    return "ExpirePreAuthorizations()"
  }
}

// ---- merchant ------------------------------------------------------------------------------

async function orderPayment(model: Model, world: World, pick: number) {
  const orders = ordered(model)
  if (!orders.length) return null
  const checkout = orders[pick % orders.length]
  const payments = await medusaPayments(world, [checkout.collectionId])
  const payment = payments.find((p) => p.order_id === checkout.orderId) ?? payments[0]
  return payment ? { checkout, payment } : null
}

/** The merchant refunds an order's payment from Medusa's admin. */
export class AdminRefund extends Step {
  constructor(readonly pick: number, readonly share: "full" | "half") {
    super()
  }
  check(model: Readonly<Model>) {
    return ordered(model as Model).length > 0
  }
  async act(model: Model, world: World) {
    const found = await orderPayment(model, world, this.pick)
    if (!found) return "no payment"
    const { payment } = found
    const left = payment.captured_minor - payment.refunded_minor
    if (left <= 0) return `${payment.id}: nothing captured to refund`
    const amount = this.share === "full" ? left : Math.max(1, Math.floor(left / 2))
    const done = await answer(world.api.post(`/admin/payments/${payment.id}/refund`, { amount: amount / 100 }, world.admin))
    if (done.status === 200 && payment.invoice_id) ask(model, payment.invoice_id, amount)
    return `${payment.id} (${payment.invoice_id}) ${(amount / 100).toFixed(2)}: ${done.status} ${done.status === 200 ? "" : done.data?.message ?? ""}`
  }
  toString() {
    return `AdminRefund(order ${this.pick}, ${this.share})`
  }
}

/** The merchant captures a pre-authorization from the admin, in full or in part (the plugin's partial-capture route). */
export class CapturePreAuthorization extends Step {
  constructor(readonly pick: number, readonly share: "full" | "part") {
    super()
  }
  check(model: Readonly<Model>) {
    return ordered(model as Model).length > 0
  }
  async act(model: Model, world: World) {
    const found = await orderPayment(model, world, this.pick)
    if (!found) return "no payment"
    const { payment } = found
    if (payment.captured_minor > 0 || payment.canceled) return `${payment.id}: already captured or cancelled`
    const done =
      this.share === "full"
        ? await answer(world.api.post(`/admin/payments/${payment.id}/capture`, {}, world.admin))
        : await answer(world.api.post(`/admin/sipay/payments/${payment.id}/capture`, { amount: "10.00" }, world.admin))
    return `${payment.id}: ${done.status} ${done.status === 200 ? "" : done.data?.message ?? ""}`
  }
  toString() {
    return `CapturePreAuthorization(order ${this.pick}, ${this.share})`
  }
}

/** The merchant cancels an order in Medusa: Medusa refunds what was captured (through the provider) or cancels the reservation. */
export class CancelOrder extends Step {
  constructor(readonly pick: number) {
    super()
  }
  check(model: Readonly<Model>) {
    return ordered(model as Model).length > 0
  }
  async act(model: Model, world: World) {
    const found = await orderPayment(model, world, this.pick)
    if (!found) return "no payment"
    const { checkout, payment } = found
    const left = payment.captured_minor - payment.refunded_minor
    const done = await answer(world.api.post(`/admin/orders/${checkout.orderId}/cancel`, {}, world.admin))
    // Medusa's cancel gives back what is captured and not yet refunded: the merchant asked for it.
    if (done.status === 200 && payment.invoice_id && left > 0) ask(model, payment.invoice_id, left)
    return `${checkout.orderId}: ${done.status} ${done.status === 200 ? "" : done.data?.message ?? ""}`
  }
  toString() {
    return `CancelOrder(order ${this.pick})`
  }
}

/** The store owner switches between charging at once and pre-authorizing (Settings > Sipay). */
export class SetCaptureMode extends Step {
  constructor(readonly mode: "auth" | "preauth") {
    super()
  }
  check(model: Readonly<Model>) {
    return model.captureMode !== this.mode
  }
  async act(model: Model, world: World) {
    const done = await answer(world.api.post(`/admin/sipay/settings`, { capture: this.mode === "auth" }, world.admin))
    if (done.status === 200) model.captureMode = this.mode
    return `${done.status}`
  }
  toString() {
    return `SetCaptureMode(${this.mode})`
  }
}

// ---- jobs and faults -----------------------------------------------------------------------

export class LedgerSync extends Step {
  check() {
    return true
  }
  async act(_model: Model, world: World) {
    const report = await runLedgerSync(world)
    return JSON.stringify(report.actions)
  }
  toString() {
    return "LedgerSync()"
  }
}

export class Reconcile extends Step {
  check() {
    return true
  }
  async act(_model: Model, world: World) {
    return JSON.stringify((await runReconciliation(world)).statuses)
  }
  toString() {
    return "Reconcile()"
  }
}

export class PreAuthorizationWatch extends Step {
  check() {
    return true
  }
  async act(_model: Model, world: World) {
    const report = await runPreAuthorizationWatch(world)
    return `cancelled ${report.cancelled.length}, captured ${report.captured.length}`
  }
  toString() {
    return "PreAuthorizationWatch()"
  }
}

/** The gateway misbehaves on its next call of one operation. */
export class GatewayFault extends Step {
  constructor(readonly operation: "paySmart2D" | "checkstatus" | "refund" | "confirmPayment", readonly kind: "http_500" | "drop_connection" | "charge_then_drop" | "latency") {
    super()
  }
  check() {
    return this.kind !== "charge_then_drop" || this.operation === "paySmart2D"
  }
  async act(_model: Model, world: World) {
    await control(world, "faults", { operation: this.operation, kind: this.kind, times: 1, ...(this.kind === "latency" ? { ms: 1500 } : {}) })
    return "set"
  }
  toString() {
    return `GatewayFault(${this.operation}, ${this.kind})`
  }
}

/** Held webhooks delivered, the jobs run, every grace period passed: then the eventual invariants must hold too. */
export class Quiesce extends Step {
  check() {
    return true
  }
  async act(model: Model, world: World) {
    return quiesce(model, world)
  }
  toString() {
    return "Quiesce()"
  }
}

// ---- the generator -------------------------------------------------------------------------

const slot = fc.integer({ min: 0, max: 2 })
const pick = fc.nat({ max: 7 })

/** A shopper opening a checkout: every sequence starts with a few. */
export const checkoutArbitrary = fc
  .tuple(slot, fc.constantFrom<"3d" | "2d">("3d", "2d"), fc.tuple(fc.integer({ min: 1, max: 2 }), fc.integer({ min: 0, max: 1 })))
  .map(([s, p, q]) => new NewCheckout(s, p, q))

/** Weighted: shoppers act most, the merchant and the gateway less, jobs and faults in between. */
export const commandArbitraries: fc.Arbitrary<Command>[] = [
  ...Array(2).fill(checkoutArbitrary),
  ...Array(3).fill(slot.map((s) => new OpenForm(s))),
  ...Array(4).fill(
    fc
      .tuple(slot, pick, fc.constantFrom<"good" | "declining">("good", "good", "good", "declining"), fc.constantFrom<"confirm" | "cancel">("confirm", "confirm", "confirm", "cancel"), fc.constantFrom<"deliver" | "lose">("deliver", "deliver", "lose"))
      .map(([s, t, c, b, r]) => new PayTab(s, t, c, b, r))
  ),
  ...Array(3).fill(fc.tuple(slot, fc.integer({ min: 1, max: 3 }), fc.constantFrom<"good" | "declining">("good", "good", "declining")).map(([s, n, c]) => new PayDirect(s, n, c))),
  slot.map((s) => new ChangeCart(s)),
  slot.map((s) => new CompleteCart(s)),
  fc.constantFrom<"duplicate" | "delay" | "drop">("duplicate", "delay", "drop").map((k) => new WebhookFault(k)),
  ...Array(2).fill(fc.tuple(pick, fc.constantFrom<"full" | "half">("full", "half")).map(([p, s]) => new PanelRefund(p, s))),
  pick.map((p) => new Chargeback(p)),
  fc.constant(new ExpirePreAuthorizations()),
  ...Array(2).fill(fc.tuple(pick, fc.constantFrom<"full" | "half">("full", "half")).map(([p, s]) => new AdminRefund(p, s))),
  fc.tuple(pick, fc.constantFrom<"full" | "part">("full", "part")).map(([p, s]) => new CapturePreAuthorization(p, s)),
  pick.map((p) => new CancelOrder(p)),
  fc.constantFrom<"auth" | "preauth">("auth", "preauth").map((m) => new SetCaptureMode(m)),
  ...Array(2).fill(fc.constant(new LedgerSync())),
  fc.constant(new Reconcile()),
  fc.constant(new PreAuthorizationWatch()),
  fc
    .tuple(fc.constantFrom<"paySmart2D" | "checkstatus" | "refund" | "confirmPayment">("paySmart2D", "checkstatus", "refund", "confirmPayment"), fc.constantFrom<"http_500" | "drop_connection" | "charge_then_drop" | "latency">("http_500", "drop_connection", "charge_then_drop", "latency"))
    .map(([o, k]) => new GatewayFault(o, k)),
  fc.constant(new Quiesce()),
]
