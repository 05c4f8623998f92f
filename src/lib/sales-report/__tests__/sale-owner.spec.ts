import { assertPaymentRecordsSale, decideSaleOwner, dplIdOf, linkOfInvoiceId, type SaleFacts } from "../sale-owner"

const SESSION = "payses_01TWOTABS"
const kept = { id: "pay_kept", payment_collection_id: "paycol_1", payment_session_id: SESSION, invoice_id: `${SESSION}_1`, gateway_order_no: "G1", order_id: "order_1" }

function facts(overrides: Partial<SaleFacts>): SaleFacts {
  return { sale: { invoice_id: `${SESSION}_1` }, attempt: null, sessionPayments: [], cartOrderId: null, orderLink: null, linkPayment: null, paymentLinkId: null, ...overrides }
}

const attempt = (n: number, status: string, gateway_order_no: string | null = `G${n}`) => ({ invoice_id: `${SESSION}_${n}`, session_id: SESSION, cart_id: "cart_1", status, gateway_order_no, error_message: status === "reversed" ? "refunded: the cart was already paid by another attempt" : null })

describe("what a gateway sale is to Medusa", () => {
  it("the kept tab's sale is the order's payment", () => {
    expect(decideSaleOwner(facts({ attempt: attempt(1, "paid"), sessionPayments: [kept], cartOrderId: "order_1" }))).toEqual({
      kind: "payment",
      source: "checkout",
      invoice_id: `${SESSION}_1`,
      payment_id: "pay_kept",
      payment_collection_id: "paycol_1",
      order_id: "order_1",
      session_id: SESSION,
      order_link_id: null,
    })
  })

  it("a second tab's sale is given back, never the session's payment, though the session and the cart are the same (N1)", () => {
    const owner = decideSaleOwner(facts({ sale: { invoice_id: `${SESSION}_2` }, attempt: attempt(2, "reversed"), sessionPayments: [kept], cartOrderId: "order_1" }))
    expect(owner).toMatchObject({ kind: "given_back", source: "checkout", order_id: "order_1" })
    expect(owner).not.toHaveProperty("payment_id")
  })

  it("an extra attempt not yet given back is an attempt, not the payment", () => {
    expect(decideSaleOwner(facts({ sale: { invoice_id: `${SESSION}_3` }, attempt: attempt(3, "pending"), sessionPayments: [kept], cartOrderId: "order_1" }))).toMatchObject({
      kind: "attempt",
      status: "pending",
      order_id: "order_1",
    })
  })

  it("a sale under the payment's invoice with another gateway order id is a later recurring charge", () => {
    expect(decideSaleOwner(facts({ sale: { invoice_id: `${SESSION}_1`, gateway_order_id: "G9" }, attempt: attempt(1, "paid"), sessionPayments: [kept] }))).toEqual({
      kind: "recurring_charge",
      invoice_id: `${SESSION}_1`,
      payment_id: "pay_kept",
      order_id: "order_1",
    })
    expect(decideSaleOwner(facts({ sale: { invoice_id: `${SESSION}_1`, gateway_order_id: "G1" }, attempt: attempt(1, "paid"), sessionPayments: [kept] })).kind).toBe("payment")
  })

  it("an invoice id shaped like the plugin's but with no attempt of this store is not ours", () => {
    expect(decideSaleOwner(facts({ sale: { invoice_id: "payses_OTHERSTORE_1" } })).kind).toBe("not_ours")
  })

  describe("phone orders", () => {
    const link = { id: "sopl_1", order_id: "order_phone", settled_invoice_id: "dpl7_1", payment_id: "pay_phone", refused_invoice_ids: ["dpl7_2"], refusal_reasons: { dpl7_2: "second_payment" } }
    const payment = { id: "pay_phone", payment_collection_id: "paycol_p", payment_session_id: "payses_P", invoice_id: "dpl7_1", gateway_order_no: null, order_id: "order_phone" }

    it("the link's settled sale is the order's payment", () => {
      expect(decideSaleOwner(facts({ sale: { invoice_id: "dpl7_1", dpl_id: 7 }, orderLink: link, linkPayment: payment }))).toMatchObject({
        kind: "payment",
        source: "phone_order",
        payment_id: "pay_phone",
        order_id: "order_phone",
        order_link_id: "sopl_1",
      })
    })

    it("a refused sale of the link is given back with its reason", () => {
      expect(decideSaleOwner(facts({ sale: { invoice_id: "dpl7_2", dpl_id: 7 }, orderLink: link, linkPayment: payment }))).toMatchObject({ kind: "given_back", source: "phone_order", reason: "second_payment", order_id: "order_phone" })
    })

    it("a payment whose data names another sale is never the link's payment", () => {
      expect(decideSaleOwner(facts({ sale: { invoice_id: "dpl7_1", dpl_id: 7 }, orderLink: link, linkPayment: { ...payment, invoice_id: "dpl7_9" } })).kind).toBe("attempt")
    })

    it("a sale of the link not yet settled waits", () => {
      expect(decideSaleOwner(facts({ sale: { invoice_id: "dpl7_3", dpl_id: 7 }, orderLink: { ...link, settled_invoice_id: null, payment_id: null } }))).toMatchObject({ kind: "attempt", source: "phone_order", status: "pending" })
    })
  })

  it("a plain payment link's sale, and a link made elsewhere", () => {
    expect(decideSaleOwner(facts({ sale: { invoice_id: "dpl8_1", dpl_id: 8 }, paymentLinkId: "splink_1" }))).toEqual({ kind: "payment_link", invoice_id: "dpl8_1", payment_link_id: "splink_1" })
    expect(decideSaleOwner(facts({ sale: { invoice_id: "dpl9_1", dpl_id: 9 } }))).toMatchObject({ kind: "not_ours", reason: "a payment link this store did not make" })
  })

  it("reads a link sale's dpl id from the record, else from its invoice id", () => {
    expect(dplIdOf({ invoice_id: "dpl12_3" })).toBe(12)
    expect(dplIdOf({ invoice_id: "x", dpl_id: 5 })).toBe(5)
    expect(dplIdOf({ invoice_id: `${SESSION}_1`, dpl_id: 0 })).toBeNull()
    expect(linkOfInvoiceId("dpl_1")).toBeNull()
  })
})

describe("the ledger's defence in depth", () => {
  it("records on a payment only the sale its own data names", () => {
    expect(() => assertPaymentRecordsSale(`${SESSION}_1`, { invoice_id: `${SESSION}_1` }, "pay_kept")).not.toThrow()
    expect(() => assertPaymentRecordsSale(`${SESSION}_2`, { invoice_id: `${SESSION}_1` }, "pay_kept")).toThrow(/is not the sale payment pay_kept records/)
    expect(() => assertPaymentRecordsSale(`${SESSION}_2`, {}, "pay_kept")).toThrow(/none/)
    expect(() => assertPaymentRecordsSale(`${SESSION}_2`, null, "pay_kept")).toThrow()
  })
})
