import i18next from "i18next"
import resources from "../i18n/index"
import { gatewayText, installmentsText, saleStateText, switchText } from "../lib/gateway-values"
import { formatGatewayTime, type Translate } from "../lib/i18n"
import { fieldValue, humanise, saleRows } from "../routes/sales/sale-fields"

// The admin's values in words, through i18next with the plugin's own dictionaries (as the dashboard loads them).

function translator(language: "tr" | "en"): Translate {
  const i18n = i18next.createInstance()
  i18n.init({ resources, lng: language, initImmediate: false, interpolation: { escapeValue: false } })
  return (key, options) => String(i18n.t(`sipay.${key}`, options as never))
}

const tr = translator("tr")
const en = translator("en")

/** A sale as getTransactions gives it (the interface's fields, in the gateway's own order). */
const SALE = {
  id: 1001, user_id: 18091, merchant_id: 18091, payment_id: "100126545753", transaction_state_id: 5, transaction_state_label: "Partially Refunded",
  merchant_commission: 8.23, gross: 329, net: 320.77, payment_type_id: 1, payment_type_label: "MP Credit Card", product_price: 329,
  total_refunded_amount: 50, card_holder_bank: "Sandbox Bank", operator: "", user_name: "", dpl_id: 0, currency_id: 1, currency_code: "TRY",
  invoice_id: "payses_01ABC_1", order_id: "179569861312472222", credit_card_no: "450803****4509", installment: 1, rolling_amount: 0,
  gsm_number: "5551234567", payment_source: 1, card_program: "WORLD", card_issuer_name: "Sandbox Bank", result: "Approved",
  settlement_date_merchant: "2026-11-28 16:10:00", settlement_date_bank: "2026-11-27 16:10:00", created_at: "2026-11-26T13:10:05.123456Z",
  updated_at: "2026-11-26T13:10:15.000000Z", recurring_id: 0, ip: "127.0.0.1", auth_code: "348660", refunded_chargeback_fee: 0, pos_name: "Sandbox POS",
  some_new_field: "x", medusa: { order_id: null },
}

describe("the admin's values in the user's language", () => {
  it("names the gateway's states, statuses and transaction types in Turkish, whatever their spelling", () => {
    expect(saleStateText({ transaction_state_id: 5, transaction_state_label: "Partially Refunded" }, tr)).toBe("Kısmen iade edildi")
    expect(saleStateText({ transaction_state_id: 11, transaction_state_label: "Chargebacked" }, tr)).toBe("Ters ibraz edildi")
    expect(saleStateText({ transaction_state_id: 9, transaction_state_label: "Something New" }, tr)).toBe("Durum 9")
    expect(["Pre-Authorization", "PreAuth", "Auth", "Completed", "Not found"].map((word) => gatewayText(word, tr))).toEqual([
      "Ön provizyon", "Ön provizyon", "Satış (hemen tahsil)", "Tamamlandı", "Bulunamadı",
    ])
    // A bank's own message is shown as the bank wrote it.
    expect(gatewayText("Insufficient funds (41)", tr)).toBe("Insufficient funds (41)")
    expect(gatewayText("Pre-Authorization", en)).toBe("Pre-Authorization")
  })

  it("writes installments and switches as words", () => {
    expect([installmentsText(1, tr), installmentsText(3, tr), installmentsText(3, en), installmentsText(null, en)]).toEqual(["Tek çekim", "3 taksit", "3 installments", "-"])
    expect([switchText(true, tr), switchText(false, tr), switchText(true, en)]).toEqual(["açık", "kapalı", "on"])
  })

  it("writes the gateway's Istanbul dates as the user writes dates", () => {
    expect(formatGatewayTime("2026-11-27 16:10:00", "tr-TR")).toBe("27 Kas 2026 16:10")
    expect(formatGatewayTime("2026-12-03", "en-US")).toBe("Dec 3, 2026")
    expect(formatGatewayTime("soon", "en-US")).toBe("soon")
  })
})

describe("the sale drawer's fields", () => {
  it("labels every field, pairs an id with its label as one row, and keeps a sensible order", () => {
    const rows = saleRows(SALE, tr, "tr-TR")
    expect(rows.map((row) => row.name)).toEqual([
      "invoice_id", "order_id", "payment_id", "id", "transaction_state", "payment_type", "payment_source", "created_at", "updated_at",
      "currency", "product_price", "gross", "merchant_commission", "net", "total_refunded_amount", "refunded_chargeback_fee", "rolling_amount",
      "settlement_date_bank", "settlement_date_merchant",
      "credit_card_no", "card_holder_bank", "card_issuer_name", "card_program", "installment", "auth_code", "result", "pos_name",
      "dpl_id", "recurring_id", "gsm_number", "ip", "merchant_id", "user_id", "user_name", "operator", "some_new_field",
    ])
    const shown = Object.fromEntries(rows.map((row) => [row.label, row.value]))
    expect(shown).toMatchObject({
      Durum: "Kısmen iade edildi",
      "Ödeme türü": "MP Kredi Kartı",
      "Para birimi": "TRY",
      Komisyon: "8,23",
      Taksit: "Tek çekim",
      "Bankanın yanıtı": "Onaylandı",
      "Bankaya geçiş": "27 Kas 2026 16:10 (İstanbul)",
      "Ödeme bağlantısı no": "-",
      "Kullanıcı adı": "-",
      // A field the plugin does not know: its key in words, never snake_case.
      "Some new field": "x",
    })
    expect(rows.every((row) => !/_/.test(row.label))).toBe(true)
  })

  it("words an unknown key, and a nested value by its field", () => {
    expect(humanise("card_holder_bank")).toBe("Card holder bank")
    expect(humanise("integratorData")).toBe("Integrator data")
    expect(fieldValue("recurring_payment_cycle", "M", tr, "tr-TR")).toBe("Ay")
    expect(fieldValue("status", "Active", tr, "tr-TR")).toBe("Etkin")
    expect(fieldValue("is_visible", true, en, "en-US")).toBe("yes")
    expect(fieldValue("sale_id", null, en, "en-US")).toBe("-")
  })
})
