import type { SaleOwner } from "../../sales-report/sale-owner"
import { auditDay } from "../classify"
import { auditDayProblem } from "../day"
import type { AuditInput, AuditSaleInput, MedusaPaymentFacts } from "../types"

const DAY = "2026-11-26"
const NOW = new Date("2026-11-26T12:00:00Z")
const SESSION = "payses_01AUDIT"
const ledger = { last_synced_at: "2026-11-26T11:55:00.000Z", pulled_now: false }

const sale = (n: number, overrides: Partial<AuditSaleInput["sale"]> = {}): AuditSaleInput["sale"] => ({
  sale_id: String(100 + n),
  invoice_id: `${SESSION}_${n}`,
  gateway_order_id: `G${n}`,
  created_at: "2026-11-26T08:00:00.000Z",
  transaction_state_id: 1,
  currency_code: "TRY",
  gross_minor: 14990n,
  refunded_minor: 0n,
  ...overrides,
})

const payment = (overrides: Partial<MedusaPaymentFacts> = {}): MedusaPaymentFacts => ({
  id: "pay_1",
  invoice_id: `${SESSION}_1`,
  order_id: "order_1",
  currency_code: "try",
  amount_minor: 14990n,
  captured_minor: 14990n,
  refunded_minor: 0n,
  canceled: false,
  refunds: [],
  ...overrides,
})

const paid = (invoice = `${SESSION}_1`, paymentId = "pay_1", orderId: string | null = "order_1"): SaleOwner => ({
  kind: "payment", source: "checkout", invoice_id: invoice, payment_id: paymentId, payment_collection_id: "paycol_1", order_id: orderId, session_id: SESSION, order_link_id: null,
})
const givenBack = (invoice: string): SaleOwner => ({ kind: "given_back", source: "checkout", invoice_id: invoice, order_id: "order_1", reason: "refunded: the cart was already paid by another attempt", order_link_id: null })
const attempt = (invoice: string, status = "paid"): SaleOwner => ({ kind: "attempt", source: "checkout", invoice_id: invoice, status, session_id: SESSION, cart_id: "cart_1", order_id: null, order_link_id: null })

function item(overrides: Partial<AuditSaleInput> & { sale: AuditSaleInput["sale"]; owner: SaleOwner }): AuditSaleInput {
  return { payment: null, sessionPayments: [], chargeback: null, ...overrides }
}

function audit(items: AuditSaleInput[], overrides: Partial<AuditInput> = {}) {
  return auditDay({ day: DAY, now: NOW, sales: items, preAuthorizationWarningDays: 17, settlingSeconds: 900, ...overrides }, ledger)
}

const kinds = (report: ReturnType<typeof audit>) => report.findings.map((finding) => [finding.kind, finding.invoice_id, finding.amount])

