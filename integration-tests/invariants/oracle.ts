import { isRunSale, type Model } from "./model"
import { chargebackRecords, collectionsOfCarts, collectionsOfOrders, control, customerNumberOf, customerNumbersOfSessions, medusaPayments, ordersOfCarts, type GatewaySale, type MedusaPayment, type World } from "./world"

/**
 * The oracle. The gateway's truth comes only from the sandbox's records, Medusa's only from Medusa's
 * tables; which sale a Medusa payment records is the payment's own data. It never asks the plugin's
 * mapping, ledger or attempt table who owns a sale.
 */
export type Snapshot = {
  sales: GatewaySale[]
  payments: MedusaPayment[]
  ordersOfCart: Map<string, string[]>
}

export async function snapshot(world: World, model: Model): Promise<Snapshot> {
  const carts = model.checkouts.map((checkout) => checkout.cartId)
  const all = (await control(world, "sales")) as GatewaySale[]
  const sales = all.filter((sale) => isRunSale(model, sale))
  const [ofCarts, ofPhoneOrders] = await Promise.all([collectionsOfCarts(world, carts), collectionsOfOrders(world, model.phoneOrders.map((phone) => phone.orderId))])
  const collections = [...new Set([...ofCarts.values(), ...ofPhoneOrders.values()].flat())]
  const [payments, ordersOfCart] = await Promise.all([medusaPayments(world, collections), ordersOfCarts(world, carts)])
  return { sales, payments, ordersOfCart }
}

const money = (minor: number) => (minor / 100).toFixed(2)

/** The Medusa payment that records this sale (its data names the sale's invoice), if any. */
function paymentOf(snap: Snapshot, invoiceId: string): MedusaPayment | undefined {
  return snap.payments.find((payment) => payment.invoice_id === invoiceId && !payment.canceled) ?? snap.payments.find((payment) => payment.invoice_id === invoiceId)
}

