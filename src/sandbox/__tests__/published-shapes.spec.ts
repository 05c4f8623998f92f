import { generateHashKey, validateHashKey } from "../../lib/sipay/hash"
import type { SandboxHandle, StartSandboxOptions } from "../index"
import {
  INSUFFICIENT, POS_UNDEFINED, SMS_CODE, VISA,
  advanceClock, checkstatusBody, invoiceId, merchantConfig, paymentFields, postForm, postJson, readForm, start, threeDForm, tokenFor,
} from "./support"

/**
 * Issue 18: where the interface is silent, the sandbox answers the way the live gateway's published
 * clients read it. Each expected shape names its source; see docs/sandbox.md "Answer shapes".
 */

const DAY = 86_400

async function session(options: StartSandboxOptions = {}) {
  const sandbox = await start(options)
  // A token per call: some tests move the sandbox clock past a token's 2 hours.
  const api = async (operation: string, body: unknown) => postJson(`${sandbox.base_url}/${operation}`, body, await tokenFor(sandbox))
  return { sandbox, api, m: sandbox.merchant }
}

type Session = Awaited<ReturnType<typeof session>>

async function pay2d({ api, m }: Session, overrides: Record<string, unknown> = {}) {
  const fields = paymentFields(m, overrides)
  const { body } = await api("api/paySmart2D", fields)
  return { invoice: fields.invoice_id as string, body }
}

function locationFields(response: Response): Record<string, string> {
  expect(response.status).toBe(303)
  return Object.fromEntries(new URL(response.headers.get("location")!).searchParams)
}

async function bankRedirect(sandbox: SandboxHandle, form: Record<string, string>): Promise<Record<string, string>> {
  const page = await postForm(`${sandbox.base_url}/api/paySmart3D`, form)
  const { action } = readForm(await page.text())
  return locationFields(await postForm(action, { sms_code: SMS_CODE, action: "confirm" }))
}

