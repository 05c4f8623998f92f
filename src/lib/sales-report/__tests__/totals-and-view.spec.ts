import { gatewayDay, orderPaymentView, preAuthorizationDeadline, salesTotals } from ".."
import type { SaleRecord, TransactionStatus } from "../../sipay/types"
import type { AttemptView } from "../types"

const record = (fields: Partial<SaleRecord>) => ({ currency_code: "TRY", gross: 0, net: 0, merchant_commission: 0, total_refunded_amount: 0, ...fields }) as SaleRecord

describe("sales totals", () => {
  it("adds per currency in minor units, without float drift", () => {
    const totals = salesTotals([
      record({ gross: 0.1, net: 0.1, merchant_commission: 0 }),
      record({ gross: 0.2, net: 0.2, total_refunded_amount: 0.05 }),
      record({ currency_code: "USD", gross: 10, net: 9.75, merchant_commission: 0.25 }),
    ])
    expect(totals).toEqual([
      { currency_code: "TRY", count: 2, gross: "0.30", net: "0.30", commission: "0.00", refunded: "0.05" },
      { currency_code: "USD", count: 1, gross: "10.00", net: "9.75", commission: "0.25", refunded: "0.00" },
    ])
    expect(salesTotals([])).toEqual([])
  })
})

describe("pre-authorization deadline", () => {
  it("is 20 days after the reservation, with whole days left rounded up and never below 0", () => {
    const reserved = new Date("2026-11-01T10:00:00Z")
    expect(preAuthorizationDeadline(reserved, new Date("2026-11-01T10:00:01Z"))).toEqual({ deadline: "2026-11-21T10:00:00.000Z", days_left: 20 })
    expect(preAuthorizationDeadline(reserved, new Date("2026-11-20T11:00:00Z")).days_left).toBe(1)
    expect(preAuthorizationDeadline(reserved, new Date("2026-11-22T00:00:00Z")).days_left).toBe(0)
  })
})

describe("order payment view", () => {
  const attempts: AttemptView[] = [
    { invoice_id: "payses_A_1", attempt_number: 1, flow: "3d", status: "failed", transaction_type: "PreAuth", installments: 1, amount: "100.00", currency_code: "TRY", masked_card: "400000****0000", gateway_order_no: "VP1", error_code: "41", error_message: "declined", created_at: "2026-11-01T09:00:00.000Z", completed_at: "2026-11-01T09:01:00.000Z" },
    { invoice_id: "payses_A_2", attempt_number: 2, flow: "3d", status: "authorized", transaction_type: "PreAuth", installments: 3, amount: "100.00", currency_code: "TRY", masked_card: "450803****4509", gateway_order_no: "VP2", error_code: null, error_message: null, created_at: "2026-11-01T09:55:00.000Z", completed_at: "2026-11-01T10:00:00.000Z" },
  ]
  const payment = { id: "pay_1", provider_id: "pp_sipay_sipay", amount: "100.00", currency_code: "try", captured_amount: "0.00", refunded_amount: "0.00", captured_at: null, canceled_at: null, data: { session_id: "payses_A", invoice_id: "payses_A_2", masked_card: "450803****4509" } }
  const status = { found: true, status: "Completed", orderId: "VP2", invoiceId: "payses_A_2", transactionType: "Pre-Authorization", installment: 3, totalRefundedAmount: "0", reason: null } as unknown as TransactionStatus

  it("shows the paid attempt, the deadline of an uncaptured pre-authorization and no chargeback", () => {
    const view = orderPaymentView({ order_id: "order_1", payment, attempts, status, sales: [record({ invoice_id: "payses_A_2", transaction_state_id: 6 })], now: new Date("2026-11-02T10:00:00Z") })
    expect(view).toMatchObject({ invoice_id: "payses_A_2", gateway_order_no: "VP2", installments: 3, transaction_type: "Pre-Authorization", status: "Completed", refunded_amount: "0.00", chargeback: false })
    expect(view.pre_authorization).toEqual({ deadline: "2026-11-21T10:00:00.000Z", days_left: 19 })
    expect(view.attempts).toHaveLength(2)
  })

  it("drops the deadline once captured and flags a chargeback seen by the lookup", () => {
    const captured = { ...payment, captured_amount: "100.00", captured_at: "2026-11-03T10:00:00.000Z" }
    const view = orderPaymentView({ order_id: "order_1", payment: captured, attempts, status: { ...status, transactionType: "Auth", totalRefundedAmount: "25.5" }, sales: [record({ invoice_id: "payses_A_2", transaction_state_id: 11 })], now: new Date() })
    expect(view.pre_authorization).toBeNull()
    expect(view.chargeback).toBe(true)
    expect(view.refunded_amount).toBe("25.50")
  })
})

describe("gateway day", () => {
  it("is the Istanbul calendar day (UTC+3)", () => {
    expect(gatewayDay(new Date("2026-11-22T20:59:59Z"))).toBe("2026-11-22")
    expect(gatewayDay(new Date("2026-11-22T21:00:00Z"))).toBe("2026-11-23")
  })
})
