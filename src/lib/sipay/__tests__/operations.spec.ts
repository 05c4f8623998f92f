import { validateHashKey, generateHashKey } from "../hash"
import { CARD_FIELD_NAMES, SipayClient, SipayError } from "../index"
import { startFakeGateway, TEST_MERCHANT, type FakeGateway } from "./support/fake-gateway"
import { paymentRequest, TEST_CARD } from "./support/fixtures"

const ok = (extra: Record<string, unknown> = {}) => ({ body: { status_code: 100, status_description: "Success", ...extra } })

let gateway: FakeGateway
let client: SipayClient

beforeEach(async () => {
  gateway = await startFakeGateway()
  client = new SipayClient({ baseUrl: gateway.baseUrl + "/", ...TEST_MERCHANT })
})

afterEach(() => gateway.close())

function expectBearer(path: string) {
  const [request] = gateway.to(path)
  expect(request.headers.authorization).toBe(`Bearer ${gateway.tokensIssued[0]}`)
  return request
}

function hashOf(body: Record<string, any>, secret = TEST_MERCHANT.appSecret) {
  return validateHashKey(body.hash_key, secret)
}

describe("paySmart3D form", () => {
  it("carries every non-card field as strings, signed over total|installments|currency|merchant_key|invoice_id", () => {
    const form = client.build3DForm(
      paymentRequest({
        transactionType: "PreAuth",
        saleWebhookKey: "sale_hook",
        billing: { city: "Istanbul", email: "ayse@example.com" },
        responseMethod: "POST",
        paymentCompletedBy: "merchant",
        agricultural: { maturityPeriod: 3, paymentFrequency: 2 },
      })
    )
    expect(form.action).toBe(`${gateway.baseUrl}/api/paySmart3D`)
    expect(form.fields).toEqual({
      merchant_key: TEST_MERCHANT.merchantKey,
      invoice_id: "sess_01HXYZ_1",
      invoice_description: "Order sess_01HXYZ",
      total: "10.50",
      currency_code: "TRY",
      installments_number: "1",
      // Never a commission added on top by the gateway: an installment fee is a line of the total.
      is_comission_from_user: "0",
      name: "Ayşe",
      surname: "Yılmaz",
      items: JSON.stringify([
        { name: "Mug", price: 3.25, quantity: 2, description: "Blue mug" },
        { name: "Shipping", price: 4, quantity: 1, description: "Standard" },
      ]),
      return_url: "https://shop.example/sipay/3d/return",
      cancel_url: "https://shop.example/sipay/3d/cancel",
      bill_city: "Istanbul",
      bill_email: "ayse@example.com",
      transaction_type: "PreAuth",
      sale_webhook_key: "sale_hook",
      maturity_period: "3",
      payment_frequency: "2",
      response_method: "POST",
      payment_completed_by: "merchant",
      hash_key: expect.any(String),
    })
    for (const value of Object.values(form.fields)) {
      expect(typeof value).toBe("string")
    }
    for (const cardField of CARD_FIELD_NAMES) {
      expect(form.fields).not.toHaveProperty(cardField)
    }
    expect(hashOf(form.fields)).toEqual(["10.50", "1", "TRY", TEST_MERCHANT.merchantKey, "sess_01HXYZ_1"])
  })

  it("adds the recurring fields and leaves payment_completed_by out unless given", () => {
    const { fields } = client.build3DForm(
      paymentRequest({ recurring: { paymentNumber: 12, cycle: "M", interval: 1, webhookKey: "rec_hook" } })
    )
    expect(fields).toMatchObject({
      order_type: "1",
      recurring_payment_number: "12",
      recurring_payment_cycle: "M",
      recurring_payment_interval: "1",
      recurring_web_hook_key: "rec_hook",
    })
    expect(fields).not.toHaveProperty("payment_completed_by")
    expect(fields).not.toHaveProperty("transaction_type")
  })

  it.each([
    ["an invoice id with a dash", { invoiceId: "sess-1" }],
    ["an invoice id over 64 characters", { invoiceId: "a".repeat(65) }],
    ["items that do not sum to the total", { total: "10.51" }],
    ["an unknown currency", { currencyCode: "GBP" as never }],
    ["a recurring cycle other than D/M/Y", { recurring: { paymentNumber: 2, cycle: "W" as never, interval: 1 } }],
    ["installments with recurring", { installmentsNumber: 3, recurring: { paymentNumber: 2, cycle: "M" as const, interval: 1 } }],
    ["no return url", { returnUrl: undefined }],
  ])("refuses %s with a validation SipayError", (_, overrides) => {
    let caught: unknown
    try {
      client.build3DForm(paymentRequest(overrides))
    } catch (error) {
      caught = error
    }
    expect(caught).toBeInstanceOf(SipayError)
    expect((caught as SipayError).code).toBe("validation")
  })
})