describe("sandbox answers as the published clients read them (default conventions)", () => {
  let s: Session
  beforeAll(async () => {
    s = await session()
  })
  afterAll(() => s.sandbox.close())

  // Point 1. sipay-node src/types/index.ts RecurringQueryResponse / RecurringTransactionHistory; official
  // OpenCart 3 v2.4.4 catalog/controller/extension/payment/sipay.php:337-356 reads $response['transactionHistories']
  // and compares status == 'Success' / 'Failed' (also PrestaShop recurringwebhook.php:164-206, WooCommerce :2491).
  it("recurringPlan/query answers the plan and transactionHistories at the top level, history status 'Success' (sipay-node RecurringQueryResponse, official OpenCart/PrestaShop/WooCommerce modules)", async () => {
    const { invoice, body: paid } = await pay2d(s, {
      total: "40", items: [{ name: "Plan", price: "40", quantity: 1 }], order_type: 1, recurring_payment_number: 3,
      recurring_payment_cycle: "D", recurring_payment_interval: 1, recurring_web_hook_key: "rec",
    })
    const planCode = paid.data.order_no
    await advanceClock(s.sandbox, DAY + 60)
    const { body } = await s.api("api/recurringPlan/query", { merchant_key: s.m.merchant_key, plan_code: planCode })
    expect(body).not.toHaveProperty("data")
    expect(body).toMatchObject({
      status_code: 100, message: "Success", recurring_id: expect.any(Number), plan_code: planCode, currency: "TRY",
      first_amount: 40, recurring_amount: 40, total_amount: 120, payment_number: 3, payment_interval: 1, payment_cycle: "D",
      first_order_id: planCode, merchant_id: 18309, card_no: "450803****4509", recurring_status: "Active",
      next_action_date: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/), transaction_date: expect.any(String),
      invoice_id: invoice,
    })
    expect(body.transactionHistories).toEqual([
      expect.objectContaining({ recurring_number: 1, status: "Success", attempts: 1, amount: 40, sale_id: expect.any(Number), sale_recurring_id: body.recurring_id, remarks: null, order_id: planCode }),
      expect.objectContaining({ recurring_number: 2, status: "Success", attempts: 1, amount: 40, order_id: expect.stringMatching(/^\d+$/) }),
    ])
    // sipay-node RecurringPlanUpdateResponse: {status_code, message}.
    const updated = (await s.api("api/recurringPlan/update", { merchant_key: s.m.merchant_key, plan_code: planCode, recurring_amount: "30" })).body
    expect(updated).not.toHaveProperty("data")
    expect(updated).toMatchObject({ status_code: 100, message: "Recurring plan updated", recurring_amount: 30, plan_code: planCode })
  })

  it("a declined charge's history entry is 'Failed' with the decline as remarks (official modules compare status == 'Failed')", async () => {
    const { body: paid } = await pay2d(s, {
      cc_no: "4155150000000008", total: "12", items: [{ name: "Plan", price: "12", quantity: 1 }], order_type: 1,
      recurring_payment_number: 2, recurring_payment_cycle: "D", recurring_payment_interval: 5, recurring_web_hook_key: "rec",
    })
    await advanceClock(s.sandbox, 5 * DAY + 60)
    const { body } = await s.api("api/recurringPlan/query", { merchant_key: s.m.merchant_key, plan_code: paid.data.order_no, recurring_number: 2 })
    expect(body.transactionHistories).toEqual([expect.objectContaining({ recurring_number: 2, status: "Failed", attempts: 1, remarks: "Insufficient funds" })])
  })

  // Point 2. QNBpay docs (trgino/qnbpay-woocommerce docs/paymentcontrolrefund_completepaymentapi.md): the result in
  // `data` {order_no, order_id, invoice_id, status_code, status_description, credit_card_no, transaction_type,
  // payment_status, payment_method, error_code, error, auth_code, status, hash_key}; the PHP SDK's
  // CompletePaymentMapper reads only data.*; unknown order: 31 "Pending sale not found against order_id …" with data.
  it("/payment/complete answers its result inside data, the unknown order as published (QNBpay docs, PHP SDK CompletePaymentMapper)", async () => {
    const form = threeDForm(s.m, { payment_completed_by: "merchant" })
    const redirect = await bankRedirect(s.sandbox, form)
    const complete = (orderId: string) =>
      s.api("payment/complete", {
        merchant_key: s.m.merchant_key, invoice_id: form.invoice_id, order_id: orderId, status: "complete",
        hash_key: generateHashKey([s.m.merchant_key, form.invoice_id, orderId, "complete"], s.m.app_secret),
      })
    const unknown = (await complete("99999")).body
    expect(unknown).toEqual({ status_code: 31, status_description: "Pending sale not found against order_id 99999", data: { invoice_id: form.invoice_id, order_id: "99999" } })
    const { body } = await complete(redirect.order_no)
    expect(body).toMatchObject({
      status_code: 100, status_description: "Payment Successfully Completed",
      data: {
        order_no: redirect.order_no, order_id: redirect.order_no, invoice_id: form.invoice_id, status_code: 100,
        credit_card_no: "450803****4509", transaction_type: "Auth", payment_status: 1, payment_method: 1, error_code: 100,
        auth_code: redirect.auth_code, status: "Completed", hash_key: expect.any(String),
      },
    })
    expect(body).not.toHaveProperty("order_id")
    expect(validateHashKey(body.data.hash_key, s.m.app_secret)).toEqual(["Completed", "150.75", form.invoice_id, redirect.order_no, "TRY"])
  })

  // Point 3. sipay-node Payment2DData and the PHP SDK's NonSecurePaymentMapper map sipay_status, sipay_payment_method
  // and the commission fields.
  it("paySmart2D data carries sipay_status, sipay_payment_method and the commission fields (sipay-node Payment2DData, PHP NonSecurePaymentMapper)", async () => {
    const { body } = await pay2d(s)
    expect(body.data).toMatchObject({
      sipay_status: 1, sipay_payment_method: 1, merchant_commission: 3.77, user_commission: 0,
      merchant_commission_percentage: 2.5, merchant_commission_fixed: 0,
    })
    const declined = await pay2d(s, { cc_no: INSUFFICIENT })
    expect(declined.body).toMatchObject({ status_code: 41, data: { sipay_status: 0, payment_status: 0, merchant_commission: 0 } })
  })

  // Point 3. QNBpay checkstatus sample (docs/paymentcontrolrefund_transactionstatus.md), sipay-node
  // PaymentStatusResponse, PHP TransactionStatusMapper: message, bank_status_*, ref_number, cc_no, commissions,
  // settlement_date, card_type; recurring_id, recurring_plan_code, next_action_date, recurring_status for recurring sales.
  it("checkstatus carries the live fields, and a recurring sale's plan fields (QNBpay sample, sipay-node PaymentStatusResponse, PHP TransactionStatusMapper)", async () => {
    const { invoice } = await pay2d(s)
    const { body } = await s.api("api/checkstatus", checkstatusBody(s.m, invoice))
    expect(body).toMatchObject({
      status_code: 100, transaction_status: "Completed", message: `An order has been taken place for this invoice id: ${invoice}`,
      reason: "", bank_status_code: "", bank_status_description: "", ref_number: "", cc_no: "450803****4509", card_type: "CREDIT CARD",
      merchant_commission: 3.77, user_commission: 0, settlement_date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      transaction_amount: 150.75, product_price: 150.75, total_refunded_amount: 0, transaction_type: "Auth", installment: 1,
    })
    const recurring = await pay2d(s, {
      total: "20", items: [{ name: "Plan", price: "20", quantity: 1 }], order_type: 1, recurring_payment_number: 2,
      recurring_payment_cycle: "M", recurring_payment_interval: 1, recurring_web_hook_key: "rec",
    })
    const planned = (await s.api("api/checkstatus", checkstatusBody(s.m, recurring.invoice))).body
    expect(planned).toMatchObject({ recurring_id: expect.any(Number), recurring_plan_code: recurring.body.data.order_no, recurring_status: "Active", next_action_date: expect.any(String) })
  })

  // Point 3, codes. 2021 official docs 08.islem-durumu (soyermert/sipay): 32 "Invalid invoice id", transaction_status
  // Failed, reason "No Request found for this invoice id"; the gateway's code table (sipay-node status-codes.ts):
  // 32 "Invalid invoice ID, order not completed". QNBpay sample: a failed sale is 41 with transaction_status Failed.
  it("checkstatus answers an unknown invoice with 32 and a failed sale with 41, both transaction_status Failed (2021 docs, QNBpay sample)", async () => {
    const unknown = invoiceId()
    expect((await s.api("api/checkstatus", checkstatusBody(s.m, unknown))).body).toMatchObject({
      status_code: 32, transaction_status: "Failed", reason: "No Request found for this invoice id", invoice_id: unknown, order_id: "",
    })
    const { invoice } = await pay2d(s, { cc_no: INSUFFICIENT })
    expect((await s.api("api/checkstatus", checkstatusBody(s.m, invoice))).body).toMatchObject({
      status_code: 41, status_description: "Order Failed", transaction_status: "Failed", invoice_id: invoice,
      bank_status_code: "Failed # transaction failed", bank_status_description: "transaction failed", reason: "Insufficient funds",
    })
  })

  // getpos rows: 2021 docs 03.taksit-bilgisi-alma and sipay-node PosInfo (campaign_id, allocation_id, is_commercial,
  // amount_to_be_paid "248.00", title "Single payment"); installments: sipay-node InstallmentsResponse `message`.
  it("getpos rows and the installments answer carry the published fields (2021 docs, sipay-node PosInfo / InstallmentsResponse)", async () => {
    const pos = (await s.api("api/getpos", { credit_card: "450803", amount: "248", currency_code: "TRY", merchant_key: s.m.merchant_key })).body
    expect(pos.data[0]).toMatchObject({ pos_id: 1, campaign_id: 0, allocation_id: 0, installments_number: 1, card_type: "CREDIT CARD", is_commercial: 0, payable_amount: 248, amount_to_be_paid: "248.00", title: "Single payment" })
    expect((await s.api("api/installments", { merchant_key: s.m.merchant_key })).body).toMatchObject({ status_code: 100, message: "Merchant Active Installment", installments: [1, 2, 3, 6, 9, 12] })
  })

  // Point 4 (default): the interface's names.
  it("the 3D redirect uses the interface's service_status / service_payment_method by default (gateway-interface.md)", async () => {
    const fields = await bankRedirect(s.sandbox, threeDForm(s.m))
    expect(fields).toMatchObject({ service_status: "1", service_payment_method: "1" })
    expect(fields).not.toHaveProperty("sipay_status")
  })

  // Point 5. sipay-node examples/final-payment-test.ts ("Final test with working credentials") sends order_type 'sale'.
  it("an order_type other than 1 is a single payment, as sipay-node's final-payment-test.ts sends 'sale'", async () => {
    for (const orderType of ["sale", "0", 2]) {
      const { invoice, body } = await pay2d(s, { order_type: orderType })
      expect(body.status_code).toBe(100)
      expect((await s.api("api/checkstatus", checkstatusBody(s.m, invoice))).body).not.toHaveProperty("recurring_id")
    }
  })

  // Point 6. external-sdk.md edge probe: an object invoice_id was stored as "[object Object]"; a 20 MB body got HTTP 200.
  it("refuses an invoice_id that is not text with code 1, for payments and checkstatus", async () => {
    const fields = paymentFields(s.m, { invoice_id: { a: 1 }, hash_key: generateHashKey(["150.75", "1", "TRY", s.m.merchant_key, "[object Object]"], s.m.app_secret) })
    expect((await s.api("api/paySmart2D", fields)).body).toMatchObject({ status_code: 1, status_description: "The invoice_id must be a string." })
    expect((await s.api("api/checkstatus", { ...checkstatusBody(s.m, "x"), invoice_id: ["x"] })).body).toMatchObject({ status_code: 1 })
    const sales: any[] = await (await fetch(`${s.sandbox.link_base}/__sandbox/sales`)).json()
    expect(sales.some((sale) => sale.invoice_id === "[object Object]")).toBe(false)
    // A number is text the way PHP clients send it.
    const numeric = Number(Date.now().toString().slice(-9))
    expect((await pay2d(s, { invoice_id: numeric })).body.status_code).toBe(100)
  })

  it("answers HTTP 413 to a body over 5 MB, declared or streamed, and keeps serving", async () => {
    const declared = await fetch(`${s.sandbox.base_url}/api/token`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ pad: "x".repeat(6 * 1024 * 1024) }) })
    expect(declared.status).toBe(413)
    expect(await declared.json()).toEqual({ status_code: 413, status_description: "Request Entity Too Large" })
    const chunk = new TextEncoder().encode("y".repeat(1024 * 1024))
    const stream = new ReadableStream({ start(controller) { for (let i = 0; i < 6; i++) controller.enqueue(chunk); controller.close() } })
    const streamed = await fetch(`${s.sandbox.base_url}/api/token`, { method: "POST", headers: { "content-type": "application/json" }, body: stream, duplex: "half" } as RequestInit)
    expect(streamed.status).toBe(413)
    expect((await postJson(`${s.sandbox.base_url}/api/token`, { app_id: s.m.app_id, app_secret: s.m.app_secret })).body.status_code).toBe(100)
  })
})

