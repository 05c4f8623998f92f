import { randomBytes } from "node:crypto"
import { startSandbox, type SandboxHandle, type StartSandboxOptions } from "../../../sandbox"
import { SipayClient } from "../index"
import { paymentRequest, TEST_CARD } from "./support/fixtures"

/**
 * The client against the sandbox in each of its conventions (issue 18): checkstatus codes as the gateway's
 * docs publish them (32 unknown, 41 failed) or as the reference has them (31, 100 + Failed), each as an
 * object or a one-element array; the recurring plan at the top level; /payment/complete inside data.
 */

const DECLINING = "4000000200000000"

async function withSandbox(options: StartSandboxOptions) {
  const sandbox = await startSandbox({ port: 0, testControls: true, webhookRetryDelaysMs: [50], ...options })
  const client = new SipayClient({
    baseUrl: sandbox.base_url,
    appId: sandbox.merchant.app_id,
    appSecret: sandbox.merchant.app_secret,
    merchantKey: sandbox.merchant.merchant_key,
  })
  return { sandbox, client }
}

const invoice = () => `inv_${randomBytes(6).toString("hex")}`

describe.each<[string, StartSandboxOptions]>([
  ["published codes (32, 41)", { checkstatusCodes: "published" }],
  ["reference codes (31, 100 + Failed)", { checkstatusCodes: "reference" }],
  ["published codes in a one-element array", { checkstatusCodes: "published", checkstatusArray: true }],
  ["reference codes in a one-element array", { checkstatusCodes: "reference", checkstatusArray: true }],
])("checkStatus against the sandbox with %s", (_name, options) => {
  let sandbox: SandboxHandle
  let client: SipayClient
  beforeAll(async () => {
    ;({ sandbox, client } = await withSandbox(options))
  })
  afterAll(() => sandbox.close())

  it("reads a paid sale as Completed, a declined one as Failed (never an error) and an unknown invoice as not found", async () => {
    const paidInvoice = invoice()
    const paid = await client.paySmart2D(paymentRequest({ invoiceId: paidInvoice }), TEST_CARD)
    expect(paid.success).toBe(true)
    expect(await client.checkStatus(paidInvoice)).toMatchObject({ found: true, status: "Completed", orderId: paid.orderNo, transactionAmount: "10.50" })

    const declinedInvoice = invoice()
    const declined = await client.paySmart2D(paymentRequest({ invoiceId: declinedInvoice }), { ...TEST_CARD, number: DECLINING })
    expect(declined).toMatchObject({ success: false, statusCode: 41 })
    expect(await client.checkStatus(declinedInvoice)).toMatchObject({ found: true, status: "Failed", orderId: declined.orderNo, reason: "Insufficient funds" })

    expect(await client.checkStatus(invoice())).toMatchObject({ found: false, status: "NotFound", orderId: null })
  })
})

describe("the client reads the published recurring and payment/complete shapes from the sandbox", () => {
  let sandbox: SandboxHandle
  let client: SipayClient
  beforeAll(async () => {
    ;({ sandbox, client } = await withSandbox({ merchants: undefined }))
  })
  afterAll(() => sandbox.close())

  it("queryRecurringPlan reads the plan and its histories at the top level, 'Success' as Completed", async () => {
    const { sandbox: recurring, client: recurringClient } = await withSandbox({
      merchants: [{ merchant_id: 1, merchant_key: "$2y$10$recurringTestMerchantKey", app_id: "rec-app", app_secret: "rec-secret", recurring_webhooks: { rec: "http://127.0.0.1:9/hook" } }],
    })
    try {
      const firstInvoice = invoice()
      const first = await recurringClient.paySmart2D(
        paymentRequest({ invoiceId: firstInvoice, recurring: { paymentNumber: 3, cycle: "D", interval: 1, webhookKey: "rec" } }),
        TEST_CARD
      )
      expect(first.success).toBe(true)
      await fetch(`${recurring.link_base}/__sandbox/clock`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ advance_seconds: 86_400 + 60 }) })
      recurringClient.invalidateToken()
      const plan = await recurringClient.queryRecurringPlan(first.orderNo!)
      expect(plan).toMatchObject({ planCode: first.orderNo, firstOrderId: first.orderNo, invoiceId: firstInvoice, recurringStatus: "Active", nextActionDate: expect.any(String) })
      expect(plan.charges).toEqual([
        expect.objectContaining({ recurringNumber: 1, status: "Completed", gatewayStatus: "Success", attempts: 1, amount: "10.50", orderId: first.orderNo }),
        expect.objectContaining({ recurringNumber: 2, status: "Completed", gatewayStatus: "Success", attempts: 1, amount: "10.50" }),
      ])
      expect(plan.plan).toMatchObject({ plan_code: first.orderNo, next_action_date: plan.nextActionDate })
      const updated = await recurringClient.updateRecurringPlan({ planCode: first.orderNo!, status: 0 })
      expect(updated).toMatchObject({ statusCode: 100, statusDescription: "Recurring plan updated" })
    } finally {
      await recurring.close()
    }
  })

  it("completePayment reads the result from data", async () => {
    const invoiceId = invoice()
    const form = client.build3DForm(paymentRequest({ invoiceId, paymentCompletedBy: "merchant" }))
    const card = { cc_holder_name: TEST_CARD.holderName, cc_no: TEST_CARD.number, expiry_month: TEST_CARD.expiryMonth, expiry_year: TEST_CARD.expiryYear, cvv: TEST_CARD.cvv }
    const page = await fetch(form.action, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ ...form.fields, ...card }) })
    const bankAction = /<form[^>]*action="([^"]+)"/.exec(await page.text())![1].replace(/&amp;/g, "&")
    const redirect = await fetch(bankAction, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "sms_code=283126&action=confirm", redirect: "manual" })
    const orderNo = new URL(redirect.headers.get("location")!).searchParams.get("order_no")!
    const result = await client.completePayment(invoiceId, orderNo, "complete")
    expect(result).toMatchObject({ statusCode: 100, status: "Completed", orderId: orderNo, invoiceId })
    expect((result.raw as any).data.order_no).toBe(orderNo)
  })
})
