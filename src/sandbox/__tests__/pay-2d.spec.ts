import { generateHashKey, validateHashKey } from "../../lib/sipay/hash"
import type { SandboxHandle } from "../index"
import {
  AGRICULTURAL, BLOCKED, FUTURE_YEAR, INSUFFICIENT, MASTERCARD, POS_UNDEFINED, TROY, VISA,
  checkstatusBody, merchantConfig, paymentFields, postJson, start, tokenFor,
} from "./support"

describe("sandbox: paySmart2D (direct card payment)", () => {
  let sandbox: SandboxHandle
  let token: string
  const merchant = () => sandbox.merchant
  const pay = (body: Record<string, unknown>) => postJson(`${sandbox.base_url}/api/paySmart2D`, body, token)
  const pay2d = (overrides: Record<string, unknown> = {}) => pay(paymentFields(merchant(), overrides))

  beforeAll(async () => {
    sandbox = await start({ merchants: [merchantConfig({ sale_webhooks: { shop: "http://127.0.0.1:9/hook" }, installments: [1, 3, 6] })] })
    token = await tokenFor(sandbox)
  })
  afterAll(() => sandbox.close())

  it.each([VISA, MASTERCARD, TROY])("succeeds with the published test card %s in the interface's shape", async (card) => {
    const fields = paymentFields(merchant(), { cc_no: card, installments_number: 3 })
    const { status, body } = await pay(fields)
    expect(status).toBe(200)
    expect(body).toMatchObject({
      status_code: 100,
      status_description: "Payment process successful",
      data: {
        invoice_id: fields.invoice_id, payment_method: 1, credit_card_no: `${card.slice(0, 6)}****${card.slice(-4)}`,
        transaction_type: "Auth", payment_status: 1, error_code: 100, installment: 3,
      },
    })
    expect(body.data.order_no).toMatch(/^\d+$/)
    expect(validateHashKey(body.data.hash_key, merchant().app_secret)).toEqual(["1", "150.75", fields.invoice_id, body.data.order_no, "TRY"])
  })

  it("declines insufficient funds with the interface's failure sample (41, payment_status 0, error_code '')", async () => {
    const fields = paymentFields(merchant(), { cc_no: INSUFFICIENT })
    const { body } = await pay(fields)
    expect(body).toMatchObject({ status_code: 41, status_description: "transaction failed", data: { payment_status: 0, error_code: "", error: "Insufficient funds" } })
    expect(validateHashKey(body.data.hash_key, merchant().app_secret)?.[0]).toBe("0")
  })

  it("declines the blocked card with 44", async () => {
    const { body } = await pay2d({ cc_no: BLOCKED })
    expect(body.status_code).toBe(44)
    expect(body.data.payment_status).toBe(0)
  })

  it("answers 102 Pos was not defined with order_no and credit_card_no null (and for unknown cards)", async () => {
    for (const card of [POS_UNDEFINED, "4111111111111111"]) {
      const { body } = await pay2d({ cc_no: card })
      expect(body).toMatchObject({ status_code: 102, status_description: "Pos was not defined", data: { order_no: null, credit_card_no: null, payment_status: 0 } })
      expect(body.data.hash_key).toBeUndefined()
    }
  })

  it("reserves a PreAuth as Pre-Authorization", async () => {
    const fields = paymentFields(merchant(), { transaction_type: "PreAuth" })
    const { body } = await pay(fields)
    expect(body.data).toMatchObject({ transaction_type: "Pre-Authorization", payment_status: 1 })
    const status = await postJson(`${sandbox.base_url}/api/checkstatus`, checkstatusBody(merchant(), fields.invoice_id), token)
    expect(status.body).toMatchObject({ transaction_status: "Completed", transaction_type: "Pre-Authorization" })
  })

  describe("rules, each with its code", () => {
    const mandatory = ["cc_holder_name", "cc_no", "expiry_month", "expiry_year", "cvv", "currency_code", "installments_number", "invoice_id", "invoice_description", "name", "surname", "total", "merchant_key", "items", "hash_key"]

    it.each(mandatory)("1 when the mandatory %s is missing, naming it", async (field) => {
      const fields = paymentFields(merchant())
      delete fields[field]
      const { status, body } = await pay(fields)
      expect(status).toBe(200)
      expect(body.status_code).toBe(1)
      expect(body.status_description).toContain(field)
    })

    it.each([
      ["cc_holder_name over 100 characters", { cc_holder_name: "A".repeat(101) }, 1, "cc_holder_name"],
      ["a card number failing Luhn", { cc_no: "4508034508034508" }, 1, "cc_no"],
      ["an expired card (sandbox clock)", { expiry_month: "01", expiry_year: "2020" }, 1, "expired"],
      ["a bad expiry_month", { expiry_month: "13" }, 1, "expiry_month"],
      ["a bad cvv", { cvv: "1" }, 1, "cvv"],
      ["an unknown currency", { currency_code: "GBP" }, 12, ""],
      ["an installment the merchant lacks", { installments_number: 2 }, 40, ""],
      ["items not summing to the total", { items: [{ name: "Mug", price: "50", quantity: 3, description: "" }] }, 13, ""],
      ["items sent as a string", { items: JSON.stringify([{ name: "Mug", price: "150.75", quantity: 1 }]) }, 1, "items"],
      ["an unknown merchant_key", { merchant_key: "nobody" }, 14, ""],
      ["an unknown sale webhook key", { sale_webhook_key: "nope" }, 56, ""],
      ["an unknown sale web hook key (alias)", { sale_web_hook_key: "nope" }, 56, ""],
      ["a bad transaction_type", { transaction_type: "Capture" }, 1, "transaction_type"],
      ["a card_program outside the interface's list", { card_program: "GOLD" }, 1, "card_program"],
    ])("%s -> %d", async (_, overrides, code, words) => {
      const { body } = await pay2d(overrides)
      expect(body.status_code).toBe(code)
      expect(body.status_description).toContain(words)
    })

    it("90 when the hash does not decrypt or signs other data; 68 when only the total differs", async () => {
      expect((await pay2d({ hash_key: "garbage" })).body.status_code).toBe(90)
      const invoice = "inv_hash_1"
      const otherSecret = generateHashKey(["150.75", "1", "TRY", merchant().merchant_key, invoice], "not-the-secret")
      expect((await pay2d({ invoice_id: invoice, hash_key: otherSecret })).body.status_code).toBe(90)
      const otherInvoice = generateHashKey(["150.75", "1", "TRY", merchant().merchant_key, "another"], merchant().app_secret)
      expect((await pay2d({ invoice_id: invoice, hash_key: otherInvoice })).body.status_code).toBe(90)
      const otherTotal = generateHashKey(["150", "1", "TRY", merchant().merchant_key, invoice], merchant().app_secret)
      expect((await pay2d({ invoice_id: invoice, hash_key: otherTotal })).body.status_code).toBe(68)
    })

    it("accepts a total of 5.00 signed as 5, qnantity, and numbers for total and installments", async () => {
      const invoice = "inv_quirks_1"
      const hash = generateHashKey(["5", "1", "TRY", merchant().merchant_key, invoice], merchant().app_secret)
      const { body } = await pay2d({ invoice_id: invoice, total: "5.00", hash_key: hash, items: [{ name: "Pin", price: 2.5, qnantity: 2, description: "" }] })
      expect(body.status_code).toBe(100)
      expect(validateHashKey(body.data.hash_key, merchant().app_secret)?.[1]).toBe("5")
    })

    it("3 when the invoice_id already has a sale, failed ones included", async () => {
      const declined = paymentFields(merchant(), { cc_no: INSUFFICIENT })
      expect((await pay(declined)).body.status_code).toBe(41)
      expect((await pay2d({ invoice_id: declined.invoice_id })).body.status_code).toBe(3)
      const paid = paymentFields(merchant())
      expect((await pay(paid)).body.status_code).toBe(100)
      expect((await pay(paid)).body.status_code).toBe(3)
    })

    it("recurring: fields required when order_type is 1, cycle D/M/Y, no installments (55), known webhook key (56)", async () => {
      const recurring = { order_type: 1, recurring_payment_number: 3, recurring_payment_cycle: "M", recurring_payment_interval: 1, recurring_web_hook_key: "rec" }
      for (const field of ["recurring_payment_number", "recurring_payment_cycle", "recurring_payment_interval", "recurring_web_hook_key"]) {
        const { body } = await pay2d({ ...recurring, [field]: "" })
        expect([body.status_code, body.status_description]).toEqual([1, expect.stringContaining(field)])
      }
      expect((await pay2d({ ...recurring, recurring_payment_cycle: "W" })).body.status_code).toBe(1)
      expect((await pay2d({ ...recurring, installments_number: 3 })).body.status_code).toBe(55)
      expect((await pay2d({ ...recurring, recurring_web_hook_key: "unknown" })).body.status_code).toBe(56)
      expect((await pay2d(recurring)).body.status_code).toBe(100)
    })

    it("agricultural card: requires offered maturity_period and payment_frequency; other cards refuse them", async () => {
      expect((await pay2d({ cc_no: AGRICULTURAL })).body.status_code).toBe(1)
      expect((await pay2d({ cc_no: AGRICULTURAL, maturity_period: 5, payment_frequency: 1 })).body.status_code).toBe(40)
      expect((await pay2d({ cc_no: AGRICULTURAL, maturity_period: 6, payment_frequency: 3 })).body.status_code).toBe(100)
      expect((await pay2d({ cc_no: VISA, maturity_period: 6, payment_frequency: 3 })).body.status_code).toBe(40)
    })

    it("checks expiry against the sandbox clock", async () => {
      await postJson(`${sandbox.link_base}/__sandbox/clock`, { advance_seconds: 5 * 366 * 86400 })
      token = await tokenFor(sandbox)
      const { body } = await pay2d({ expiry_year: FUTURE_YEAR })
      expect([body.status_code, body.status_description]).toEqual([1, expect.stringContaining("expired")])
    })
  })
})

describe("sandbox: integration method per merchant (is_3d)", () => {
  it("answers 34 to paySmart2D for a 3D-only merchant", async () => {
    const sandbox = await start({ merchants: [merchantConfig({ is_3d: 2 })] })
    try {
      const token = await tokenFor(sandbox)
      const { body } = await postJson(`${sandbox.base_url}/api/paySmart2D`, paymentFields(sandbox.merchant), token)
      expect(body.status_code).toBe(34)
    } finally {
      await sandbox.close()
    }
  })
})