describe("paySmart2D", () => {
  function answer(status: string, total: string, extra: Record<string, unknown> = {}, statusCode = 100) {
    return {
      body: {
        status_code: statusCode,
        status_description: statusCode === 100 ? "Payment process successful" : "transaction failed",
        data: {
          order_no: "ORD123",
          invoice_id: "sess_01HXYZ_1",
          payment_method: 1,
          credit_card_no: "450803****4509",
          transaction_type: "Auth",
          payment_status: status === "1" ? 1 : 0,
          error_code: statusCode === 100 ? 100 : "",
          error: "",
          hash_key: generateHashKey([status, total, "sess_01HXYZ_1", "ORD123", "TRY"], TEST_MERCHANT.appSecret),
          ...extra,
        },
      },
    }
  }

  it("posts JSON with a bearer: items as an array, installments a number, total the hashed string", async () => {
    gateway.on("/api/paySmart2D", () => answer("1", "10.5"))
    const result = await client.paySmart2D(paymentRequest(), TEST_CARD)
    const request = expectBearer("/api/paySmart2D")
    expect(request.headers["content-type"]).toMatch(/^application\/json/)
    const body = request.json
    expect(body).toMatchObject({
      cc_holder_name: "Ayşe Yılmaz",
      cc_no: "4508034508034509",
      expiry_month: "12",
      expiry_year: TEST_CARD.expiryYear,
      cvv: "000",
      merchant_key: TEST_MERCHANT.merchantKey,
      invoice_id: "sess_01HXYZ_1",
      total: "10.50",
      installments_number: 1,
      currency_code: "TRY",
      items: [
        { name: "Mug", price: 3.25, quantity: 2, description: "Blue mug" },
        { name: "Shipping", price: 4, quantity: 1, description: "Standard" },
      ],
    })
    expect(hashOf(body)).toEqual([body.total, "1", "TRY", TEST_MERCHANT.merchantKey, "sess_01HXYZ_1"])
    expect(result).toMatchObject({
      success: true,
      statusCode: 100,
      orderNo: "ORD123",
      paymentStatus: 1,
      transactionType: "Auth",
      maskedCardNumber: "450803****4509",
      hashVerified: true,
      hashParts: { status: "1", total: "10.5", invoiceId: "sess_01HXYZ_1", orderId: "ORD123", currencyCode: "TRY" },
    })
  })

  it("returns a declined card (41) as a result, not an error", async () => {
    gateway.on("/api/paySmart2D", () => answer("0", "10.5", { payment_status: 0, hash_key: undefined }, 41))
    const result = await client.paySmart2D(paymentRequest(), TEST_CARD)
    expect(result).toMatchObject({ success: false, statusCode: 41, paymentStatus: 0, hashVerified: false, errorCode: "" })
  })

  it("does not report success when the result hash names another total", async () => {
    gateway.on("/api/paySmart2D", () => answer("1", "1.00"))
    const result = await client.paySmart2D(paymentRequest(), TEST_CARD)
    expect(result.success).toBe(false)
    expect(result.hashVerified).toBe(false)
  })

  it("refuses a card holder name over 100 characters without calling the gateway", async () => {
    await expect(client.paySmart2D(paymentRequest(), { ...TEST_CARD, holderName: "x".repeat(101) })).rejects.toMatchObject({
      code: "validation",
    })
    expect(gateway.to("/api/paySmart2D")).toHaveLength(0)
  })
})

