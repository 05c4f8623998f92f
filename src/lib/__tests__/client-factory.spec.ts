import { startFakeGateway, TEST_MERCHANT, type FakeGateway } from "../sipay/__tests__/support/fake-gateway"
import { clientFor } from "../client-factory"

let gateway: FakeGateway

beforeEach(async () => {
  gateway = await startFakeGateway({ "/api/checkstatus": () => ({ body: { status_code: 100, transaction_status: "Completed", invoice_id: "inv_1" } }) })
})
afterEach(() => gateway.close())

describe("clientFor: one client per credential set per process", () => {
  it("gives the module and both providers (three callers, equal options) one client and one token", async () => {
    const options = () => ({ baseUrl: `${gateway.baseUrl}/`, ...TEST_MERCHANT, capture: true })
    const module = clientFor(options())
    const threeD = clientFor(options())
    const direct = clientFor({ ...options(), baseUrl: gateway.baseUrl, enableDirectPayment: true })
    expect(threeD).toBe(module)
    expect(direct).toBe(module)
    await Promise.all([module.checkStatus("inv_1"), threeD.checkStatus("inv_2"), direct.checkStatus("inv_3")])
    expect(gateway.to("/api/token")).toHaveLength(1)
  })

  it("keeps credential sets apart", () => {
    const base = { baseUrl: gateway.baseUrl, ...TEST_MERCHANT }
    const client = clientFor(base)
    expect(clientFor({ ...base, appId: "another-app" })).not.toBe(client)
    expect(clientFor({ ...base, appSecret: "another-secret" })).not.toBe(client)
    expect(clientFor({ ...base, baseUrl: "http://127.0.0.1:1/ccpayment" })).not.toBe(client)
  })
})