describe("the audit of a gateway day", () => {
  it("a day whose every sale matches Medusa agrees: a paid order, a given-back extra tab, a declined attempt, a phone order's link sale, another integration's sale", () => {
    const report = audit([
      item({ sale: sale(1), owner: paid(), payment: payment() }),
      item({ sale: sale(2, { transaction_state_id: 4, refunded_minor: 14990n }), owner: givenBack(`${SESSION}_2`), sessionPayments: [payment()] }),
      item({ sale: sale(3, { transaction_state_id: 2 }), owner: attempt(`${SESSION}_3`, "failed") }),
      item({ sale: sale(4, { invoice_id: "dpl7_1" }), owner: { kind: "payment_link", invoice_id: "dpl7_1", payment_link_id: "spl_1" } }),
      item({ sale: sale(5, { invoice_id: "WOO-1234" }), owner: { kind: "not_ours", invoice_id: "WOO-1234", reason: "no attempt of this store has this invoice id" } }),
    ])
    expect(report.agrees).toBe(true)
    expect(report.findings).toEqual([])
    expect(report.summary).toMatchObject({ sales: 5, refunds: 1, chargebacks: 0, differences: 0, notices: 0, kinds: { payment: 1, given_back: 1, attempt: 1, payment_link: 1, not_ours: 1 } })
    expect(report.summary.totals).toEqual([
      { currency_code: "TRY", sales: 5, gateway_captured: "599.60", gateway_refunded: "149.90", gateway_reserved: "0.00", medusa_captured: "149.90", medusa_refunded: "0.00" },
    ])
    expect(report.lines.map((line) => [line.invoice_id, line.sale_kind, line.findings])).toEqual([
      [`${SESSION}_1`, "payment", []],
      [`${SESSION}_2`, "given_back", []],
      [`${SESSION}_3`, "attempt", []],
      ["dpl7_1", "payment_link", []],
      ["WOO-1234", "not_ours", []],
    ])
  })

  it("money taken at the gateway with no order: a paid attempt never settled, a give-back that did not go through, a payment without an order; a fresh one is still being settled", () => {
    const report = audit([
      item({ sale: sale(1), owner: attempt(`${SESSION}_1`) }),
      item({ sale: sale(2, { transaction_state_id: 5, refunded_minor: 4990n }), owner: givenBack(`${SESSION}_2`) }),
      item({ sale: sale(3, { transaction_state_id: 6 }), owner: paid(`${SESSION}_3`, "pay_3", null), payment: payment({ id: "pay_3", captured_minor: 0n }) }),
      item({ sale: sale(4, { created_at: "2026-11-26T11:55:00.000Z" }), owner: attempt(`${SESSION}_4`) }),
    ])
    expect(report.agrees).toBe(false)
    expect(kinds(report)).toEqual([
      ["paid_without_order", `${SESSION}_1`, "149.90"],
      ["paid_without_order", `${SESSION}_2`, "100.00"],
      ["paid_without_order", `${SESSION}_3`, "149.90"],
    ])
    expect(report.lines.find((line) => line.invoice_id === `${SESSION}_4`)).toMatchObject({ settling: true, findings: [] })
    expect(report.summary).toMatchObject({ settling: 1, differences: 3 })
    // The given-back sale's finding links the order its cart got from the kept sale.
    expect(report.findings[1]).toMatchObject({ order_id: "order_1", payment_id: null, severity: "difference" })
  })

  it("refunds on one side only: the panel's not yet recorded, Medusa's not at the gateway, and an order whose whole sale the gateway gave back", () => {
    const report = audit([
      item({ sale: sale(1, { transaction_state_id: 5, refunded_minor: 5000n }), owner: paid(), payment: payment({ refunded_minor: 2000n }) }),
      item({ sale: sale(2), owner: paid(`${SESSION}_2`, "pay_2", "order_2"), payment: payment({ id: "pay_2", invoice_id: `${SESSION}_2`, order_id: "order_2", refunded_minor: 3000n }) }),
      item({ sale: sale(3, { transaction_state_id: 4, refunded_minor: 14990n }), owner: paid(`${SESSION}_3`, "pay_3", "order_3"), payment: payment({ id: "pay_3", invoice_id: `${SESSION}_3`, order_id: "order_3" }) }),
    ])
    expect(report.findings.map((f) => [f.kind, f.order_id, f.gateway_amount, f.medusa_amount, f.amount])).toEqual([
      ["refund_missing_in_medusa", "order_1", "50.00", "20.00", "30.00"],
      ["refund_missing_at_gateway", "order_2", "0.00", "30.00", "30.00"],
      ["order_money_given_back", "order_3", "0.00", "149.90", "149.90"],
    ])
  })

  it("amounts that differ: Medusa captured part of a reservation the gateway took whole, captured nothing of a captured sale, or reserved another amount", () => {
    const report = audit([
      item({ sale: sale(1), owner: paid(), payment: payment({ captured_minor: 1000n }) }),
      item({ sale: sale(2), owner: paid(`${SESSION}_2`, "pay_2"), payment: payment({ id: "pay_2", captured_minor: 0n }) }),
      item({ sale: sale(3, { transaction_state_id: 6 }), owner: paid(`${SESSION}_3`, "pay_3"), payment: payment({ id: "pay_3", captured_minor: 0n, amount_minor: 10000n }) }),
      item({ sale: sale(4, { transaction_state_id: 6 }), owner: paid(`${SESSION}_4`, "pay_4"), payment: payment({ id: "pay_4", captured_minor: 5000n }) }),
    ])
    expect(report.findings.map((f) => [f.kind, f.gateway_amount, f.medusa_amount])).toEqual([
      ["amounts_differ", "149.90", "10.00"],
      ["amounts_differ", "149.90", "0.00"],
      ["amounts_differ", "149.90", "100.00"],
      ["amounts_differ", "0.00", "50.00"],
    ])
  })

  it("a reservation the gateway released (lapsed or cancelled) that Medusa still shows authorized is money given back; once Medusa cancelled it too, the day agrees", () => {
    const lapsed = sale(1, { transaction_state_id: 7 })
    expect(kinds(audit([item({ sale: lapsed, owner: paid(), payment: payment({ captured_minor: 0n }) })]))).toEqual([["order_money_given_back", `${SESSION}_1`, "149.90"]])
    expect(audit([item({ sale: lapsed, owner: paid(), payment: payment({ captured_minor: 0n, canceled: true }) })]).agrees).toBe(true)
  })

  it("a chargeback the store recorded on the order its sale paid is a notice; one not recorded, or recorded on another order (the old ledger), is a difference", () => {
    const charged = (n: number, refunded = 0n) => sale(n, { transaction_state_id: 11, refunded_minor: refunded })
    const report = audit([
      item({ sale: charged(1), owner: paid(), payment: payment(), chargeback: { order_id: "order_1" } }),
      item({ sale: charged(2), owner: paid(`${SESSION}_2`, "pay_2", "order_2"), payment: payment({ id: "pay_2", invoice_id: `${SESSION}_2`, order_id: "order_2" }) }),
      item({ sale: charged(3, 14990n), owner: givenBack(`${SESSION}_3`), chargeback: { order_id: "order_1" } }),
      item({ sale: charged(4, 14990n), owner: givenBack(`${SESSION}_4`), chargeback: { order_id: null } }),
    ])
    expect(report.findings.map((f) => [f.kind, f.severity, f.invoice_id, f.recorded_order_id ?? null])).toEqual([
      ["chargeback_not_recorded", "difference", `${SESSION}_2`, null],
      ["chargeback_not_recorded", "difference", `${SESSION}_3`, "order_1"],
      ["chargeback", "notice", `${SESSION}_1`, null],
      ["chargeback", "notice", `${SESSION}_4`, null],
    ])
    expect(report.summary).toMatchObject({ chargebacks: 4, differences: 2, notices: 2 })
  })

  it("a reservation past the pre-authorization watch's warning days is about to lapse (a notice: the day still agrees)", () => {
    const reserved = (days: number) => sale(1, { transaction_state_id: 6, created_at: new Date(NOW.getTime() - days * 86400_000).toISOString() })
    const at = (days: number) => audit([item({ sale: reserved(days), owner: paid(), payment: payment({ captured_minor: 0n }) })])
    expect(at(16.5).findings).toEqual([])
    const lapsing = at(18)
    expect(lapsing.agrees).toBe(true)
    expect(lapsing.findings).toEqual([
      expect.objectContaining({ kind: "pre_authorization_lapsing", severity: "notice", days_left: 2, deadline: new Date(NOW.getTime() + 2 * 86400_000).toISOString(), order_id: "order_1" }),
    ])
  })

  it("a refund the old ledger booked (noted as recorded from the ledger, without the mark) on the kept payment of a given-back sale's session, once though two given-back sales lead to it", () => {
    const kept = payment({ refunded_minor: 14990n, refunds: [{ id: "ref_old", amount_minor: 14990n, recorded_from_ledger: true, marked: false }] })
    const report = audit([
      item({ sale: sale(1, { transaction_state_id: 4, refunded_minor: 14990n }), owner: paid(), payment: kept }),
      item({ sale: sale(2, { transaction_state_id: 4, refunded_minor: 14990n }), owner: givenBack(`${SESSION}_2`), sessionPayments: [kept] }),
      item({ sale: sale(3, { transaction_state_id: 4, refunded_minor: 14990n }), owner: givenBack(`${SESSION}_3`), sessionPayments: [kept] }),
    ])
    expect(report.findings).toEqual([
      expect.objectContaining({ kind: "old_ledger_refund", invoice_id: `${SESSION}_2`, order_id: "order_1", payment_id: "pay_1", refund_id: "ref_old", amount: "149.90", payment_invoice_id: `${SESSION}_1` }),
    ])
  })

  it("refunds the fixed ledger recorded (marked), refunds asked for in the admin, and a panel refund of the payment's own sale are not the old bug", () => {
    const kept = payment({
      refunded_minor: 3000n,
      refunds: [
        { id: "ref_marked", amount_minor: 1000n, recorded_from_ledger: true, marked: true },
        { id: "ref_admin", amount_minor: 2000n, recorded_from_ledger: false, marked: false },
      ],
    })
    const report = audit([
      item({ sale: sale(1, { transaction_state_id: 5, refunded_minor: 3000n }), owner: paid(), payment: kept }),
      item({ sale: sale(2, { transaction_state_id: 4, refunded_minor: 14990n }), owner: givenBack(`${SESSION}_2`), sessionPayments: [kept] }),
    ])
    expect(report.findings).toEqual([])
    // A refund booked by the old ledger on the payment of the very sale it was made for is right.
    const own = payment({ refunded_minor: 14990n, refunds: [{ id: "ref_own", amount_minor: 14990n, recorded_from_ledger: true, marked: false }] })
    expect(audit([item({ sale: sale(1, { transaction_state_id: 4, refunded_minor: 14990n }), owner: givenBack(`${SESSION}_1`), sessionPayments: [own] })]).findings).toEqual([])
  })

  it("differences come before notices; every finding names its sale, its order and its payment", () => {
    const report = audit([
      item({ sale: sale(1, { transaction_state_id: 11 }), owner: paid(), payment: payment(), chargeback: { order_id: "order_1" } }),
      item({ sale: sale(2, { created_at: "2026-11-26T09:00:00.000Z" }), owner: attempt(`${SESSION}_2`) }),
    ])
    expect(report.findings.map((f) => [f.severity, f.kind])).toEqual([["difference", "paid_without_order"], ["notice", "chargeback"]])
    expect(report.findings[1]).toMatchObject({ sale_id: "101", order_id: "order_1", payment_id: "pay_1", currency_code: "TRY", sale_created_at: "2026-11-26T08:00:00.000Z" })
  })

  it("a day to audit is a calendar day, not after today in Istanbul (00:30 Istanbul is already the next day)", () => {
    expect(auditDayProblem("2026-11-26", NOW)).toBeNull()
    expect(auditDayProblem("26.11.2026", NOW)).toBe("the day must be written YYYY-MM-DD")
    expect(auditDayProblem("2026-02-30", NOW)).toBe("2026-02-30 is not a calendar day")
    expect(auditDayProblem("2026-11-27", NOW)).toMatch(/after today in Istanbul \(2026-11-26\)/)
    expect(auditDayProblem("2026-11-27", new Date("2026-11-26T21:30:00Z"))).toBeNull()
  })
})
