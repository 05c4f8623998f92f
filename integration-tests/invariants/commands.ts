import fc from "fast-check"
import { confirmAtBank, createCart, DECLINING_CARD, issueThreeDForm, PAYING_CARD, payAtGateway, returnToStore, startPaymentSession, storeHeaders } from "../harness/shopper"
import { customerCart, deleteAtGateway, gatewayCards } from "../harness/customers"
import { CARD_CONSENT } from "../../src/lib/saved-cards/consent"
import { ask, isRunSale, ordered, type Model } from "./model"
import { safetyViolations } from "./oracle"
import { quiesce, runLedgerSync, runPreAuthorizationWatch, runReconciliation } from "./quiesce"
import { collectionsOfOrders, control, customerNumberOf, medusaPayments, ordersOfCarts, refundInPanel, type World } from "./world"

/**
 * The commands of the money-invariant suite: a shopper, the gateway, the merchant, the plugin's jobs
 * and faults, each acting on the real system over HTTP (or the job as Medusa runs it). After every
 * command the safety invariants are checked; a failure names the command and what was seen.
 */
type Command = fc.AsyncCommand<Model, World>

const PROVIDER_IDS = { "3d": "pp_sipay_sipay", "2d": "pp_sipay-2d_sipay" } as const

abstract class Step implements Command {
  abstract check(model: Readonly<Model>): boolean
  abstract act(model: Model, world: World): Promise<string>
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

const openCheckouts = (model: Model, provider?: "3d" | "2d") => model.checkouts.filter((checkout) => checkout.orderId === null && (!provider || checkout.provider === provider))
const choose = <T>(list: T[], pick: number): T | undefined => (list.length ? list[pick % list.length] : undefined)

/** The headers a checkout's storefront sends: its signed-in customer's, or a guest's. */
const headersOf = (world: World, checkout: { customer: number | null }) => (checkout.customer === null ? storeHeaders(world.store) : world.customers[checkout.customer].headers)

/** A shopper (a guest, or signed-in customer 0 or 1) fills a cart and chooses card payment: 3D (own form) or direct. A few carts are open at once. */
export class NewCheckout extends Step {
  constructor(readonly provider: "3d" | "2d", readonly quantities: number[], readonly customer: number | null = null) {
    super()
  }
  check(model: Readonly<Model>) {
    return openCheckouts(model as Model).length < 3
  }
  async act(model: Model, world: World) {
    const headers = headersOf(world, this)
    const cart = this.customer === null ? await createCart(world.api, world.store, this.quantities) : await customerCart(world.api, world.store, world.customers[this.customer], this.quantities)
    const { collectionId, session } = await startPaymentSession(world.api, world.store, cart.id, PROVIDER_IDS[this.provider], undefined, headers)
    model.checkouts.push({ cartId: cart.id, customer: this.customer, collectionId, provider: this.provider, sessionId: session.id, sessionIds: [session.id], tabs: [], orderId: null, quantities: this.quantities })
    return `cart ${cart.id} ${cart.total}${this.customer === null ? "" : ` of customer ${this.customer}`}, session ${session.id}`
  }
  toString() {
    return `NewCheckout(${this.provider}, [${this.quantities}]${this.customer === null ? "" : `, customer ${this.customer}`})`
  }
}

/** One more tab with the own 3D form on an open 3D checkout: a new attempt on its session. */
export class OpenForm extends Step {
  constructor(readonly pick: number) {
    super()
  }
  private candidates(model: Model) {
    return openCheckouts(model, "3d").filter((checkout) => checkout.tabs.filter((tab) => tab.sessionId === checkout.sessionId).length < 3)
  }
  check(model: Readonly<Model>) {
    return this.candidates(model as Model).length > 0
  }
  async act(model: Model, world: World): Promise<string> {
    const checkout = choose(this.candidates(model), this.pick)!
    const form = await issueThreeDForm(world.api, world.store, checkout.sessionId).catch((error: Error) => error)
    if (form instanceof Error) return `${checkout.cartId} refused: ${form.message.slice(0, 200)}`
    checkout.tabs.push({ invoiceId: form.invoice_id, sessionId: checkout.sessionId, used: false, form })
    return `tab ${form.invoice_id}`
  }
  toString() {
    return `OpenForm(${this.pick})`
  }
}

/** A shopper pays (or declines, or cancels) an open tab at the bank page, and comes back, or does not: any tab of the run, its cart ordered meanwhile or not. */
export class PayTab extends Step {
  constructor(readonly pick: number, readonly card: "good" | "declining", readonly bank: "confirm" | "cancel", readonly redirect: "deliver" | "lose") {
    super()
  }
  private tabs(model: Model) {
    return model.checkouts.flatMap((checkout) => checkout.tabs.filter((tab) => !tab.used))
  }
  check(model: Readonly<Model>) {
    return this.tabs(model as Model).length > 0
  }
  async act(model: Model, world: World) {
    const tab = choose(this.tabs(model), this.pick)!
    tab.used = true
    const result = await payAtGateway(tab.form, this.card === "good" ? PAYING_CARD : DECLINING_CARD, { cancel: this.bank === "cancel" }).catch((error: Error) => error)
    if (result instanceof Error) return `${tab.invoiceId} at the gateway: ${result.message.slice(0, 200)}`
    if (this.redirect === "lose") return `${tab.invoiceId} at the bank: ${result.fields.status_code ?? result.fields.error_code ?? "?"}; the redirect is lost`
    const landing = await returnToStore(result)
    return `${tab.invoiceId}: back at ${landing.pathname}${landing.searchParams.get("error") ? ` (${landing.searchParams.get("error")})` : ""}`
  }
  toString() {
    return `PayTab(${this.pick}, ${this.card}, ${this.bank}, ${this.redirect})`
  }
}

/** A shopper opens the own 3D form on an open 3D checkout and pays it at once (the common case; OpenForm and PayTab interleave tabs). */
export class PayNewTab extends Step {
  private readonly open: OpenForm
  private readonly pay: PayTab
  constructor(readonly pick: number, readonly card: "good" | "declining", readonly bank: "confirm" | "cancel", readonly redirect: "deliver" | "lose") {
    super()
    this.open = new OpenForm(pick)
    this.pay = new PayTab(0, card, bank, redirect)
  }
  check(model: Readonly<Model>) {
    return this.open.check(model)
  }
  async act(model: Model, world: World) {
    const opened = await this.open.act(model, world)
    const tab = model.checkouts.flatMap((checkout) => checkout.tabs).at(-1)
    if (!tab || tab.used || !opened.startsWith("tab ")) return opened
    // The tab just opened is the newest unused one: pay exactly it.
    const others = model.checkouts.flatMap((checkout) => checkout.tabs.filter((t) => !t.used && t !== tab))
    others.forEach((t) => (t.used = true))
    try {
      return `${opened}; ${await this.pay.act(model, world)}`
    } finally {
      others.forEach((t) => (t.used = false))
    }
  }
  toString() {
    return `PayNewTab(${this.pick}, ${this.card}, ${this.bank}, ${this.redirect})`
  }
}

/**
 * A shopper pays a new tab (the redirect lost: the sale webhook settles it) while another tab of the
 * same checkout asks for the payment form again and again, for up to `ms`: new attempts start on the
 * session while the paid one becomes an order.
 */
export class FormsWhileSettling extends Step {
  private readonly pay: PayNewTab
  constructor(readonly pick: number, readonly ms: number) {
    super()
    this.pay = new PayNewTab(pick, "good", "confirm", "lose")
  }
  check(model: Readonly<Model>) {
    return this.pay.check(model)
  }
  async act(model: Model, world: World) {
    const paid = await this.pay.act(model, world)
    const tab = model.checkouts.flatMap((checkout) => checkout.tabs).at(-1)
    const checkout = model.checkouts.find((c) => c.tabs.includes(tab!))
    if (!tab || !checkout) return paid
    const seen: string[] = []
    const until = Date.now() + this.ms
    while (Date.now() < until) {
      const form = await issueThreeDForm(world.api, world.store, checkout.sessionId).catch((error: Error) => error)
      if (form instanceof Error) {
        seen.push(`refused (${/"message":"([^"]*)"/.exec(form.message)?.[1] ?? form.message.slice(0, 160)})`)
        break
      }
      checkout.tabs.push({ invoiceId: form.invoice_id, sessionId: checkout.sessionId, used: false, form })
      seen.push(form.invoice_id)
    }
    return `${paid}; forms meanwhile: ${seen.join(", ")}`
  }
  toString() {
    return `FormsWhileSettling(${this.pick}, ${this.ms} ms)`
  }
}

/**
 * A direct payment submitted 1 to 3 times at once (a double click, a retry after a timeout), on a 2D
 * checkout (its cart ordered meanwhile or not); a signed-in customer may opt in to save the card.
 */
export class PayDirect extends Step {
  constructor(readonly pick: number, readonly times: number, readonly card: "good" | "declining", readonly save = false, readonly installments: 1 | 3 | 6 = 1) {
    super()
  }
  private candidates(model: Model) {
    const open = openCheckouts(model, "2d")
    return open.length ? open : model.checkouts.filter((checkout) => checkout.provider === "2d")
  }
  check(model: Readonly<Model>) {
    return this.candidates(model as Model).length > 0
  }
  async act(model: Model, world: World) {
    const checkout = choose(this.candidates(model), this.pick)!
    const card = this.card === "good" ? PAYING_CARD : DECLINING_CARD
    const save = this.save && checkout.customer !== null
    const body = {
      cart_id: checkout.cartId,
      installments_number: this.installments,
      card: { holder_name: card.cc_holder_name, number: card.cc_no, expiry_month: card.expiry_month, expiry_year: card.expiry_year, cvv: card.cvv },
      ...(save ? { save_card: { consent_version: CARD_CONSENT.version } } : {}),
    }
    const answers = await Promise.all(
      Array.from({ length: this.times }, () => answer(world.api.post(`/store/sipay/payment-sessions/${checkout.sessionId}/pay-2d`, body, headersOf(world, checkout))))
    )
    // An installment fee line changed the cart's total: the plugin paid on a new session of the same cart.
    for (const moved of answers.map((a) => a.data?.session_id).filter((id): id is string => typeof id === "string" && id !== checkout.sessionId)) {
      checkout.sessionId = moved
      if (!checkout.sessionIds.includes(moved)) checkout.sessionIds.push(moved)
    }
    return `${checkout.cartId}: ${answers.map((a) => `${a.status} ${a.data?.status ?? a.data?.code ?? ""} ${a.data?.invoice_id ?? a.data?.message ?? ""}${a.data?.saved_card ? ` saved ${a.data.saved_card.masked_number}` : ""}`).join("; ")}`
  }
  toString() {
    return `PayDirect(${this.pick}, x${this.times}, ${this.card}${this.save ? ", save" : ""}${this.installments > 1 ? `, ${this.installments} installments` : ""})`
  }
}

// ---- saved cards ---------------------------------------------------------------------------

type SavedCardView = { id: string; masked_number: string }

async function savedCardsOf(world: World, customer: number): Promise<SavedCardView[]> {
  return (await world.api.get("/store/customers/me/sipay-cards", world.customers[customer].headers)).data.saved_cards
}

/** The run's sales of a session at the gateway (its attempts' invoice ids start with the session id). */
async function salesOfSession(world: World, sessionId: string): Promise<number> {
  return ((await control(world, "sales")) as { invoice_id: string }[]).filter((sale) => sale.invoice_id.startsWith(`${sessionId}_`)).length
}

/**
 * A signed-in customer pays an open checkout of theirs with a saved card: their own (3D: the bank page,
 * confirmed or cancelled, the redirect delivered or lost; direct: in one step), another customer's, or
 * one they just deleted. The last two must be refused with nothing charged at the gateway.
 */
export class PaySavedCard extends Step {
  constructor(readonly pick: number, readonly whose: "own" | "other" | "deleted", readonly bank: "confirm" | "cancel", readonly redirect: "deliver" | "lose", readonly installments: 1 | 3 | 6 = 1) {
    super()
  }
  private candidates(model: Model) {
    return openCheckouts(model).filter((checkout) => checkout.customer !== null)
  }
  check(model: Readonly<Model>) {
    return this.candidates(model as Model).length > 0
  }
  async act(model: Model, world: World) {
    const checkout = choose(this.candidates(model), this.pick)!
    const owner = this.whose === "other" ? 1 - checkout.customer! : checkout.customer!
    const [card] = await savedCardsOf(world, owner)
    if (!card) return `customer ${owner} has no saved card`
    if (this.whose === "deleted") await world.api.delete(`/store/customers/me/sipay-cards/${card.id}`, world.customers[owner].headers)
    const before = await salesOfSession(world, checkout.sessionId)
    const paid = await answer(
      world.api.post(`/store/sipay/payment-sessions/${checkout.sessionId}/pay-saved-card`, { cart_id: checkout.cartId, card_id: card.id, installments_number: this.installments }, headersOf(world, checkout))
    )
    // An installment fee line changed the cart's total: the plugin paid on a new session of the same cart.
    const moved = paid.data?.session_id
    if (typeof moved === "string" && moved !== checkout.sessionId) {
      checkout.sessionId = moved
      if (!checkout.sessionIds.includes(moved)) checkout.sessionIds.push(moved)
    }
    if (this.whose !== "own") {
      const after = await salesOfSession(world, checkout.sessionId)
      if (paid.status !== 404 || after !== before) throw new Error(`a ${this.whose} card (${card.masked_number}) on ${checkout.cartId} answered ${paid.status} ${JSON.stringify(paid.data).slice(0, 200)}; gateway sales of the session ${before} -> ${after}`)
      return `${checkout.cartId}: ${this.whose} card refused, nothing charged`
    }
    if (paid.data?.type !== "bank_page") return `${checkout.cartId} ${card.masked_number}: ${paid.status} ${paid.data?.status ?? ""} ${paid.data?.invoice_id ?? paid.data?.message ?? ""}`
    const result = await confirmAtBank(paid.data.html, { cancel: this.bank === "cancel" })
    if (this.redirect === "lose") return `${paid.data.invoice_id} at the bank: ${result.fields.status_code ?? "?"}; the redirect is lost`
    const landing = await returnToStore(result)
    return `${paid.data.invoice_id} ${card.masked_number}: back at ${landing.pathname}`
  }
  toString() {
    return `PaySavedCard(${this.pick}, ${this.whose}, ${this.bank}, ${this.redirect}${this.installments > 1 ? `, ${this.installments} installments` : ""})`
  }
}

/** A customer's saved card is deleted: by the customer (store route) or in the merchant panel (the gateway's deleteCard). */
export class DeleteSavedCard extends Step {
  constructor(readonly customer: number, readonly where: "store" | "gateway") {
    super()
  }
  check() {
    return true
  }
  async act(_model: Model, world: World) {
    const [card] = await savedCardsOf(world, this.customer)
    if (!card) return "no saved card"
    if (this.where === "store") {
      const done = await answer(world.api.delete(`/store/customers/me/sipay-cards/${card.id}`, world.customers[this.customer].headers))
      return `${card.masked_number}: ${done.status}`
    }
    const number = await customerNumberOf(world, world.customers[this.customer].id)
    const [atGateway] = number ? await gatewayCards(world.stack, number) : []
    if (!number || !atGateway) return "not at the gateway"
    const done = await deleteAtGateway(world.stack, number, atGateway.card_token)
    const left = await savedCardsOf(world, this.customer)
    if (left.some((entry) => entry.id === card.id)) throw new Error(`a card deleted at the gateway is still in customer ${this.customer}'s list`)
    return `${card.masked_number} deleted at the gateway: ${done.status_code}`
  }
  toString() {
    return `DeleteSavedCard(customer ${this.customer}, ${this.where})`
  }
}

/** The shopper adds a line after a form was issued: Medusa deletes the session, the storefront starts another. */
export class ChangeCart extends Step {
  constructor(readonly pick: number) {
    super()
  }
  check(model: Readonly<Model>) {
    return openCheckouts(model as Model).length > 0
  }
  async act(model: Model, world: World) {
    const checkout = choose(openCheckouts(model), this.pick)!
    const product = world.store.products[2]
    const added = await answer(world.api.post(`/store/carts/${checkout.cartId}/line-items`, { variant_id: product.variantId, quantity: 1 }, storeHeaders(world.store)))
    if (added.status !== 200) return `${checkout.cartId} refused ${added.status}: ${added.data?.message}`
    const { collectionId, session } = await startPaymentSession(world.api, world.store, checkout.cartId, PROVIDER_IDS[checkout.provider], undefined, headersOf(world, checkout)).catch(() => ({ collectionId: checkout.collectionId, session: null as any }))
    if (session) {
      checkout.sessionId = session.id
      checkout.sessionIds.push(session.id)
      checkout.collectionId = collectionId
    }
    return `${checkout.cartId} total now ${added.data.cart.total}, session ${checkout.sessionId}`
  }
  toString() {
    return `ChangeCart(${this.pick})`
  }
}

/** The storefront's own complete-cart call, racing whatever the plugin does. */
export class CompleteCart extends Step {
  constructor(readonly pick: number) {
    super()
  }
  check(model: Readonly<Model>) {
    return openCheckouts(model as Model).length > 0
  }
  async act(model: Model, world: World) {
    const checkout = choose(openCheckouts(model), this.pick)!
    const done = await answer(world.api.post(`/store/carts/${checkout.cartId}/complete`, {}, storeHeaders(world.store)))
    return `${checkout.cartId}: ${done.status} ${done.data?.type ?? ""} ${done.data?.order?.id ?? done.data?.error?.message ?? done.data?.message ?? ""}`.slice(0, 200)
  }
  toString() {
    return `CompleteCart(${this.pick})`
  }
}

/**
 * A shopper who comes back (the checkout page, the failure URL, the hosted page) asks how their payment
 * stands, 1 or 2 times at once: the plugin settles the open attempt on the spot from the gateway.
 */
export class ShopperComesBack extends Step {
  constructor(readonly pick: number, readonly times: number) {
    super()
  }
  check(model: Readonly<Model>) {
    return model.checkouts.length > 0
  }
  async act(model: Model, world: World) {
    const checkout = choose(model.checkouts, this.pick)!
    const answers = await Promise.all(
      Array.from({ length: this.times }, () => answer(world.api.post(`/store/sipay/payment-sessions/${checkout.sessionId}/status`, { cart_id: checkout.cartId }, headersOf(world, checkout))))
    )
    return `${checkout.cartId}: ${answers.map((a) => `${a.status} ${a.data?.status ?? ""} ${a.data?.order_id ?? a.data?.code ?? ""}`).join("; ")}`
  }
  toString() {
    return `ShopperComesBack(${this.pick}, x${this.times})`
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
  const sales = (await control(world, "sales")) as any[]
  return sales.filter((sale) => isRunSale(model, sale) && sale.state === "completed" && sale.captured_minor > sale.refunded_minor)
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
    // Any captured sale of the run, a given-back one too (the issuer does not know the merchant refunded it).
    const sales = ((await control(world, "sales")) as any[]).filter((sale) => isRunSale(model, sale) && sale.state === "completed" && sale.captured_minor > 0 && !sale.chargeback_at_ms)
    if (!sales.length) return "no sale to charge back"
    const sale = sales[this.pick % sales.length]
    await control(world, "chargeback", { invoice_id: sale.invoice_id })
    return sale.invoice_id
  }
  toString() {
    return `Chargeback(sale ${this.pick})`
  }
}

/** Sandbox clock moves in this process: each sequence may move it once, the whole run a bounded number of times (test cards expire). */
let clockMovesInRun = 0
const CLOCK_MOVES_PER_RUN = 12

/** The store moves on 21 days: the gateway cancels every pre-authorization left open (20 days). */
export class ExpirePreAuthorizations extends Step {
  check(model: Readonly<Model>) {
    return model.clockMoves < 1 && model.checkouts.length > 0 && clockMovesInRun < CLOCK_MOVES_PER_RUN
  }
  async act(model: Model, world: World) {
    model.clockMoves++
    clockMovesInRun++
    const clock = await control(world, "clock", { advance_seconds: 21 * 86400 })
    return `gateway clock ${clock.now}`
  }
  toString() {
    return "ExpirePreAuthorizations()"
  }
}

// ---- merchant ------------------------------------------------------------------------------

/** One of the run's orders and the Sipay payment on it (Medusa's tables): the one not cancelled, else any. */
async function orderPayment(model: Model, world: World, pick: number) {
  const orders = ordered(model)
  if (!orders.length) return null
  const { orderId } = orders[pick % orders.length]
  const collections = (await collectionsOfOrders(world, [orderId])).get(orderId) ?? []
  const payments = (await medusaPayments(world, collections)).filter((p) => p.invoice_id !== null)
  const payment = payments.find((p) => !p.canceled) ?? payments[0]
  return payment ? { orderId, payment } : null
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

/** The merchant captures a pre-authorization from the admin: in full, or part of it through the plugin's route or Medusa's own. */
export class CapturePreAuthorization extends Step {
  constructor(readonly pick: number, readonly share: "full" | "part" | "medusa_part") {
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
      this.share === "part"
        ? await answer(world.api.post(`/admin/sipay/payments/${payment.id}/capture`, { amount: "10.00" }, world.admin))
        : await answer(world.api.post(`/admin/payments/${payment.id}/capture`, this.share === "medusa_part" ? { amount: 10 } : {}, world.admin))
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
    const { orderId, payment } = found
    const left = payment.captured_minor - payment.refunded_minor
    const done = await answer(world.api.post(`/admin/orders/${orderId}/cancel`, {}, world.admin))
    // Medusa's cancel gives back what is captured and not yet refunded: the merchant asked for it.
    if (done.status === 200 && payment.invoice_id && left > 0) ask(model, payment.invoice_id, left)
    return `${orderId}: ${done.status} ${done.status === 200 ? "" : done.data?.message ?? ""}`
  }
  toString() {
    return `CancelOrder(order ${this.pick})`
  }
}

/** An order taken by phone: a draft order, its single-use payment link e-mailed, paid on the gateway's page (by one payer, or two at once). */
export class PhoneOrderPaid extends Step {
  constructor(readonly payers: 1 | 2) {
    super()
  }
  check(model: Readonly<Model>) {
    return model.phoneOrders.length < 2
  }
  async act(model: Model, world: World) {
    const address = { first_name: "Mehmet", last_name: "Kaya", address_1: "Bağdat Cd. 5", city: "İstanbul", country_code: "tr", postal_code: "34728", phone: "5559876543" }
    const draft = await answer(
      world.api.post(
        "/admin/draft-orders",
        { email: "phone@example.com", region_id: world.store.regionId, sales_channel_id: world.store.salesChannelId, items: [{ variant_id: world.store.products[0].variantId, quantity: 1 }], shipping_address: address, billing_address: address },
        world.admin
      )
    )
    if (draft.status !== 200) return `draft refused ${draft.status}: ${draft.data?.message}`
    const orderId = draft.data.draft_order.id as string
    const made = await answer(world.api.post(`/admin/sipay/draft-orders/${orderId}/payment-link`, {}, world.admin))
    if (made.status !== 201) return `link refused ${made.status}: ${made.data?.message}`
    const link = made.data.order_payment_links[0] as { dpl_id: number; link: string }
    model.phoneOrders.push({ orderId, dplId: Number(link.dpl_id), link: link.link })
    const results = await Promise.all(Array.from({ length: this.payers }, () => payAtGateway({ action: link.link, fields: {} }, PAYING_CARD).then(() => "paid", (error: Error) => `refused: ${error.message.slice(0, 80)}`)))
    return `${orderId} link ${link.dpl_id}: ${results.join("; ")}`
  }
  toString() {
    return `PhoneOrderPaid(${this.payers} payer${this.payers > 1 ? "s" : ""})`
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

/** Refunds the gateway made that are not the plugin's give-backs (whose refund_transaction_id is rev_<invoice>). */
async function refundsOtherThanGiveBacks(world: World): Promise<number> {
  const sales = (await control(world, "sales")) as { refunds: { refund_transaction_id: string | null }[] }[]
  return sales.reduce((count, sale) => count + sale.refunds.filter((refund) => !String(refund.refund_transaction_id ?? "").startsWith("rev_")).length, 0)
}

/** The ledger job; recording is not refunding: no refund reaches the gateway while it runs (a give-back settling meanwhile aside). */
export class LedgerSync extends Step {
  check() {
    return true
  }
  async act(model: Model, world: World) {
    const before = await refundsOtherThanGiveBacks(world)
    const report = await runLedgerSync(world, model)
    const sent = (await refundsOtherThanGiveBacks(world)) - before
    if (sent !== 0) throw new Error(`the ledger sync sent ${sent} refund(s) to the gateway: ${JSON.stringify(report.actions)}`)
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

const pick = fc.nat({ max: 7 })
const weighted = <T>(weight: number, arbitrary: fc.Arbitrary<T>) => Array<fc.Arbitrary<T>>(weight).fill(arbitrary)

/** A shopper opening a checkout: a guest most often, a signed-in customer (0 or 1) too; every sequence starts with a few. */
export const checkoutArbitrary = fc
  .tuple(fc.constantFrom<"3d" | "2d">("3d", "2d"), fc.tuple(fc.integer({ min: 1, max: 2 }), fc.integer({ min: 0, max: 1 })), fc.constantFrom<number | null>(null, null, 0, 1))
  .map(([provider, quantities, customer]) => new NewCheckout(provider, quantities, customer))

/** Weighted: shoppers act most, the merchant and the gateway less, jobs and faults in between. */
export const commandArbitraries: fc.Arbitrary<Command>[] = [
  ...weighted(2, checkoutArbitrary),
  ...weighted(4, pick.map((p) => new OpenForm(p))),
  ...weighted(
    6,
    fc
      .tuple(pick, fc.constantFrom<"good" | "declining">("good", "good", "good", "declining"), fc.constantFrom<"confirm" | "cancel">("confirm", "confirm", "confirm", "cancel"), fc.constantFrom<"deliver" | "lose">("deliver", "deliver", "lose"))
      .map(([p, c, b, r]) => new PayTab(p, c, b, r))
  ),
  ...weighted(
    5,
    fc
      .tuple(pick, fc.constantFrom<"good" | "declining">("good", "good", "good", "declining"), fc.constantFrom<"confirm" | "cancel">("confirm", "confirm", "confirm", "cancel"), fc.constantFrom<"deliver" | "lose">("deliver", "deliver", "lose"))
      .map(([p, c, b, r]) => new PayNewTab(p, c, b, r))
  ),
  pick.map((p) => new FormsWhileSettling(p, 1500)),
  ...weighted(
    5,
    fc
      .tuple(pick, fc.integer({ min: 1, max: 3 }), fc.constantFrom<"good" | "declining">("good", "good", "declining"), fc.boolean(), fc.constantFrom<1 | 3 | 6>(1, 1, 3, 6))
      .map(([p, n, c, save, i]) => new PayDirect(p, n, c, save, i))
  ),
  ...weighted(
    3,
    fc
      .tuple(
        pick,
        fc.constantFrom<"own" | "other" | "deleted">("own", "own", "own", "other", "deleted"),
        fc.constantFrom<"confirm" | "cancel">("confirm", "confirm", "cancel"),
        fc.constantFrom<"deliver" | "lose">("deliver", "deliver", "lose"),
        fc.constantFrom<1 | 3 | 6>(1, 1, 3, 6)
      )
      .map(([p, w, b, r, i]) => new PaySavedCard(p, w, b, r, i))
  ),
  fc.tuple(fc.constantFrom(0, 1), fc.constantFrom<"store" | "gateway">("store", "gateway")).map(([c, w]) => new DeleteSavedCard(c, w)),
  pick.map((p) => new ChangeCart(p)),
  pick.map((p) => new CompleteCart(p)),
  ...weighted(2, fc.tuple(pick, fc.integer({ min: 1, max: 2 })).map(([p, n]) => new ShopperComesBack(p, n))),
  fc.constantFrom<"duplicate" | "delay" | "drop">("duplicate", "delay", "drop").map((k) => new WebhookFault(k)),
  ...weighted(2, fc.tuple(pick, fc.constantFrom<"full" | "half">("full", "half")).map(([p, s]) => new PanelRefund(p, s))),
  pick.map((p) => new Chargeback(p)),
  fc.constant(new ExpirePreAuthorizations()),
  ...weighted(2, fc.tuple(pick, fc.constantFrom<"full" | "half">("full", "half")).map(([p, s]) => new AdminRefund(p, s))),
  fc.tuple(pick, fc.constantFrom<"full" | "part" | "medusa_part">("full", "part", "medusa_part")).map(([p, s]) => new CapturePreAuthorization(p, s)),
  pick.map((p) => new CancelOrder(p)),
  fc.constantFrom<1 | 2>(1, 1, 2).map((n) => new PhoneOrderPaid(n)),
  fc.constantFrom<"auth" | "preauth">("auth", "preauth").map((m) => new SetCaptureMode(m)),
  ...weighted(2, fc.constant(new LedgerSync())),
  fc.constant(new Reconcile()),
  fc.constant(new PreAuthorizationWatch()),
  fc
    .tuple(fc.constantFrom<"paySmart2D" | "checkstatus" | "refund" | "confirmPayment">("paySmart2D", "checkstatus", "refund", "confirmPayment"), fc.constantFrom<"http_500" | "drop_connection" | "charge_then_drop" | "latency">("http_500", "drop_connection", "charge_then_drop", "latency"))
    .map(([o, k]) => new GatewayFault(o, k)),
  fc.constant(new Quiesce()),
]
