import { decideLinkSale, type GatewaySale, type LinkTerms, type OrderNow } from "../settlement"

const link: LinkTerms = { amount: "299.80", currency_code: "TRY", settled_invoice_id: null }
const sale: GatewaySale = { invoice_id: "dpl7_1", outcome: "captured", amount: "299.80", currency_code: "TRY" }
const order: OrderNow = { status: "draft", total: "299.8", currency_code: "try", paid_otherwise: false }

describe("what becomes of a phone order link's sale", () => {
  it("settles the first captured sale of exactly the link's amount and currency, for an open, unpaid, unchanged order", () => {
    expect(decideLinkSale(link, sale, order)).toEqual({ action: "settle" })
    expect(decideLinkSale(link, sale, { ...order, status: "pending" })).toEqual({ action: "settle" })
  })

  it("gives back a second payment of a link that already paid its order, whatever else holds", () => {
    const settled = { ...link, settled_invoice_id: "dpl7_1" }
    expect(decideLinkSale(settled, { ...sale, invoice_id: "dpl7_2" }, order)).toEqual({ action: "refund", reason: "second_payment" })
    expect(decideLinkSale(settled, { ...sale, invoice_id: "dpl7_2" }, { ...order, status: "canceled", paid_otherwise: true })).toEqual({ action: "refund", reason: "second_payment" })
  })

  it("gives back a payment of another amount or currency than the link's, as the gateway records it", () => {
    expect(decideLinkSale(link, { ...sale, amount: "299.79" }, order)).toEqual({ action: "refund", reason: "wrong_amount" })
    expect(decideLinkSale(link, { ...sale, currency_code: "USD" }, order)).toEqual({ action: "refund", reason: "wrong_amount" })
    expect(decideLinkSale(link, { ...sale, amount: null }, order)).toEqual({ action: "refund", reason: "wrong_amount" })
  })

  it("gives back a payment for a cancelled order, an order paid another way, or an order whose total changed", () => {
    expect(decideLinkSale(link, sale, { ...order, status: "canceled" })).toEqual({ action: "refund", reason: "order_cancelled" })
    expect(decideLinkSale(link, sale, { ...order, paid_otherwise: true })).toEqual({ action: "refund", reason: "already_paid" })
    expect(decideLinkSale(link, sale, { ...order, total: "449.80" })).toEqual({ action: "refund", reason: "order_changed" })
    expect(decideLinkSale(link, sale, { ...order, currency_code: "EUR" })).toEqual({ action: "refund", reason: "order_changed" })
  })

  it("leaves a declined sale alone and waits for one the gateway has not finished", () => {
    expect(decideLinkSale(link, { ...sale, outcome: "failed" }, order)).toEqual({ action: "not_charged" })
    expect(decideLinkSale(link, { ...sale, outcome: "pending" }, order)).toEqual({ action: "wait" })
    expect(decideLinkSale(link, { ...sale, outcome: "not_found" }, order)).toEqual({ action: "wait" })
  })
})