describe("checkstatus", () => {
  it("signs invoice_id|merchant_key, asks for pending ones and reads an array answer", async () => {
    gateway.on("/api/checkstatus", () => ({
      body: [
        {
          status_code: 100,
          status_description: "Success",
          transaction_status: "Completed",
          order_id: "ORD123",
          invoice_id: "sess_01HXYZ_1",
          transaction_id: "T-1",
          product_price: "10.5",
          transaction_amount: 10.5,
          total_refunded_amount: 0,
          transaction_type: "Auth",
          installment: 1,
          md_status: "1",
          reason: "",
        },
      ],
    }))
    const status = await client.checkStatus("sess_01HXYZ_1")
    const { json } = expectBearer("/api/checkstatus")
    expect(Object.keys(json).sort()).toEqual(["hash_key", "include_pending_status", "invoice_id", "merchant_key"])
    expect(json.include_pending_status).toBe("true")
    expect(hashOf(json)).toEqual(["sess_01HXYZ_1", TEST_MERCHANT.merchantKey])
    expect(status).toMatchObject({
      found: true,
      status: "Completed",
      orderId: "ORD123",
      transactionId: "T-1",
      productPrice: "10.50",
      transactionAmount: "10.50",
      totalRefundedAmount: "0.00",
      installment: 1,
      mdStatus: "1",
    })
  })

  it("reads 32 as not found, a 41 Failed record as a decline, and throws on any other refusal (2021 docs, QNBpay sample)", async () => {
    const answers = [
      { status_code: 32, status_description: "Invalid invoice id", transaction_status: "Failed", order_id: "", invoice_id: "sess_01HXYZ_1", reason: "No Request found for this invoice id" },
      [{ status_code: 41, status_description: "Oder Failed", transaction_status: "Failed", order_id: 162435924998223, invoice_id: "sess_01HXYZ_1", reason: "Failed # transaction failed" }],
      { status_code: 14, transaction_status: "", order_id: "", message: "Invalid merchant key", invoice_id: "sess_01HXYZ_1" },
    ]
    gateway.on("/api/checkstatus", (_request, index) => ({ body: answers[index] }))
    await expect(client.checkStatus("sess_01HXYZ_1")).resolves.toMatchObject({ found: false, status: "NotFound", statusCode: 32 })
    await expect(client.checkStatus("sess_01HXYZ_1")).resolves.toMatchObject({ found: true, status: "Failed", orderId: "162435924998223" })
    await expect(client.checkStatus("sess_01HXYZ_1")).rejects.toMatchObject({ statusCode: 14 })
  })

  it("reports an unknown invoice (31) as not found", async () => {
    gateway.on("/api/checkstatus", () => ({ body: { status_code: 31, status_description: "Transaction not found" } }))
    await expect(client.checkStatus("sess_nope_1", { includePending: false })).resolves.toMatchObject({ found: false })
    expect(gateway.to("/api/checkstatus")[0].json).not.toHaveProperty("include_pending_status")
  })
})

