import { generateHashKey } from "../../lib/sipay/hash"
import type { SandboxHandle } from "../index"
import {
  confirmBody, INSUFFICIENT, MASTERCARD, istanbulToday, refundBody, paymentFields, postForm, postJson, start, threeDForm, tokenFor, transactionsBody,
} from "./support"

const ISO_MICRO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/
const DATE_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/
const num = expect.any(Number)
const str = expect.any(String)

/** Every field and nested object of the interface's sale table, with its type and format. */
function expectInterfaceShape(record: any) {
  expect(record).toEqual({
    id: num, user_id: num, merchant_id: num, payment_id: str, transaction_state_id: num, transaction_state_label: str,
    merchant_commission: num, gross: num, net: num, payment_type_id: 1, payment_type_label: "MP Credit Card", product_price: num,
    total_refunded_amount: num, card_holder_bank: str, operator: "", user_name: "", dpl_id: num, currency_id: num, currency_code: str,
    invoice_id: str, order_id: str, credit_card_no: expect.stringMatching(/^\d{6}\*{4}\d{4}$/), installment: num, rolling_amount: num,
    gsm_number: str, payment_source: num, card_program: str, card_issuer_name: str, result: str,
    settlement_date_merchant: expect.stringMatching(DATE_TIME), settlement_date_bank: expect.stringMatching(DATE_TIME),
    created_at: expect.stringMatching(ISO_MICRO), updated_at: expect.stringMatching(ISO_MICRO), recurring_id: num, ip: str,
    auth_code: str, refunded_chargeback_fee: num, pos_name: str,
    rolling_balance: { id: num, sale_id: record.id, effective_date: expect.stringMatching(DATE_TIME) },
    sale_billing: { id: num, sale_id: record.id, card_holder_name: str },
    merchant_sale: {
      id: num, sale_id: record.id, merchant_commission_percentage: num, merchant_commission_fixed: num, end_user_commission_percentage: num,
      end_user_commission_fixed: num, merchant_rolling_percentage: num, cot_percentage: num, cot_fixed: num,
    },
    refund_history: expect.any(Array), sale_recurring: null, sale_recurring_history: [],
    sale_integrator: {
      id: num, sale_id: record.id, integrator_id: num, commission_percentage: num, commission_fixed: num, commission_amount: num, amount: num,
      integratordata: { id: num, integrator_name: str, status: num },
    },
    userdata: { id: num, name: str },
    merchant: { user_id: num, name: str, mcc: str },
  })
}

