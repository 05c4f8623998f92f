import { auditDay } from "../classify"
import { auditCsv, auditText, describeFinding, fillIn } from "../text"
import { FINDING_KINDS, type AuditSaleInput, type Finding } from "../types"
import { AUDIT_LANGUAGES, AUDIT_WORDS } from "../words"

const placeholders = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((match) => match[1]).sort()

function strings(tree: unknown, prefix = ""): Map<string, string> {
  const out = new Map<string, string>()
  for (const [name, value] of Object.entries(tree as Record<string, unknown>)) {
    if (value && typeof value === "object") for (const [key, text] of strings(value, `${prefix}${name}.`)) out.set(key, text)
    else out.set(`${prefix}${name}`, String(value))
  }
  return out
}

const finding = (kind: Finding["kind"]): Finding => ({
  kind,
  severity: kind === "chargeback" || kind === "pre_authorization_lapsing" ? "notice" : "difference",
  invoice_id: "payses_01WORDS_2",
  sale_id: "77",
  sale_created_at: "2026-11-26T08:00:00.000Z",
  currency_code: "TRY",
  order_id: "order_1",
  payment_id: "pay_1",
  gateway_amount: "1250.50",
  medusa_amount: "100.00",
  amount: "1150.50",
  deadline: "2026-12-16T08:00:00.000Z",
  days_left: 2,
  recorded_order_id: "order_9",
  payment_invoice_id: "payses_01WORDS_1",
})