describe("pre-authorization, refund and payment/complete", () => {
  it("confirmPayment signs merchant_key|invoice_id|status with status 1 to complete", async () => {
    gateway.on("/api/confirmPayment", () => ok({ transaction_status: "Completed", order_id: "ORD123" }))
    const result = await client.confirmPayment("sess_01HXYZ_1", "complete", "5")
    const { json } = expectBearer("/api/confirmPayment")
    expect(json).toMatchObject({ invoice_id: "sess_01HXYZ_1", merchant_key: TEST_MERCHANT.merchantKey, status: 1, total: "5.00" })
    expect(hashOf(json)).toEqual([TEST_MERCHANT.merchantKey, "sess_01HXYZ_1", "1"])
    expect(result).toMatchObject({ transactionStatus: "Completed", orderId: "ORD123" })
  })

  it("confirmPayment cancels with status 2", async () => {
    gateway.on("/api/confirmPayment", () => ok())
    await client.confirmPayment("sess_01HXYZ_1", "cancel", "5")
    expect(hashOf(gateway.to("/api/confirmPayment")[0].json)).toEqual([TEST_MERCHANT.merchantKey, "sess_01HXYZ_1", "2"])
  })

  it("refund signs amount|invoice_id|merchant_key and accepts 101 (request created)", async () => {
    gateway.on("/api/refund", () => ({ body: { status_code: 101, status_description: "Refund request created", order_no: "ORD123", invoice_id: "sess_01HXYZ_1", ref_no: "R-9" } }))
    const result = await client.refund("sess_01HXYZ_1", 2.5, { refundTransactionId: "rf_1", refundWebhookKey: "refund_hook" })
    const { json } = expectBearer("/api/refund")
    expect(json).toEqual({
      invoice_id: "sess_01HXYZ_1",
      amount: "2.50",
      merchant_key: TEST_MERCHANT.merchantKey,
      app_id: TEST_MERCHANT.appId,
      app_secret: TEST_MERCHANT.appSecret,
      hash_key: expect.any(String),
      refund_transaction_id: "rf_1",
      refund_web_hook_key: "refund_hook",
    })
    expect(hashOf(json)).toEqual(["2.50", "sess_01HXYZ_1", TEST_MERCHANT.merchantKey])
    expect(result).toEqual({ orderNo: "ORD123", invoiceId: "sess_01HXYZ_1", refNo: "R-9", statusCode: 101, raw: expect.anything() })
  })

  it("payment/complete is served outside /api and signs merchant_key|invoice_id|order_id|status", async () => {
    gateway.on("/payment/complete", () => ok({ order_id: "ORD123", invoice_id: "sess_01HXYZ_1" }))
    await client.completePayment("sess_01HXYZ_1", "ORD123", "complete")
    const { json } = expectBearer("/payment/complete")
    expect(json).toMatchObject({ merchant_key: TEST_MERCHANT.merchantKey, invoice_id: "sess_01HXYZ_1", order_id: "ORD123", status: "complete" })
    expect(hashOf(json)).toEqual([TEST_MERCHANT.merchantKey, "sess_01HXYZ_1", "ORD123", "complete"])
  })
})

describe("lookups", () => {
  it("getPos sends only the first 6 digits and maps the options", async () => {
    gateway.on("/api/getpos", () =>
      ok({
        data: [
          { pos_id: 34, installments_number: 3, card_type: "Credit Card", card_program: "WORLD", card_scheme: "VISA", payable_amount: 103.5, amount_to_be_paid: "34.50", currency_code: "TRY", currency_id: 1, title: "3 Taksit" },
        ],
      })
    )
    const options = await client.getPos({ bin: "4508034508034509", amount: "100", currencyCode: "TRY", is2d: true })
    const { json } = expectBearer("/api/getpos")
    expect(json).toEqual({ credit_card: "450803", amount: "100.00", currency_code: "TRY", merchant_key: TEST_MERCHANT.merchantKey, is_2d: 1 })
    expect(options).toEqual([
      expect.objectContaining({ posId: 34, installmentsNumber: 3, cardProgram: "WORLD", cardScheme: "VISA", payableAmount: "103.50", amountToBePaid: "34.50", currencyId: 1, title: "3 Taksit" }),
    ])
  })

  it("getInstallments reads installments and the agricultural options; 62 is none", async () => {
    gateway.on("/api/installments", (_, index) =>
      index === 0 ? ok({ installments: [1, 2, 3], maturity_period: [3, 6], payment_frequency: [1, 2] }) : { body: { status_code: 62, status_description: "No installments" } }
    )
    await expect(client.getInstallments({ bin: "650170", amount: 50, currencyCode: "TRY" })).resolves.toMatchObject({
      installments: [1, 2, 3],
      maturityPeriods: [3, 6],
      paymentFrequencies: [1, 2],
    })
    expect(expectBearer("/api/installments").json).toEqual({ merchant_key: TEST_MERCHANT.merchantKey, credit_card: "650170", amount: "50.00", currency_code: "TRY" })
    await expect(client.getInstallments()).resolves.toMatchObject({ installments: [], maturityPeriods: [], paymentFrequencies: [] })
  })

  it("getTransactions keeps unused filters empty, in the body and in the merchant-key hash", async () => {
    gateway.on("/api/getTransactions", () => ok({ data: [{ id: 7, invoice_id: "sess_01HXYZ_1", transaction_state_id: 11 }] }))
    const sales = await client.getTransactions({ date: "2026-11-20", currencyId: 1 })
    const request = expectBearer("/api/getTransactions")
    expect(request.headers.accept).toBe("application/json")
    expect(request.headers["content-type"]).toBe("application/json")
    expect(Object.keys(request.json)).toEqual(["merchant_key", "hash_key", "date", "invoiceid", "currency_id", "paymentmethodid", "minamount", "maxamount", "transactionState"])
    expect(request.json).toMatchObject({ date: "2026-11-20", invoiceid: "", currency_id: "1", paymentmethodid: "", minamount: "", maxamount: "", transactionState: "" })
    expect(validateHashKey(request.json.hash_key, TEST_MERCHANT.merchantKey)).toEqual(["2026-11-20", "", "1", "", "", "", ""])
    expect(validateHashKey(request.json.hash_key, TEST_MERCHANT.appSecret)).toBeNull()
    expect(sales).toEqual([{ id: 7, invoice_id: "sess_01HXYZ_1", transaction_state_id: 11 }])
  })
})