/** What must hold after every command. Returns the violations, empty when none. */
export async function safetyViolations(world: World, model: Model, snap?: Snapshot): Promise<string[]> {
  const s = snap ?? (await snapshot(world, model))
  const problems: string[] = []
  for (const [cartId, orders] of s.ordersOfCart) {
    if (orders.length > 1) problems.push(`cart ${cartId} has ${orders.length} orders: ${orders.join(", ")}`)
  }
  for (const payment of s.payments) {
    if (payment.refunded_minor > payment.captured_minor) {
      problems.push(`payment ${payment.id} refunded ${money(payment.refunded_minor)} of ${money(payment.captured_minor)} captured`)
    }
    const asked = payment.invoice_id ? model.asked.get(payment.invoice_id) ?? 0 : 0
    if (payment.refunded_minor > asked) {
      problems.push(`payment ${payment.id} (sale ${payment.invoice_id}, order ${payment.order_id}) shows ${money(payment.refunded_minor)} refunded, the merchant refunded ${money(asked)}: ${payment.refund_notes.join(" | ")}`)
    }
  }
  // Every refund at the gateway was asked for: by the merchant, or the plugin's give-back of a sale no payment records.
  for (const sale of s.sales) {
    if (sale.refunded_minor === 0) continue
    const asked = model.asked.get(sale.invoice_id) ?? 0
    if (sale.refunded_minor <= asked) continue
    const recorded = paymentOf(s, sale.invoice_id)
    if (recorded) {
      problems.push(`sale ${sale.invoice_id} paid order ${recorded.order_id} and was refunded ${money(sale.refunded_minor)} at the gateway; the merchant asked for ${money(asked)}`)
    } else if (sale.refunded_minor !== sale.captured_minor) {
      problems.push(`sale ${sale.invoice_id} (no payment records it) was refunded ${money(sale.refunded_minor)} of ${money(sale.captured_minor)}: neither a full give-back nor asked for (${money(asked)})`)
    }
  }
  // A sale paid with a saved card paid its own customer's cart: the card's customer number is the number of the customer
  // whose cart the session pays (Medusa's tables); a guest's cart is never paid with a saved card.
  const savedCardSales = s.sales.filter((sale) => sale.saved_card)
  const sessionOf = (invoiceId: string) => invoiceId.slice(0, invoiceId.lastIndexOf("_"))
  const owners = await customerNumbersOfSessions(world, [...new Set(savedCardSales.map((sale) => sessionOf(sale.invoice_id)))])
  // A session Medusa deleted (an installment fee moved its cart to a new one) is no longer in its tables: its
  // cart is the checkout the model saw it start on, and that cart's customer is Medusa's.
  for (const session of new Set(savedCardSales.map((sale) => sessionOf(sale.invoice_id)))) {
    if (owners.has(session)) continue
    const checkout = model.checkouts.find((candidate) => candidate.sessionIds.includes(session))
    const number = checkout && checkout.customer !== null ? await customerNumberOf(world, world.customers[checkout.customer].id) : null
    owners.set(session, number ? [number] : [])
  }
  for (const sale of savedCardSales) {
    const numbers = owners.get(sessionOf(sale.invoice_id)) ?? []
    if (!numbers.includes(sale.saved_card!.customer_number)) {
      problems.push(`sale ${sale.invoice_id} was paid with saved card ${sale.saved_card!.id} of customer number ${sale.saved_card!.customer_number}; the cart is ${numbers.length ? `customer number ${numbers.join("/")}'s` : "a guest's"}`)
    }
  }
  // A chargeback is recorded on the order its sale paid, never on another.
  const charged = s.sales.filter((sale) => sale.chargeback_at_ms)
  for (const record of await chargebackRecords(world, charged.map((sale) => sale.invoice_id))) {
    const recorded = paymentOf(s, record.invoice_id)
    const expected = recorded?.order_id ?? null
    if (record.order_id !== expected) {
      problems.push(`chargeback of sale ${record.invoice_id} recorded on order ${record.order_id}; the sale ${expected ? `paid order ${expected}` : "paid no order"}`)
    }
  }
  return problems
}

const gatewayHeld = (sale: GatewaySale) => sale.captured_minor - sale.refunded_minor

/** What must hold once everything has settled (after the quiescence step). */
export async function eventualViolations(world: World, model: Model): Promise<string[]> {
  const s = await snapshot(world, model)
  const problems = await safetyViolations(world, model, s)
  for (const sale of s.sales) {
    if (sale.state !== "completed") continue
    const recorded = paymentOf(s, sale.invoice_id)
    if (recorded) {
      const medusaHeld = recorded.canceled && recorded.captured_minor === 0 ? 0 : recorded.captured_minor - recorded.refunded_minor
      if (medusaHeld !== gatewayHeld(sale)) {
        problems.push(
          `sale ${sale.invoice_id}: the gateway holds ${money(gatewayHeld(sale))} (captured ${money(sale.captured_minor)}, refunded ${money(sale.refunded_minor)}), Medusa's payment ${recorded.id} holds ${money(medusaHeld)} (captured ${money(recorded.captured_minor)}, refunded ${money(recorded.refunded_minor)})`
        )
      }
    } else if (sale.captured_minor > 0 && sale.refunded_minor !== sale.captured_minor) {
      problems.push(`sale ${sale.invoice_id} holds ${money(gatewayHeld(sale))} at the gateway and no Medusa payment records it (not given back)`)
    } else if (sale.captured_minor === 0 && sale.preauth?.state === "reserved") {
      problems.push(`sale ${sale.invoice_id} is a reservation at the gateway that no Medusa payment records (not released)`)
    }
  }
  // Every cart with a paid attempt has exactly one order, or every paid attempt of it was given back.
  for (const checkout of model.checkouts) {
    const paid = s.sales.filter((sale) => checkout.sessionIds.some((session) => sale.invoice_id.startsWith(`${session}_`)) && sale.state === "completed")
    if (!paid.length) continue
    const orders = s.ordersOfCart.get(checkout.cartId) ?? []
    const allGivenBack = paid.every((sale) => (sale.captured_minor > 0 ? sale.refunded_minor === sale.captured_minor : sale.preauth?.state !== "reserved"))
    if (orders.length !== 1 && !allGivenBack) {
      problems.push(`cart ${checkout.cartId} has ${orders.length} orders and paid sales ${paid.map((sale) => sale.invoice_id).join(", ")} not all given back`)
    }
  }
  // Every phone order whose link was paid holds one kept sale (a payment on the order records it), or every paid sale was given back.
  for (const phone of model.phoneOrders) {
    const paid = s.sales.filter((sale) => Number(sale.dpl_id) === phone.dplId && sale.state === "completed")
    if (!paid.length) continue
    const kept = paid.filter((sale) => s.payments.some((payment) => payment.invoice_id === sale.invoice_id && payment.order_id === phone.orderId))
    const allGivenBack = paid.every((sale) => sale.refunded_minor === sale.captured_minor)
    if (kept.length > 1 || (kept.length === 0 && !allGivenBack)) {
      problems.push(`phone order ${phone.orderId}: paid link sales ${paid.map((sale) => sale.invoice_id).join(", ")}, ${kept.length} recorded on the order, not all given back`)
    }
  }
  return problems
}
