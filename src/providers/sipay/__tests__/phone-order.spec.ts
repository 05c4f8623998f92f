import { PaymentSessionStatus } from "@medusajs/framework/utils"
import type { TransactionStatus } from "../../../lib/sipay"
import { authorizePhoneOrderSale, isBoundPhoneOrderSale, phoneOrderSaleOf, signPhoneOrderSale } from "../utils/phone-order"
import { droppingPlantedKeys, OWNED_SESSION_KEYS, type SipaySessionData } from "../utils/session-data"

const SECRET = "app-secret-for-unit-tests"
const SESSION_ID = "payses_01PHONEORDER0000000000000A"
const binding = signPhoneOrderSale(SECRET, { invoice_id: "dpl7_1", session_id: SESSION_ID, order_link_id: "sopl_1" })
const session = { session_id: SESSION_ID, amount: "299.80", currency_code: "TRY", invoice_ids: [], status: "pending", phone_order_sale: binding } as SipaySessionData

function transaction(fields: Partial<TransactionStatus>): TransactionStatus {
  return {
    found: true, status: "Completed", orderId: "ORD1", invoiceId: "dpl7_1", transactionId: null, productPrice: "299.80", transactionAmount: "299.80",
    totalRefundedAmount: "0.00", transactionType: "Auth", installment: 1, currencyCode: "TRY", mdStatus: "1", reason: null, statusCode: 100, raw: null, ...fields,
  }
}

describe("a phone order's sale bound to its payment session", () => {
  it("verifies only a binding the server signed for this very session", () => {
    expect(phoneOrderSaleOf(SECRET, session)).toEqual(binding)
    expect(isBoundPhoneOrderSale(SECRET, session, "dpl7_1")).toBe(true)
    expect(isBoundPhoneOrderSale(SECRET, session, "dpl7_2")).toBe(false)
    expect(phoneOrderSaleOf("another-secret", session)).toBeNull()
    expect(phoneOrderSaleOf(SECRET, { ...session, phone_order_sale: { ...binding, invoice_id: "dpl7_2" } })).toBeNull()
    // Copied to another session: the MAC covers the session id.
    expect(phoneOrderSaleOf(SECRET, { ...session, session_id: "payses_01OTHER", phone_order_sale: { ...binding, session_id: "payses_01OTHER" } })).toBeNull()
    expect(phoneOrderSaleOf(SECRET, { ...session, session_id: "payses_01OTHER" })).toBeNull()
  })

  it("is an owned key: a planted one is answered null at initiate", () => {
    expect(OWNED_SESSION_KEYS).toContain("phone_order_sale")
    const stored = JSON.parse(JSON.stringify({ phone_order_sale: binding, ...droppingPlantedKeys({ phone_order_sale: binding }, { session_id: SESSION_ID, phone_order_sale: null }) }))
    expect(stored.phone_order_sale).toBeNull()
  })

  it("authorizes as captured only when the gateway has the sale captured for exactly the session's amount and currency", async () => {
    const asked: string[] = []
    const answer = await authorizePhoneOrderSale(session, binding, async (id) => (asked.push(id), transaction({})))
    expect(asked).toEqual(["dpl7_1"])
    expect(answer.status).toBe(PaymentSessionStatus.CAPTURED)
    expect(answer.data).toMatchObject({ invoice_id: "dpl7_1", captured_amount: "299.80", gateway_order_no: "ORD1" })
    await expect(authorizePhoneOrderSale(session, binding, async () => transaction({ productPrice: "10.00", transactionAmount: "10.00" }))).rejects.toThrow(/does not match/)
    await expect(authorizePhoneOrderSale(session, binding, async () => transaction({ currencyCode: "USD" }))).rejects.toThrow(/does not match/)
    await expect(authorizePhoneOrderSale(session, binding, async () => transaction({ status: "Failed" }))).rejects.toThrow(/not captured/)
  })
})
