import { neutraliseCell, salesCsv, toCsv } from "../csv"
import type { SaleView } from "../types"

function sale(overrides: Partial<SaleView> = {}): SaleView {
  return {
    id: 7, user_id: 1, merchant_id: 1, payment_id: "T7", transaction_state_id: 1, transaction_state_label: "Completed",
    merchant_commission: 12.5, gross: 500, net: 487.5, payment_type_id: 1, payment_type_label: "MP Credit Card",
    product_price: 500, total_refunded_amount: 0, card_holder_bank: "Sandbox Bank", operator: "", user_name: "", dpl_id: 0,
    currency_id: 1, currency_code: "TRY", invoice_id: "payses_01ABC_1", order_id: "VP0001", credit_card_no: "450803****4509",
    installment: 1, rolling_amount: 0, gsm_number: "", payment_source: 1, card_program: "WORLD", card_issuer_name: "Sandbox Bank",
    result: "Approved", settlement_date_merchant: "2026-11-24 10:00:00", settlement_date_bank: "2026-11-23 10:00:00",
    created_at: "2026-11-22T07:00:00.000000Z", updated_at: "2026-11-22T07:00:00.000000Z", recurring_id: 0, ip: "", auth_code: "123456",
    refunded_chargeback_fee: 0, pos_name: "Sandbox POS", sale_billing: { id: 7, sale_id: 7, card_holder_name: "Ay** Yı****" },
    medusa: { order_id: "order_01", related_order_id: null, sale_kind: "payment", payment_session_id: "payses_01ABC", attempt_number: 1, payment_link_id: null, order_link_id: null },
    ...overrides,
  }
}

function parse(csv: string): string[][] {
  // Enough of RFC 4180 for these rows: quoted cells with doubled quotes, commas and line breaks inside.
  const rows: string[][] = []
  let row: string[] = []
  let cell = ""
  let quoted = false
  for (let i = 0; i < csv.length; i++) {
    const c = csv[i]
    if (quoted) {
      if (c === '"' && csv[i + 1] === '"') { cell += '"'; i++ } else if (c === '"') { quoted = false } else { cell += c }
    } else if (c === '"') { quoted = true } else if (c === ",") { row.push(cell); cell = "" } else if (c === "\r" && csv[i + 1] === "\n") { row.push(cell); rows.push(row); row = []; cell = ""; i++ } else { cell += c }
  }
  return rows
}

describe("sales CSV", () => {
  it("neutralises cells that begin with =, +, -, @, tab or CR with a leading single quote", () => {
    expect(neutraliseCell("=HYPERLINK(\"http://x\")")).toBe("'=HYPERLINK(\"http://x\")")
    expect(neutraliseCell("+90 555")).toBe("'+90 555")
    expect(neutraliseCell("-2+3")).toBe("'-2+3")
    expect(neutraliseCell("@SUM(A1)")).toBe("'@SUM(A1)")
    expect(neutraliseCell("\t=1")).toBe("'\t=1")
    expect(neutraliseCell("a=b")).toBe("a=b")
    expect(neutraliseCell(12.5)).toBe("12.5")
    expect(neutraliseCell(null)).toBe("")
    expect(neutraliseCell(undefined)).toBe("")
  })

  it("quotes commas, quotes and line breaks after neutralising, with CRLF line ends", () => {
    const csv = toCsv(["a", "b", "c"], [["x,y", 'say "hi"', "=1,2"], ["line\nbreak", "", 0]])
    expect(csv).toBe('a,b,c\r\n"x,y","say ""hi""","\'=1,2"\r\n"line\nbreak",,0\r\n')
    expect(parse(csv)).toEqual([["a", "b", "c"], ["x,y", 'say "hi"', "'=1,2"], ["line\nbreak", "", "0"]])
  })

  it("writes one row per sale shown, with the gateway's fields and the Medusa order", () => {
    const rows = parse(salesCsv([sale(), sale({ invoice_id: "=cmd|' /C calc'!A0", dpl_id: 4, medusa: { order_id: null, related_order_id: null, sale_kind: "payment_link", payment_session_id: null, attempt_number: null, payment_link_id: "spl_4", order_link_id: null } }), sale({ invoice_id: "payses_01ABC_2", medusa: { order_id: null, related_order_id: "order_01", sale_kind: "given_back", payment_session_id: "payses_01ABC", attempt_number: 2, payment_link_id: null, order_link_id: null } })]))
    expect(rows).toHaveLength(4)
    const [header, first, second, third] = rows
    const cell = (row: string[], name: string) => row[header.indexOf(name)]
    expect(header.slice(0, 5)).toEqual(["created_at", "invoice_id", "gateway_order_id", "state_id", "state"])
    expect(cell(first, "invoice_id")).toBe("payses_01ABC_1")
    expect(cell(first, "gross")).toBe("500")
    expect(cell(first, "net")).toBe("487.5")
    expect(cell(first, "commission")).toBe("12.5")
    expect(cell(first, "card")).toBe("450803****4509")
    expect(cell(first, "card_holder")).toBe("Ay** Yı****")
    expect(cell(first, "settlement_date_bank")).toBe("2026-11-23 10:00:00")
    expect(cell(first, "medusa_order_id")).toBe("order_01")
    expect(cell(first, "dpl_id")).toBe("")
    expect(cell(second, "invoice_id")).toBe("'=cmd|' /C calc'!A0")
    expect(cell(second, "dpl_id")).toBe("4")
    expect(cell(second, "medusa_payment_link_id")).toBe("spl_4")
    expect(cell(first, "medusa_sale_kind")).toBe("payment")
    // A second tab's sale the plugin gave back paid no order: its cart's order is shown as related, never as the sale's.
    expect([cell(third, "medusa_order_id"), cell(third, "medusa_sale_kind"), cell(third, "medusa_related_order_id")]).toEqual(["", "given_back", "order_01"])
  })

  it("is a header only when nothing is shown", () => {
    expect(parse(salesCsv([]))).toHaveLength(1)
  })
})
