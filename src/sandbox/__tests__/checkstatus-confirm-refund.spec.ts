import { generateHashKey } from "../../lib/sipay/hash"
import type { SandboxHandle } from "../index"
import { checkstatusBody, confirmBody, INSUFFICIENT, refundBody, paymentFields, postForm, postJson, readForm, start, threeDForm, tokenFor } from "./support"

describe("sandbox: checkstatus, confirmPayment and refund", () => {
  let sandbox: SandboxHandle
  let token: string
  const m = () => sandbox.merchant
  const api = (operation: string, body: unknown) => postJson(`${sandbox.base_url}/api/${operation}`, body, token)
  const status = async (invoice: string, extra: Record<string, unknown> = {}) => (await api("checkstatus", checkstatusBody(m(), invoice, extra))).body
  const pay = async (overrides: Record<string, unknown> = {}) => {
    const fields = paymentFields(m(), overrides)
    const { body } = await api("paySmart2D", fields)
    return { invoice: fields.invoice_id as string, body }
  }
  const confirm = (invoice: string, state: "1" | "2", total?: string) => api("confirmPayment", confirmBody(m(), invoice, state, total))
  const refund = (invoice: string, amount: string, extra: Record<string, unknown> = {}) => api("refund", refundBody(m(), invoice, amount, extra))

  beforeAll(async () => {
    sandbox = await start()
    token = await tokenFor(sandbox)
  })
  afterAll(() => sandbox.close())

  describe("checkstatus", () => {
    it("reports a completed Auth sale with every field", async () => {
      const { invoice, body } = await pay({ installments_number: 3 })
      expect(await status(invoice)).toEqual({
        status_code: 100, status_description: "Success", transaction_status: "Completed", order_id: body.data.order_no,
        invoice_id: invoice, transaction_id: expect.any(String), product_price: 150.75, transaction_amount: 150.75,
        total_refunded_amount: 0, transaction_type: "Auth", installment: 3, currency_code: "TRY", md_status: "",
        reason: "", payment_status: 1,
        // The live fields (published-shapes.spec.ts quotes their sources).
        message: `An order has been taken place for this invoice id: ${invoice}`, bank_status_code: "", bank_status_description: "",
        ref_number: "", cc_no: "450803****4509", card_type: "CREDIT CARD", merchant_commission: 3.77, user_commission: 0,
        merchant_commission_percentage: 2.5, merchant_commission_fixed: 0, settlement_date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      })
    })

    it("reports a declined sale as Failed with the decline as reason", async () => {
      const { invoice } = await pay({ cc_no: INSUFFICIENT })
      expect(await status(invoice)).toMatchObject({ transaction_status: "Failed", reason: "Insufficient funds", payment_status: 0 })
    })

    it("reports an unfinished bank page as Pending only with include_pending_status", async () => {
      const form = threeDForm(m())
      const page = await postForm(`${sandbox.base_url}/api/paySmart3D`, form)
      expect(readForm(await page.text()).action).not.toBe("")
      expect(await status(form.invoice_id)).toMatchObject({ transaction_status: "Failed", reason: "Pending" })
      expect(await status(form.invoice_id, { include_pending_status: "true" })).toMatchObject({ transaction_status: "Pending" })
      expect(await status(form.invoice_id, { include_pending_status: true })).toMatchObject({ transaction_status: "Pending" })
    })

    it("answers 32 for an unknown invoice and 90 for a hash over other data", async () => {
      expect((await status("no_such_invoice")).status_code).toBe(32)
      const bad = { ...checkstatusBody(m(), "a"), invoice_id: "b" }
      expect((await api("checkstatus", bad)).body.status_code).toBe(90)
      expect((await api("checkstatus", { ...checkstatusBody(m(), "a"), hash_key: "x:y:z" })).body.status_code).toBe(90)
    })
  })

  describe("confirmPayment (pre-authorization)", () => {
    it("completes a reserved pre-auth for a partial total: Completed, Auth, transaction_amount = confirmed total", async () => {
      const { invoice, body } = await pay({ transaction_type: "PreAuth" })
      expect(await status(invoice)).toMatchObject({ transaction_status: "Completed", transaction_type: "Pre-Authorization", transaction_amount: 150.75 })
      const confirmed = await confirm(invoice, "1", "100.5")
      expect(confirmed.body).toEqual({ status_code: 100, status_description: "Payment confirmed", transaction_status: "Completed", order_id: body.data.order_no, invoice_id: invoice })
      expect(await status(invoice)).toMatchObject({ transaction_status: "Completed", transaction_type: "Auth", product_price: 150.75, transaction_amount: 100.5 })
      const again = await confirm(invoice, "1", "100.5")
      expect(again.body.status_code).toBe(105)
      expect(again.body.status_description).toContain("already been completed")
    })

    it("refuses a total above the reserved amount (105) and cancels with status 2", async () => {
      const { invoice } = await pay({ transaction_type: "PreAuth" })
      expect((await confirm(invoice, "1", "150.76")).body.status_code).toBe(105)
      expect((await confirm(invoice, "2")).body).toMatchObject({ status_code: 100, transaction_status: "Cancelled" })
      expect(await status(invoice)).toMatchObject({ transaction_status: "Failed", transaction_type: "Pre-Authorization", reason: "Cancelled" })
      const again = await confirm(invoice, "1", "10")
      expect([again.body.status_code, again.body.status_description]).toEqual([105, expect.stringContaining("cancelled")])
    })

    it("refuses an Auth sale (105), an unknown invoice (31), a bad status (1) and a bad hash (90)", async () => {
      const { invoice } = await pay()
      expect((await confirm(invoice, "1", "10")).body.status_code).toBe(105)
      expect((await confirm("nope", "1", "10")).body.status_code).toBe(31)
      const badStatus = await api("confirmPayment", { invoice_id: invoice, merchant_key: m().merchant_key, status: "3", total: "1", hash_key: generateHashKey([m().merchant_key, invoice, "3"], m().app_secret) })
      expect(badStatus.body.status_code).toBe(1)
      const badHash = await api("confirmPayment", { invoice_id: invoice, merchant_key: m().merchant_key, status: "1", total: "1", hash_key: generateHashKey([m().merchant_key, invoice, "2"], m().app_secret) })
      expect(badHash.body.status_code).toBe(90)
    })
  })

  describe("refund", () => {
    it("refunds partially then fully; checkstatus shows the refunded total and reason Refunded", async () => {
      const { invoice, body } = await pay()
      const first = await refund(invoice, "50.25", { refund_transaction_id: `rt_${invoice}_1` })
      expect(first.body).toEqual({ status_code: 100, status_description: "Refund successful", order_no: body.data.order_no, invoice_id: invoice, ref_no: expect.any(String) })
      expect(await status(invoice)).toMatchObject({ transaction_status: "Completed", total_refunded_amount: 50.25 })
      expect((await refund(invoice, "100.51")).body.status_code).toBe(49)
      expect((await refund(invoice, "100.50")).body.status_code).toBe(100)
      expect(await status(invoice)).toMatchObject({ transaction_status: "Completed", total_refunded_amount: 150.75, transaction_amount: 150.75, reason: "Refunded" })
      expect((await refund(invoice, "0.01")).body.status_code).toBe(49)
    })

    it("answers 104 to any reused refund_transaction_id, even on another invoice", async () => {
      const a = await pay()
      const b = await pay()
      expect((await refund(a.invoice, "1", { refund_transaction_id: "rt-shared" })).body.status_code).toBe(100)
      expect((await refund(a.invoice, "1", { refund_transaction_id: "rt-shared" })).body.status_code).toBe(104)
      expect((await refund(b.invoice, "1", { refund_transaction_id: "rt-shared" })).body.status_code).toBe(104)
    })

    it("refunds a confirmed pre-auth up to the confirmed total, never a reserved one (49)", async () => {
      const { invoice } = await pay({ transaction_type: "PreAuth" })
      expect((await refund(invoice, "1")).body.status_code).toBe(49)
      await confirm(invoice, "1", "100")
      expect((await refund(invoice, "100.01")).body.status_code).toBe(49)
      expect((await refund(invoice, "100")).body.status_code).toBe(100)
    })

    it("refuses a failed sale (49), wrong app credentials (30), an amount not matching its hash (68), unknown invoice (31)", async () => {
      const failed = await pay({ cc_no: INSUFFICIENT })
      expect((await refund(failed.invoice, "1")).body.status_code).toBe(49)
      const { invoice } = await pay()
      expect((await refund(invoice, "1", { app_secret: "wrong" })).body.status_code).toBe(30)
      expect((await refund(invoice, "2", { hash_key: generateHashKey(["1", invoice, m().merchant_key], m().app_secret) })).body.status_code).toBe(68)
      expect((await refund(invoice, "1.00", { hash_key: generateHashKey(["1", invoice, m().merchant_key], m().app_secret) })).body.status_code).toBe(100)
      expect((await refund("nope", "1")).body.status_code).toBe(31)
    })
  })
})