describe("sandbox start options: the other conventions", () => {
  // Point 4. 2021 docs 05.3D ("?sipay_status=1&order_no=…"), sipay-node Payment3DResponse, official WooCommerce
  // woo-payment-sipay.php:2093 `isset($_REQUEST['sipay_status'])`.
  it("redirectNames 'sipay' sends the live gateway's sipay_status / sipay_payment_method, on success and on an early refusal (2021 docs 05.3D, WooCommerce module)", async () => {
    const s = await session({ redirectNames: "sipay" })
    try {
      const fields = await bankRedirect(s.sandbox, threeDForm(s.m))
      expect(fields).toMatchObject({ sipay_status: "1", sipay_payment_method: "1", payment_status: "1" })
      expect(fields).not.toHaveProperty("service_status")
      expect(fields).not.toHaveProperty("service_payment_method")
      const refused = locationFields(await postForm(`${s.sandbox.base_url}/api/paySmart3D`, threeDForm(s.m, { cc_no: POS_UNDEFINED })))
      expect(refused).toMatchObject({ sipay_status: "0", sipay_payment_method: "1", status_code: "102" })
      expect(refused).not.toHaveProperty("service_status")
    } finally {
      await s.sandbox.close()
    }
  })

  // gateway-reference.md: "Some deployments wrap the object in a one-element array"; QNBpay's sample is an array.
  it("checkstatusArray wraps every checkstatus record in a one-element array (QNBpay checkstatus sample)", async () => {
    const s = await session({ checkstatusArray: true })
    try {
      const { invoice } = await pay2d(s)
      const { body } = await s.api("api/checkstatus", checkstatusBody(s.m, invoice))
      expect(Array.isArray(body)).toBe(true)
      expect(body).toHaveLength(1)
      expect(body[0]).toMatchObject({ status_code: 100, transaction_status: "Completed", invoice_id: invoice })
      const unknown = (await s.api("api/checkstatus", checkstatusBody(s.m, invoiceId()))).body
      expect(unknown).toEqual([expect.objectContaining({ status_code: 32 })])
    } finally {
      await s.sandbox.close()
    }
  })

  it("checkstatusCodes 'reference' answers 31 for an unknown invoice and 100 + Failed for a failed sale (gateway-reference.md)", async () => {
    const s = await session({ checkstatusCodes: "reference", merchants: [merchantConfig()] })
    try {
      expect((await s.api("api/checkstatus", checkstatusBody(s.m, invoiceId()))).body).toEqual({ status_code: 31, status_description: "Transaction not found" })
      const { invoice } = await pay2d(s, { cc_no: INSUFFICIENT })
      expect((await s.api("api/checkstatus", checkstatusBody(s.m, invoice))).body).toMatchObject({ status_code: 100, transaction_status: "Failed" })
      const { invoice: paid } = await pay2d(s, { cc_no: VISA })
      expect((await s.api("api/checkstatus", checkstatusBody(s.m, paid))).body).toMatchObject({ status_code: 100, transaction_status: "Completed" })
    } finally {
      await s.sandbox.close()
    }
  })
})
