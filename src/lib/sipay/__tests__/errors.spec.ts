import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { describeStatusCode, SipayClient, SipayError, STATUS_CODES } from "../index"
import { startFakeGateway, TEST_MERCHANT, type FakeGateway } from "./support/fake-gateway"
import { paymentRequest, TEST_CARD } from "./support/fixtures"

const found = { body: { status_code: 100, transaction_status: "Completed", invoice_id: "inv_1" } }

let gateway: FakeGateway
let client: SipayClient

beforeEach(async () => {
  gateway = await startFakeGateway()
  client = new SipayClient({ baseUrl: gateway.baseUrl, ...TEST_MERCHANT, timeoutMs: 300 })
})

afterEach(() => gateway.close())

async function failure(promise: Promise<unknown>): Promise<SipayError> {
  const error = await promise.then(
    () => {
      throw new Error("expected a SipayError")
    },
    (e) => e
  )
  expect(error).toBeInstanceOf(SipayError)
  return error
}

describe("status code table", () => {
  it("describes every code seen in the reference, retryable only when transient", () => {
    const seen = [1, 3, 117, 12, 13, 14, 30, 31, 32, 34, 36, 40, 41, 44, 49, 55, 56, 62, 68, 69, 71, 90, 100, 101, 102, 104, 105, 110]
    for (const code of seen) {
      expect(describeStatusCode(code)).toMatchObject({ code, known: true })
      expect(describeStatusCode(String(code)).description.length).toBeGreaterThan(3)
    }
    expect([...STATUS_CODES.values()].filter((info) => info.retryable).map((info) => info.code)).toEqual([69])
    expect(describeStatusCode(999)).toMatchObject({ key: "gateway_error", known: false, retryable: false })
    expect(describeStatusCode(null)).toMatchObject({ key: "gateway_error", known: false })
  })
})

describe("gateway codes become SipayErrors", () => {
  it("refund 49: code, description and a readable message", async () => {
    gateway.on("/api/refund", () => ({ body: { status_code: 49, status_description: "refund failed" } }))
    const error = await failure(client.refund("inv_1", "5"))
    expect(error.message).toBe("Sipay refund failed: [49] refund failed")
    expect(error).toMatchObject({ operation: "refund", statusCode: 49, code: "refund_failed", description: "refund failed", retryable: false, httpStatus: 200 })
  })

  it("refund 104: a reused refund_transaction_id is refund_id_reused", async () => {
    gateway.on("/api/refund", () => ({ body: { status_code: 104, status_description: "refund_transaction_id should be unique" } }))
    const error = await failure(client.refund("inv_1", "5", { refundTransactionId: "rf_1" }))
    expect(error).toMatchObject({ code: "refund_id_reused", statusCode: 104, retryable: false })
  })

  it("uses the table's description when the gateway gives none, and numeric-string codes", async () => {
    gateway.on("/api/confirmPayment", () => ({ body: { status_code: "105" } }))
    const error = await failure(client.confirmPayment("inv_1", "complete", "5"))
    expect(error).toMatchObject({ statusCode: 105, code: "not_approved", description: "not approved" })
  })

  it("an answer without a status code is a gateway_error", async () => {
    gateway.on("/api/getpos", () => ({ body: { data: [] } }))
    const error = await failure(client.getPos({ bin: "450803", amount: 1, currencyCode: "TRY" }))
    expect(error).toMatchObject({ statusCode: null, code: "gateway_error" })
  })

  it("order pending (69) is retryable", async () => {
    gateway.on("/api/checkstatus", () => ({ body: { status_code: 69, status_description: "Order pending" } }))
    expect(await failure(client.checkStatus("inv_1"))).toMatchObject({ code: "order_pending", retryable: true })
  })

  it("dpl operations read statuscode", async () => {
    gateway.on("/api/dpl/sendemail", () => ({ body: { statuscode: 12, description: "Invalid dpl" } }))
    expect(await failure(client.sendPaymentLinkEmail(1, ["a@example.com"]))).toMatchObject({ statusCode: 12, description: "Invalid dpl" })
  })
})

describe("refused input", () => {
  it.each([
    ["refund", (c: SipayClient) => c.refund("inv_1", "-5")],
    ["confirmPayment", (c: SipayClient) => c.confirmPayment("inv_1", "complete", "five")],
    ["getpos", (c: SipayClient) => c.getPos({ bin: "450803", amount: NaN, currencyCode: "TRY" })],
    ["getTransactions", (c: SipayClient) => c.getTransactions({ date: "20.11.2026" })],
  ])("%s refuses a bad amount or date with a validation SipayError, before any request", async (_, run) => {
    expect(await failure(run(client))).toMatchObject({ code: "validation", retryable: false })
    expect(gateway.requests).toHaveLength(0)
  })
})

