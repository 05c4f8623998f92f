import { gatewayInstant, toLedgerRow, actedOnSignature } from "../ledger-row"
import { daysDue, LEDGER_CAPS, LEDGER_DEFAULTS, resolveLedgerOptions, windowDays } from "../ledger-schedule"

describe("ledger rows", () => {
  it("maps a gateway sale to the columns the admin filters, sorts and sums, keeping the record", () => {
    const record: any = {
      id: 1042, invoice_id: "payses_01ABC_1", order_id: "17322", transaction_state_id: 5, transaction_state_label: "Partially Refunded",
      currency_code: "TRY", currency_id: 1, payment_type_id: 1, gross: 569.9, net: 555.65, merchant_commission: 14.25, total_refunded_amount: 100,
      installment: 3, dpl_id: 0, recurring_id: 0, credit_card_no: "450803****4509", created_at: "2026-11-19T21:30:00.000000Z",
    }
    expect(toLedgerRow(record, "2026-11-20")).toEqual({
      sale_id: "1042", day: "2026-11-20", sale_created_at: "2026-11-19T21:30:00.000Z", invoice_id: "payses_01ABC_1", gateway_order_id: "17322",
      transaction_state_id: 5, transaction_state_label: "Partially Refunded", currency_code: "TRY", currency_id: 1, payment_type_id: 1,
      gross: "569.9", net: "555.65", merchant_commission: "14.25", total_refunded_amount: "100", installment: 3, dpl_id: null, recurring_id: null,
      credit_card_no: "450803****4509", record,
    })
    expect(toLedgerRow({ invoice_id: "x" } as any, "2026-11-20")).toBeNull()
    expect(toLedgerRow({ id: 7, gross: "n/a" } as any, "2026-11-20")).toMatchObject({ sale_id: "7", gross: "0", installment: 1, invoice_id: "" })
  })

  it("reads gateway times with a zone as written and without one as Istanbul time", () => {
    expect(gatewayInstant("2026-11-20 10:15:00", "2026-11-20")).toBe("2026-11-20T07:15:00.000Z")
    expect(gatewayInstant("2026-11-20T07:15:00.123456Z", "2026-11-20")).toBe("2026-11-20T07:15:00.123Z")
    expect(gatewayInstant("2026-11-20T10:15:00+03:00", "2026-11-20")).toBe("2026-11-20T07:15:00.000Z")
    expect(gatewayInstant(undefined, "2026-11-20")).toBe("2026-11-19T21:00:00.000Z")
  })

  it("signs what was acted on by state and refunded total", () => {
    expect(actedOnSignature({ transaction_state_id: 5, total_refunded_amount: "50.00" })).toBe("5|50")
    expect(actedOnSignature({ transaction_state_id: 11, total_refunded_amount: 0 })).toBe("11|0")
  })
})

describe("which days the ledger job pulls", () => {
  const now = new Date("2026-11-20T09:00:00Z") // noon in Istanbul
  const hoursAgo = (hours: number) => new Date(now.getTime() - hours * 3600_000).toISOString()

  it("today always; older days of the window not synced for 24 hours, least recently synced first, capped per run", () => {
    const synced = new Map([
      ["2026-11-19", { last_synced_at: hoursAgo(2) }],
      ["2026-11-18", { last_synced_at: hoursAgo(30) }],
      ["2026-11-17", { last_synced_at: hoursAgo(50) }],
    ])
    expect(daysDue(now, synced, { windowDays: 4, olderDaysPerRun: 7 })).toEqual(["2026-11-20", "2026-11-16", "2026-11-17", "2026-11-18"])
    expect(daysDue(now, synced, { windowDays: 4, olderDaysPerRun: 1 })).toEqual(["2026-11-20", "2026-11-16"])
    expect(daysDue(now, new Map(), { windowDays: 0, olderDaysPerRun: 7 })).toEqual(["2026-11-20"])
    expect(windowDays(now, 2)).toEqual(["2026-11-20", "2026-11-19", "2026-11-18"])
  })

  it("documented defaults, and caps on what is configured", () => {
    expect(resolveLedgerOptions(undefined)).toEqual({ windowDays: LEDGER_DEFAULTS.windowDays, olderDaysPerRun: LEDGER_DEFAULTS.olderDaysPerRun })
    expect(resolveLedgerOptions({ windowDays: 10_000, olderDaysPerRun: 500 })).toEqual({ windowDays: LEDGER_CAPS.windowDays, olderDaysPerRun: LEDGER_CAPS.olderDaysPerRun })
    expect(resolveLedgerOptions({ windowDays: -1, olderDaysPerRun: 2.5 })).toEqual({ windowDays: 45, olderDaysPerRun: 7 })
  })
})