describe("payment links", () => {
  it("dpl/create posts multipart to the panel base with product_photo as a file part", async () => {
    const panel = new SipayClient({ baseUrl: gateway.baseUrl, panelBaseUrl: gateway.baseUrl.replace("/ccpayment", "/merchant/"), ...TEST_MERCHANT })
    gateway.on("/merchant/api/dpl/create", () => ({
      body: { statuscode: 100, description: "DPL is created successfully", data: { dpl: { id: 42, token: "abc123" }, inputs: { amount: "150.00" } } },
    }))
    const photo = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3])
    const created = await panel.createPaymentLink({
      amount: "150",
      currency: "USD",
      isAmountSetByUser: true,
      name: "Gift card",
      description: "A gift card",
      photo: { data: photo, filename: "gift.png", contentType: "image/png" },
      expireDate: "2026-12-31",
      maxNumberOfUses: 5,
    })
    const [request] = gateway.to("/merchant/api/dpl/create")
    expect(request.headers.authorization).toBe(`Bearer ${gateway.tokensIssued[0]}`)
    expect(request.headers.accept).toBe("application/json")
    expect(request.headers["content-type"]).toMatch(/^multipart\/form-data; boundary=/)
    const form = request.multipart!
    expect(Object.fromEntries([...form.entries()].filter(([name]) => name !== "product_photo"))).toEqual({
      amount: "150.00",
      currency: "2",
      is_amount_set_by_user: "1",
      payment_link_type: "2",
      name_of_product: "Gift card",
      description: "A gift card",
      expire_date: "2026-12-31",
      max_number_of_uses: "5",
    })
    const file = form.get("product_photo") as File
    expect(typeof file).toBe("object")
    expect(file.name).toBe("gift.png")
    expect(file.type).toBe("image/png")
    expect(Buffer.from(await file.arrayBuffer())).toEqual(photo)
    expect(created).toMatchObject({ dpl: { id: 42, token: "abc123" }, inputs: { amount: "150.00" } })
  })

  it("dpl/sendemail posts JSON with payment_link_type 2 and refuses a bad address first", async () => {
    gateway.on("/api/dpl/sendemail", () => ({
      body: { statuscode: 100, description: "Success", data: { dpl: { id: 42, status: "ACTIVE" }, link: "http://127.0.0.1/dplLink/abc123" } },
    }))
    await expect(client.sendPaymentLinkEmail(42, ["ok@example.com", "not-an-address"])).rejects.toMatchObject({ code: "validation" })
    expect(gateway.to("/api/dpl/sendemail")).toHaveLength(0)
    const sent = await client.sendPaymentLinkEmail(42, ["ok@example.com"])
    expect(expectBearer("/api/dpl/sendemail").json).toEqual({ dpl_id: 42, payment_link_type: 2, email: ["ok@example.com"] })
    expect(sent).toMatchObject({ dpl: { id: 42, status: "ACTIVE" }, link: "http://127.0.0.1/dplLink/abc123" })
  })
})