describe("transport faults", () => {
  it("HTTP 500 is a retryable http_error, and a read is not repeated for it", async () => {
    gateway.on("/api/checkstatus", () => ({ status: 500, raw: "<h1>Server Error</h1>" }))
    expect(await failure(client.checkStatus("inv_1"))).toMatchObject({ code: "http_error", httpStatus: 500, retryable: true })
    expect(gateway.to("/api/checkstatus")).toHaveLength(1)
  })

  it("HTTP 500 on a refund is retryable and not repeated by the client", async () => {
    gateway.on("/api/refund", () => ({ status: 500, body: {} }))
    expect(await failure(client.refund("inv_1", "5"))).toMatchObject({ code: "http_error", retryable: true })
    expect(gateway.to("/api/refund")).toHaveLength(1)
  })

  it("a dropped connection on paySmart2D is outcome_unknown and the payment is sent once", async () => {
    gateway.on("/api/paySmart2D", () => ({ drop: true }))
    const error = await failure(client.paySmart2D(paymentRequest(), TEST_CARD))
    expect(error).toMatchObject({ operation: "paySmart2D", code: "outcome_unknown", retryable: false })
    expect(gateway.to("/api/paySmart2D")).toHaveLength(1)
  })

  it("a timeout on paySmart2D is outcome_unknown and the payment is sent once", async () => {
    gateway.on("/api/paySmart2D", () => ({ delayMs: 1000, body: {} }))
    const error = await failure(client.paySmart2D(paymentRequest(), TEST_CARD))
    expect(error).toMatchObject({ code: "outcome_unknown", retryable: false })
    expect(gateway.to("/api/paySmart2D")).toHaveLength(1)
  })

  it.each([
    ["refund", (c: SipayClient) => c.refund("inv_1", "5"), "/api/refund"],
    ["confirmPayment", (c: SipayClient) => c.confirmPayment("inv_1", "complete", "5"), "/api/confirmPayment"],
    ["payment/complete", (c: SipayClient) => c.completePayment("inv_1", "O1", "complete"), "/payment/complete"],
    ["dpl/sendemail", (c: SipayClient) => c.sendPaymentLinkEmail(1, ["a@example.com"]), "/api/dpl/sendemail"],
  ])("a dropped connection on %s is outcome_unknown, never repeated", async (_, run, path) => {
    gateway.on(path, () => ({ drop: true }))
    expect(await failure(run(client))).toMatchObject({ code: "outcome_unknown", retryable: false })
    expect(gateway.to(path)).toHaveLength(1)
  })

  it("a 502 on a payment is outcome_unknown", async () => {
    gateway.on("/api/paySmart2D", () => ({ status: 502, raw: "Bad Gateway" }))
    expect(await failure(client.paySmart2D(paymentRequest(), TEST_CARD))).toMatchObject({ code: "outcome_unknown", httpStatus: 502 })
    expect(gateway.to("/api/paySmart2D")).toHaveLength(1)
  })

  it("an unparseable payment answer is outcome_unknown; an unparseable read is invalid_response", async () => {
    gateway.on("/api/paySmart2D", () => ({ raw: "<html>oops</html>" }))
    gateway.on("/api/checkstatus", () => ({ raw: "<html>oops</html>" }))
    expect(await failure(client.paySmart2D(paymentRequest(), TEST_CARD))).toMatchObject({ code: "outcome_unknown" })
    expect(await failure(client.checkStatus("inv_1"))).toMatchObject({ code: "invalid_response", retryable: false })
  })

  it.each([
    ["a dropped connection", { drop: true }],
    ["HTTP 502", { status: 502, raw: "Bad Gateway" }],
    ["HTTP 503", { status: 503, raw: "Unavailable" }],
    ["a timeout", { delayMs: 1000, body: {} }],
  ])("checkstatus repeats once after %s", async (_, fault) => {
    gateway.on("/api/checkstatus", (_request, index) => (index === 0 ? fault : found))
    await expect(client.checkStatus("inv_1")).resolves.toMatchObject({ found: true })
    expect(gateway.to("/api/checkstatus")).toHaveLength(2)
  })

  it("a trickling answer still times out as a whole, then the read is repeated once", async () => {
    gateway.on("/api/checkstatus", () => ({ trickleMs: 50 }))
    const started = Date.now()
    expect(await failure(client.checkStatus("inv_1"))).toMatchObject({ code: "timeout", retryable: true })
    expect(gateway.to("/api/checkstatus")).toHaveLength(2)
    expect(Date.now() - started).toBeLessThan(2000)
  })

  it("checkstatus gives up after the one repeat with a retryable network error", async () => {
    gateway.on("/api/checkstatus", () => ({ drop: true }))
    expect(await failure(client.checkStatus("inv_1"))).toMatchObject({ code: "network", retryable: true })
    expect(gateway.to("/api/checkstatus")).toHaveLength(2)
  })

  it("getTransactions and getpos repeat once after a drop too", async () => {
    gateway.on("/api/getTransactions", (_, index) => (index === 0 ? { drop: true } : { body: { status_code: 100, data: [] } }))
    await expect(client.getTransactions({ date: "2026-11-20" })).resolves.toEqual([])
    expect(gateway.to("/api/getTransactions")).toHaveLength(2)
  })

  it("an unreachable gateway is a retryable network error: nothing was sent", async () => {
    const server = createServer()
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    const { port } = server.address() as AddressInfo
    await new Promise((resolve) => server.close(resolve))
    const offline = new SipayClient({ baseUrl: `http://127.0.0.1:${port}/ccpayment`, ...TEST_MERCHANT })
    expect(await failure(offline.paySmart2D(paymentRequest(), TEST_CARD))).toMatchObject({ code: "network", retryable: true })
  })
})