describe("the audit in the merchant's words", () => {
  it("names every kind in English and Turkish, each text with the same placeholders in both, none empty", () => {
    const english = strings(AUDIT_WORDS.en)
    const turkish = strings(AUDIT_WORDS.tr)
    expect([...turkish.keys()].sort()).toEqual([...english.keys()].sort())
    for (const [key, text] of english) {
      expect({ key, placeholders: placeholders(turkish.get(key)!) }).toEqual({ key, placeholders: placeholders(text) })
      expect(text.trim()).not.toBe("")
      expect(turkish.get(key)!.trim()).not.toBe("")
    }
    for (const kind of FINDING_KINDS) for (const language of AUDIT_LANGUAGES) expect(AUDIT_WORDS[language].kinds[kind].title).toBeTruthy()
  })

  it("says every finding with its amounts in the reader's format, no placeholder left", () => {
    for (const kind of FINDING_KINDS) {
      for (const language of AUDIT_LANGUAGES) {
        const text = describeFinding(finding(kind), language)
        expect({ kind, language, left: `${text.title} ${text.detail} ${text.action}`.includes("{{") }).toEqual({ kind, language, left: false })
      }
    }
    expect(describeFinding(finding("refund_missing_in_medusa"), "en").detail).toBe("The gateway refunded 1,250.50 TRY of this sale; Medusa records 100.00 TRY: 1,150.50 TRY is missing in the store.")
    expect(describeFinding(finding("refund_missing_in_medusa"), "tr").detail).toBe("Ödeme kuruluşu bu satıştan 1.250,50 TRY iade etti; Medusa 100,00 TRY kaydetti: 1.150,50 TRY mağazada eksik.")
    expect(describeFinding(finding("pre_authorization_lapsing"), "en").detail).toContain("on 2026-12-16 11:00 (days left: 2)")
    expect(describeFinding(finding("chargeback_not_recorded"), "en").detail).toContain("The store recorded it on order order_9, which this sale did not pay.")
    expect(fillIn("{{a}} and {{b}}", { a: 1 })).toBe("1 and {{b}}")
  })

  const items: AuditSaleInput[] = [
    {
      sale: { sale_id: "1", invoice_id: "payses_01TEXT_1", gateway_order_id: "G1", created_at: "2026-11-26T07:00:00.000Z", transaction_state_id: 5, currency_code: "TRY", gross_minor: 125050n, refunded_minor: 5000n },
      owner: { kind: "payment", source: "checkout", invoice_id: "payses_01TEXT_1", payment_id: "pay_1", payment_collection_id: "paycol_1", order_id: "order_1", session_id: "payses_01TEXT", order_link_id: null },
      payment: { id: "pay_1", invoice_id: "payses_01TEXT_1", order_id: "order_1", currency_code: "try", amount_minor: 125050n, captured_minor: 125050n, refunded_minor: 0n, canceled: false, refunds: [] },
      sessionPayments: [],
      chargeback: null,
    },
    {
      sale: { sale_id: "2", invoice_id: "=HYPERLINK(\"x\")", gateway_order_id: null, created_at: "2026-11-26T08:00:00.000Z", transaction_state_id: 1, currency_code: "TRY", gross_minor: 1000n, refunded_minor: 0n },
      owner: { kind: "not_ours", invoice_id: "=HYPERLINK(\"x\")", reason: "no attempt of this store has this invoice id" },
      payment: null,
      sessionPayments: [],
      chargeback: null,
    },
  ]
  const report = auditDay({ day: "2026-11-26", now: new Date("2026-11-26T12:00:00Z"), sales: items, preAuthorizationWarningDays: 17, settlingSeconds: 900 }, { last_synced_at: "2026-11-26T11:59:00.000Z", pulled_now: true })

  it("the command's text: the day, its summary, the verdict and each finding with what to do", () => {
    expect(auditText(report, "en")).toBe(
      [
        "Sipay audit of 2026-11-26 (the gateway's day, Istanbul time), made 2026-11-26 15:00",
        "Sales 2 · Refunded 1 · Chargebacks 0 · Being settled 0 · Differences 1 · To do 0",
        "TRY: Gateway: captured 1,260.50 TRY, refunded 50.00 TRY, reserved 0.00 TRY · Medusa: captured 1,250.50 TRY, refunded 0.00 TRY",
        "The gateway's sales pulled into the sales ledger now (2026-11-26 14:59, Istanbul time).",
        "",
        "The books and the gateway do not agree on this day.",
        "",
        "Difference: Refund at the gateway, not in Medusa",
        "  Invoice payses_01TEXT_1 · Order order_1 · Payment pay_1",
        "  The gateway refunded 50.00 TRY of this sale; Medusa records 0.00 TRY: 50.00 TRY is missing in the store.",
        "  What to do: Sync the day (Sales, Sync now): the ledger records refunds made in the merchant panel and sends nothing. Do not refund it again in Medusa: that would send a second refund.",
        "",
      ].join("\n")
    )
    expect(auditText(report, "tr")).toContain("Fark: Ödeme kuruluşunda iade var, Medusa'da yok")
    expect(auditText(report, "tr")).toContain("TRY: Ödeme kuruluşu: tahsil 1.260,50 TRY")
  })

  it("the CSV: every sale of the day, one row per finding, cells a spreadsheet will not evaluate", () => {
    const [header, ...rows] = auditCsv(report, "en").replace(/^\uFEFF/, "").trimEnd().split("\r\n")
    expect(header.split(",")).toEqual([
      "sale_created_at", "invoice_id", "gateway_order_id", "sale_kind", "order_id", "payment_id", "currency",
      "gateway_captured", "gateway_refunded", "gateway_reserved", "medusa_captured", "medusa_refunded",
      "result", "finding", "amount", "detail", "what_to_do",
    ])
    expect(rows).toHaveLength(2)
    expect(rows[0]).toMatch(/^2026-11-26T07:00:00.000Z,payses_01TEXT_1,G1,payment,order_1,pay_1,TRY,1250.50,50.00,0.00,1250.50,0.00,difference,refund_missing_in_medusa,50.00,/)
    expect(rows[1]).toBe(`2026-11-26T08:00:00.000Z,"'=HYPERLINK(""x"")",,not_ours,,,TRY,10.00,0.00,0.00,,,agrees,,,,`)
  })
})