describe("recurring plans", () => {
  it("queries and updates with the reference's field names", async () => {
    gateway.on("/api/recurringPlan/query", () => ok({ data: { plan_code: "PLN1", transactionHistories: [{ recurring_number: 1 }] } }))
    gateway.on("/api/recurringPlan/update", () => ok())
    const plan = await client.queryRecurringPlan("PLN1", 2)
    expect(expectBearer("/api/recurringPlan/query").json).toEqual({ merchant_key: TEST_MERCHANT.merchantKey, plan_code: "PLN1", recurring_number: 2 })
    expect(plan.transactionHistories).toEqual([{ recurring_number: 1 }])
    expect(plan).toMatchObject({ planCode: "PLN1", charges: [{ recurringNumber: 1, status: null }] })
    await client.updateRecurringPlan({ planCode: "PLN1", amount: "12.5", status: "ACTIVE", paymentNumber: 6 })
    expect(gateway.to("/api/recurringPlan/update")[0].json).toEqual({
      merchant_key: TEST_MERCHANT.merchantKey,
      plan_code: "PLN1",
      recurring_amount: "12.50",
      recurring_status: "ACTIVE",
      recurring_payment_number: 6,
    })
  })
})

describe("older answer shapes", () => {
  it("reads a recurring plan nested under data with the webhook's status words", async () => {
    gateway.on("/api/recurringPlan/query", () =>
      ok({ data: { plan_code: "PLN1", order_id: "ORD1", invoice_id: "sess_01HXYZ_1", transactionHistories: [{ recurring_number: 2, status: "Completed", attempts: 2, amount: 12.5, order_id: "ORD2" }] } })
    )
    const plan = await client.queryRecurringPlan("PLN1")
    expect(plan).toMatchObject({ planCode: "PLN1", firstOrderId: "ORD1", invoiceId: "sess_01HXYZ_1" })
    expect(plan.charges).toEqual([expect.objectContaining({ recurringNumber: 2, status: "Completed", gatewayStatus: "Completed", attempts: 2, amount: "12.50", orderId: "ORD2" })])
  })

  it("reads a /payment/complete result at the top level", async () => {
    gateway.on("/payment/complete", () => ok({ invoice_id: "sess_01HXYZ_1", order_id: "ORD123", transaction_status: "Completed" }))
    await expect(client.completePayment("sess_01HXYZ_1", "ORD123", "complete")).resolves.toMatchObject({ status: "Completed", orderId: "ORD123" })
  })
})

describe("token and connection", () => {
  it("asks for the token with app_id and app_secret, without a bearer", async () => {
    const token = await client.getToken()
    const [request] = gateway.to("/api/token")
    expect(request.json).toEqual({ app_id: TEST_MERCHANT.appId, app_secret: TEST_MERCHANT.appSecret })
    expect(request.headers.authorization).toBeUndefined()
    expect(token.token).toBe(gateway.tokensIssued[0])
    expect(token.expiresAt.getTime()).toBeGreaterThan(Date.now() + 119 * 60_000)
    expect(token.expiresAt.getTime()).toBeLessThan(Date.now() + 121 * 60_000)
  })

  it.each([
    [0, "2d-only"],
    [1, "2d-or-3d"],
    [2, "3d-only"],
    [4, "hosted"],
    [7, "unknown"],
  ])("testConnection maps is_3d %p to %p with a fresh token", async (is3d, mode) => {
    gateway.on("/api/token", () => ({ body: { status_code: 100, data: { token: "t-x", is_3d: is3d, expires_at: "garbage" } } }))
    await client.getToken()
    await expect(client.testConnection()).resolves.toEqual({ is3d, mode })
    expect(gateway.to("/api/token")).toHaveLength(2)
  })
})
