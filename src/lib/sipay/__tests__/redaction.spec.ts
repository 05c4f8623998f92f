import { redact, SipayClient, SipayError } from "../index"
import { generateHashKey } from "../hash"
import { startFakeGateway, TEST_MERCHANT, type FakeGateway, type Received } from "./support/fake-gateway"
import { paymentRequest } from "./support/fixtures"

const CARD_NUMBER = "4508034508034509"
const CVV = "7319"
const card = { holderName: "Ayşe Yılmaz", number: CARD_NUMBER, expiryMonth: "12", expiryYear: String(new Date().getUTCFullYear() + 2), cvv: CVV }

describe("redact", () => {
  it("masks card numbers (first 6, last 4), CVVs, secrets, tokens and hash keys in a deep copy", () => {
    const input = {
      cc_no: CARD_NUMBER,
      cvv: CVV,
      app_secret: "s3cr3t-value",
      nested: [{ token: "tok-abc", hash_key: "aa:bb:cc", merchant_key: "mk" }],
      headers: { Authorization: "Bearer tok-abc" },
      note: `paid with 4508 0345 0803 4509 and 5406675406675403`,
      amount: "10.50",
      invoice_id: "sess_01HXYZ_1",
    }
    const copy = redact(input)
    expect(copy).toEqual({
      cc_no: "450803******4509",
      cvv: "***",
      app_secret: "***",
      nested: [{ token: "***", hash_key: "***", merchant_key: "***" }],
      headers: { Authorization: "***" },
      note: "paid with 450803******4509 and 540667******5403",
      amount: "10.50",
      invoice_id: "sess_01HXYZ_1",
    })
    expect(input.cc_no).toBe(CARD_NUMBER)
  })

  it("scrubs secrets inside free text and known secret values anywhere", () => {
    expect(redact(`{"cvv":"${CVV}","app_secret":"xyz"} cc_no=${CARD_NUMBER}&token=abc Bearer eyJhbGciOi`)).toBe(
      `{"cvv":"***","app_secret":"***"} cc_no=450803******4509&token=*** Bearer ***`
    )
    expect(redact({ message: "secret is hunter2-long" }, { secrets: ["hunter2-long"] })).toEqual({ message: "secret is ***" })
  })

  it("survives cycles and binary data", () => {
    const cyclic: Record<string, unknown> = { name: "x", photo: Buffer.from("abc") }
    cyclic.self = cyclic
    expect(redact(cyclic)).toEqual({ name: "x", photo: "[binary 3 bytes]", self: "[Circular]" })
  })
})

describe("nothing secret leaves through logs or errors", () => {
  let gateway: FakeGateway
  const lines: string[] = []
  const errors: unknown[] = []
  const logger = {
    debug: (m: string) => lines.push(m),
    info: (m: string) => lines.push(m),
    warn: (m: string) => lines.push(m),
    error: (m: string) => lines.push(m),
  }
  /** A gateway that echoes what it received, secrets and all, into its descriptions. */
  const echo = (request: Received) => JSON.stringify({ body: request.json ?? request.form, headers: request.headers })

  beforeAll(async () => {
    gateway = await startFakeGateway({
      "/api/paySmart2D": (request, index) => {
        if (index === 0) {
          return {
            body: {
              status_code: 100,
              status_description: "Payment process successful",
              data: {
                order_no: "ORD1",
                invoice_id: request.json.invoice_id,
                payment_status: 1,
                transaction_type: "Auth",
                credit_card_no: "450803****4509",
                hash_key: generateHashKey(["1", "10.50", request.json.invoice_id, "ORD1", "TRY"], TEST_MERCHANT.appSecret),
              },
            },
          }
        }
        if (index === 1) return { body: { status_code: 41, status_description: `declined card ${CARD_NUMBER} cvv ${CVV}`, data: { payment_status: 0 } } }
        if (index === 2) return { status: 500, body: { status_description: echo(request) } }
        return { drop: true }
      },
      "/api/refund": (request) => ({ body: { status_code: 49, status_description: echo(request) } }),
      "/api/checkstatus": (request, index) =>
        index === 0 ? { status: 401, body: { message: `Unauthenticated ${request.headers.authorization}` } } : { body: { status_code: 90, status_description: echo(request) } },
      "/api/getTransactions": (request) => ({ body: { status_code: 1, status_description: `invalid request ${echo(request)}` } }),
    })
  })

  afterAll(() => gateway.close())

  async function attempt(run: () => Promise<unknown> | unknown) {
    try {
      await run()
    } catch (error) {
      errors.push(error)
    }
  }

  it("captures every logger line and error message across succeeding and failing calls", async () => {
    const client = new SipayClient({ baseUrl: gateway.baseUrl, ...TEST_MERCHANT, logger, timeoutMs: 2000 })
    const request = (n: number) => paymentRequest({ invoiceId: `sess_redact_${n}`, total: "10.50" })
    await attempt(() => client.paySmart2D(request(1), card))
    await attempt(() => client.paySmart2D(request(2), card))
    await attempt(() => client.paySmart2D(request(3), card))
    await attempt(() => client.paySmart2D(request(4), card))
    await attempt(() => client.paySmart2D(request(5), { ...card, holderName: `${CARD_NUMBER} ${CVV}`.repeat(10) }))
    await attempt(() => client.paySmart2D(request(6), { ...card, number: `${CARD_NUMBER}0000` }))
    await attempt(() => client.refund("sess_redact_1", "1.00", { refundTransactionId: "rf_1" }))
    await attempt(() => client.checkStatus("sess_redact_1"))
    await attempt(() => client.getTransactions({ date: "2026-11-20", invoiceId: "sess_redact_1" }))
    const badToken = new SipayClient({ baseUrl: gateway.baseUrl, ...TEST_MERCHANT, appSecret: "wrong-secret-1234", logger })
    gateway.on("/api/token", (r) => ({ body: { status_code: 30, status_description: `invalid credentials ${echo(r)}` } }))
    await attempt(() => badToken.checkStatus("sess_redact_1"))

    expect(errors.length).toBeGreaterThanOrEqual(8)
    expect(errors.every((error) => error instanceof SipayError)).toBe(true)
    expect(lines.length).toBeGreaterThanOrEqual(8)

    const tokens = gateway.tokensIssued
    expect(tokens.length).toBeGreaterThan(0)
    const forbidden = [CARD_NUMBER, "4508 0345 0803 4509", CVV, TEST_MERCHANT.appSecret, "wrong-secret-1234", TEST_MERCHANT.merchantKey, ...tokens]
    const exposed = [
      ...lines,
      ...errors.flatMap((error) => [String((error as Error).message), String((error as Error).stack), JSON.stringify(error), (error as SipayError).description]),
    ]
    for (const text of exposed) {
      for (const secret of forbidden) {
        if (text.includes(secret)) {
          throw new Error(`leaked ${secret.slice(0, 3)}… in: ${text.slice(0, 200)}`)
        }
      }
      expect(text).not.toMatch(/hash_key"?\s*[:=]\s*"?[0-9a-f]{16}:/)
    }
  })
})