describe("sandbox: getTransactions", () => {
  let sandbox: SandboxHandle
  let token: string
  let today: string
  const m = () => sandbox.merchant
  const api = (operation: string, body: unknown) => postJson(`${sandbox.base_url}/api/${operation}`, body, token)
  const list = async (filters: Record<string, string> = {}) => {
    const { body } = await api("getTransactions", transactionsBody(m().merchant_key, { date: today, ...filters }))
    expect(body).toMatchObject({ status_code: 100, status_description: "Success" })
    return body.data as any[]
  }
  const one = async (invoice: string) => {
    const records = await list({ invoiceid: invoice })
    expect(records).toHaveLength(1)
    return records[0]
  }
  const pay = async (overrides: Record<string, unknown> = {}) => {
    const fields = paymentFields(m(), overrides)
    expect((await api("paySmart2D", fields)).body.status_code).toBeDefined()
    return fields.invoice_id as string
  }
  const refund = (invoice: string, amount: string) => api("refund", refundBody(m(), invoice, amount))
  const confirm = (invoice: string, status: "1" | "2", total?: string) => api("confirmPayment", confirmBody(m(), invoice, status, total))
  const chargeback = (invoice: string) => postJson(`${sandbox.link_base}/__sandbox/chargeback`, { invoice_id: invoice })

  let usd: string, eur: string, small: string, large: string
  beforeAll(async () => {
    sandbox = await start()
    token = await tokenFor(sandbox)
    today = await istanbulToday(sandbox)
    usd = await pay({ currency_code: "USD", total: "20", items: [{ name: "A", price: "20", quantity: 1 }] })
    eur = await pay({ currency_code: "EUR", total: "30.5", items: [{ name: "B", price: "30.5", quantity: 1 }] })
    small = await pay({ total: "5", items: [{ name: "C", price: "5", quantity: 1 }] })
    large = await pay({ total: "1000", items: [{ name: "D", price: "1000", quantity: 1 }] })
  })
  afterAll(() => sandbox.close())

  it("lists the day's sales, each with every field and nested object of the interface's table", async () => {
    const invoice = await pay({ installments_number: 3, cc_no: MASTERCARD, bill_phone: "905551112233", ip: "10.1.2.3" })
    const records = await list()
    expect(records.length).toBeGreaterThanOrEqual(5)
    for (const record of records) expectInterfaceShape(record)
    const record = records.find((r) => r.invoice_id === invoice)
    expect(record).toMatchObject({
      transaction_state_id: 1, transaction_state_label: "Completed", gross: 150.75, product_price: 150.75, merchant_commission: 3.77,
      net: 146.98, total_refunded_amount: 0, currency_id: 1, currency_code: "TRY", credit_card_no: "540667****5403", installment: 3,
      gsm_number: "905551112233", ip: "10.1.2.3", dpl_id: 0, recurring_id: 0, payment_source: 2, card_program: "BONUS",
      merchant_id: 18309, result: "Approved", sale_billing: { card_holder_name: "Ay** Yı****" }, refund_history: [],
    })
    expect(record.auth_code).toMatch(/^\d{6}$/)
    expect(record.settlement_date_bank > `${today} `).toBe(true)
    expect(Date.parse(record.created_at)).toBeLessThanOrEqual(Date.now() + 1000)
  })

  it("filters by invoiceid", async () => {
    expect((await list({ invoiceid: usd })).map((r) => r.invoice_id)).toEqual([usd])
    expect(await list({ invoiceid: "no_such_invoice" })).toEqual([])
  })

  it("filters by currency_id: 1 TRY, 2 USD, 3 EUR", async () => {
    expect((await list({ currency_id: "2" })).map((r) => [r.invoice_id, r.currency_code])).toEqual([[usd, "USD"]])
    expect((await list({ currency_id: "3" })).map((r) => [r.invoice_id, r.currency_id])).toEqual([[eur, 3]])
    expect((await list({ currency_id: "1" })).every((r) => r.currency_code === "TRY")).toBe(true)
  })

  it("filters by paymentmethodid: 1 (MP Credit Card) lists every sale, another id none", async () => {
    expect((await list({ paymentmethodid: "1" })).length).toBe((await list()).length)
    expect(await list({ paymentmethodid: "2" })).toEqual([])
  })

  it("filters by gross in major units, both bounds inclusive", async () => {
    const between = (await list({ minamount: "5", maxamount: "20" })).map((r) => r.invoice_id)
    expect(between).toEqual(expect.arrayContaining([small, usd]))
    expect(between).not.toContain(eur)
    expect((await list({ minamount: "1000" })).map((r) => r.invoice_id)).toEqual([large])
    expect((await list({ maxamount: "5" })).map((r) => r.invoice_id)).toEqual([small])
    expect(await list({ minamount: "21", maxamount: "20" })).toEqual([])
  })

  it("filters by transactionState", async () => {
    const failed = await pay({ cc_no: INSUFFICIENT })
    expect((await list({ transactionState: "2" })).map((r) => r.invoice_id)).toEqual([failed])
    expect((await list({ transactionState: "1" })).map((r) => r.invoice_id)).toEqual(expect.arrayContaining([usd, eur, small, large]))
  })

  it("filters by date: another day has none of today's sales", async () => {
    const yesterday = new Date(Date.parse(`${today}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10)
    expect((await list({ date: yesterday })).map((r) => r.invoice_id)).not.toContain(usd)
  })

  it("shows partial and full refunds in total_refunded_amount, refund_history and the state", async () => {
    const invoice = await pay()
    await refund(invoice, "50.25")
    let record = await one(invoice)
    expect(record).toMatchObject({ transaction_state_id: 5, transaction_state_label: "Partially Refunded", total_refunded_amount: 50.25, gross: 150.75 })
    expect(record.refund_history).toEqual([{ id: 1, sale_id: record.id, amount: 50.25, ref_no: expect.stringMatching(/^\d+$/), refund_transaction_id: null, created_at: expect.stringMatching(ISO_MICRO) }])
    await refund(invoice, "100.5")
    record = await one(invoice)
    expect(record).toMatchObject({ transaction_state_id: 4, transaction_state_label: "Refunded", total_refunded_amount: 150.75 })
    expect(record.refund_history.map((r: any) => r.amount)).toEqual([50.25, 100.5])
  })

  it("follows a pre-authorization: Pre-Authorized, then Completed for the confirmed total, or Cancelled", async () => {
    const confirmed = await pay({ transaction_type: "PreAuth" })
    expect(await one(confirmed)).toMatchObject({ transaction_state_id: 6, transaction_state_label: "Pre-Authorized", gross: 150.75, net: 0, merchant_commission: 0 })
    await confirm(confirmed, "1", "100")
    expect(await one(confirmed)).toMatchObject({ transaction_state_id: 1, transaction_state_label: "Completed", gross: 100, product_price: 150.75, merchant_commission: 2.5, net: 97.5 })
    const cancelled = await pay({ transaction_type: "PreAuth" })
    await confirm(cancelled, "2")
    expect(await one(cancelled)).toMatchObject({ transaction_state_id: 7, transaction_state_label: "Cancelled", net: 0 })
  })

  it("shows declines as Failed with the bank's text and unfinished 3D payments as Pending", async () => {
    const failed = await pay({ cc_no: INSUFFICIENT })
    expect(await one(failed)).toMatchObject({ transaction_state_id: 2, transaction_state_label: "Failed", result: "Insufficient funds" })
    const form = threeDForm(m())
    await postForm(`${sandbox.base_url}/api/paySmart3D`, form)
    expect(await one(form.invoice_id)).toMatchObject({ transaction_state_id: 3, transaction_state_label: "Pending", payment_source: 1, result: "Pending" })
  })

  it("turns a charged-back sale to 11 'Chargebacked' (test control); only captured sales can be", async () => {
    const invoice = await pay()
    const answer = await chargeback(invoice)
    expect(answer).toMatchObject({ status: 200, body: { invoice_id: invoice, transaction_state_id: 11, transaction_state_label: "Chargebacked" } })
    expect(await one(invoice)).toMatchObject({ transaction_state_id: 11, transaction_state_label: "Chargebacked" })
    expect((await list({ transactionState: "11" })).map((r) => r.invoice_id)).toEqual([invoice])
    expect((await chargeback(invoice)).status).toBe(409)
    expect((await chargeback(await pay({ transaction_type: "PreAuth" }))).status).toBe(409)
    expect((await chargeback("no_such_invoice")).status).toBe(404)
  })

  describe("errors", () => {
    const call = (body: unknown, headers: Record<string, string> = {}) =>
      fetch(`${sandbox.base_url}/api/getTransactions`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json", authorization: `Bearer ${token}`, ...headers },
        body: JSON.stringify(body),
      }).then(async (r) => ({ status: r.status, body: await r.json() }))

    it("answers 1 for a date that is missing or not YYYY-MM-DD, naming the field", async () => {
      for (const date of ["", "22-11-2026", "2026-02-30"]) {
        const { body } = await call(transactionsBody(m().merchant_key, { date }))
        expect(body.status_code).toBe(1)
        expect(body.status_description).toContain("date")
      }
    })

    it("answers 1 for a filter that is not a number", async () => {
      for (const field of ["currency_id", "paymentmethodid", "minamount", "maxamount", "transactionState"]) {
        const { body } = await call(transactionsBody(m().merchant_key, { date: today, [field]: "abc" }))
        expect(body).toMatchObject({ status_code: 1, status_description: expect.stringContaining(field) })
      }
    })

    it("answers 90 for a hash keyed with the app secret or over other filters", async () => {
      const good = transactionsBody(m().merchant_key, { date: today })
      const appSecretHash = generateHashKey([today, "", "", "", "", "", ""], m().app_secret)
      expect((await call({ ...good, hash_key: appSecretHash })).body.status_code).toBe(90)
      expect((await call({ ...good, currency_id: "1" })).body.status_code).toBe(90)
    })

    it("answers 14 for an unknown merchant_key, 1 without one, 401 without a bearer", async () => {
      expect((await call(transactionsBody("unknown", { date: today }))).body.status_code).toBe(14)
      expect((await call({ ...transactionsBody(m().merchant_key, { date: today }), merchant_key: "" })).body.status_code).toBe(1)
      expect((await call(transactionsBody(m().merchant_key, { date: today }), { authorization: "" })).status).toBe(401)
    })

    it("answers 1 when Accept or Content-Type is not application/json", async () => {
      const body = transactionsBody(m().merchant_key, { date: today })
      expect((await call(body, { accept: "text/html" })).body).toMatchObject({ status_code: 1, status_description: expect.stringContaining("Accept") })
      const form = await fetch(`${sandbox.base_url}/api/getTransactions`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json", authorization: `Bearer ${token}` },
        body: new URLSearchParams(body).toString(),
      }).then((r) => r.json())
      expect(form).toMatchObject({ status_code: 1, status_description: expect.stringContaining("Content-Type") })
    })
  })
})
