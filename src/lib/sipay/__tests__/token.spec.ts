import { SipayClient, SipayError } from "../index"
import { parseExpiresAt } from "../token"
import { istanbulTimestamp, startFakeGateway, TEST_MERCHANT, type FakeGateway } from "./support/fake-gateway"

const found = { body: { status_code: 100, status_description: "Success", transaction_status: "Completed", invoice_id: "inv_1" } }

let gateway: FakeGateway
let client: SipayClient

beforeEach(async () => {
  gateway = await startFakeGateway({ "/api/checkstatus": () => found })
  client = new SipayClient({ baseUrl: gateway.baseUrl, ...TEST_MERCHANT })
})

afterEach(() => gateway.close())

const bearers = (path: string) => gateway.to(path).map((request) => request.headers.authorization)

describe("token lifetime", () => {
  it("reuses one token for many operations", async () => {
    await client.getToken()
    for (let i = 0; i < 5; i++) {
      await client.checkStatus(`inv_${i}`)
    }
    expect(gateway.to("/api/token")).toHaveLength(1)
    expect(new Set(bearers("/api/checkstatus"))).toEqual(new Set([`Bearer ${gateway.tokensIssued[0]}`]))
  })

  it("shares one token request among 10 concurrent calls (single flight)", async () => {
    gateway.on("/api/token", () => ({
      delayMs: 50,
      body: { status_code: 100, data: { token: "tok-shared", is_3d: 1, expires_at: istanbulTimestamp(new Date(Date.now() + 7200_000)) } },
    }))
    await Promise.all(Array.from({ length: 10 }, (_, i) => client.checkStatus(`inv_${i}`)))
    expect(gateway.to("/api/token")).toHaveLength(1)
    expect(gateway.to("/api/checkstatus")).toHaveLength(10)
  })

  it("fetches a new token within 5 minutes of expiry", async () => {
    gateway.on("/api/token", (_, index) => ({
      body: { status_code: 100, data: { token: `t${index}`, is_3d: 1, expires_at: istanbulTimestamp(new Date(Date.now() + 4 * 60_000)) } },
    }))
    await client.checkStatus("inv_1")
    await client.checkStatus("inv_2")
    expect(gateway.to("/api/token")).toHaveLength(2)
  })

  it("fetches a new token after invalidateToken()", async () => {
    await client.getToken()
    client.invalidateToken()
    await client.getToken()
    expect(gateway.to("/api/token")).toHaveLength(2)
  })

  it("reads expires_at as Istanbul time (UTC+3) and assumes 2 hours when it does not parse", () => {
    expect(parseExpiresAt("2030-01-01 03:00:00").toISOString()).toBe("2030-01-01T00:00:00.000Z")
    expect(parseExpiresAt("2030-02-30 03:00:00", 0).getTime()).toBe(7200_000)
    expect(parseExpiresAt(undefined, 1000).getTime()).toBe(7201_000)
    const now = Date.UTC(2030, 0, 1, 12)
    expect(parseExpiresAt("2030-01-01 14:00:00", now).getTime()).toBe(now + 7200_000)
  })

  it("maps bad credentials (30) to a non-retryable SipayError and tries again on the next call", async () => {
    gateway.on("/api/token", (_, index) =>
      index === 0
        ? { status: 401, body: { status_code: 30, status_description: "Invalid credentials" } }
        : { body: { status_code: 100, data: { token: "t-ok", is_3d: 1, expires_at: istanbulTimestamp(new Date(Date.now() + 7200_000)) } } }
    )
    const error: SipayError = await client.checkStatus("inv_1").catch((e) => e)
    expect(error).toBeInstanceOf(SipayError)
    expect(error).toMatchObject({ operation: "token", statusCode: 30, code: "invalid_credentials", retryable: false, httpStatus: 401 })
    await expect(client.checkStatus("inv_1")).resolves.toMatchObject({ found: true })
    expect(gateway.to("/api/token")).toHaveLength(2)
  })
})

describe("re-authentication", () => {
  it.each([
    ["HTTP 401", { status: 401, body: { message: "Unauthorized" } }],
    ["status_code 401 in the body", { body: { status_code: 401, status_description: "Unauthorized" } }],
    ["an expired-token message", { body: { status_code: 99, status_description: "Token is expired" } }],
    ["an unauthenticated message", { body: { message: "Unauthenticated." } }],
  ])("fetches a new token once and repeats the call once after %s", async (_, rejection) => {
    gateway.on("/api/checkstatus", (_request, index) => (index === 0 ? rejection : found))
    await expect(client.checkStatus("inv_1")).resolves.toMatchObject({ found: true, status: "Completed" })
    expect(gateway.to("/api/token")).toHaveLength(2)
    expect(bearers("/api/checkstatus")).toEqual([`Bearer ${gateway.tokensIssued[0]}`, `Bearer ${gateway.tokensIssued[1]}`])
  })

  it("gives up after one re-authentication when the repeat is refused too", async () => {
    gateway.on("/api/checkstatus", () => ({ status: 401, body: { message: "Unauthenticated." } }))
    const error: SipayError = await client.checkStatus("inv_1").catch((e) => e)
    expect(error).toBeInstanceOf(SipayError)
    expect(error).toMatchObject({ code: "unauthorized", httpStatus: 401, retryable: false })
    expect(gateway.to("/api/token")).toHaveLength(2)
    expect(gateway.to("/api/checkstatus")).toHaveLength(2)
  })

  it("re-authenticates once for many concurrent calls refused with the same token", async () => {
    await client.getToken()
    gateway.on("/api/checkstatus", (request) =>
      request.headers.authorization === `Bearer ${gateway.tokensIssued[0]}` ? { status: 401, body: {} } : found
    )
    await Promise.all(Array.from({ length: 10 }, (_, i) => client.checkStatus(`inv_${i}`)))
    expect(gateway.to("/api/token")).toHaveLength(2)
    expect(gateway.to("/api/checkstatus")).toHaveLength(20)
  })

  it("re-authenticates a payment once too, since a refused token means nothing was charged", async () => {
    gateway.on("/api/refund", (_, index) => (index === 0 ? { status: 401, body: {} } : { body: { status_code: 100, order_no: "O1", invoice_id: "inv_1" } }))
    await expect(client.refund("inv_1", "1")).resolves.toMatchObject({ orderNo: "O1" })
    expect(gateway.to("/api/refund")).toHaveLength(2)
  })
})
