import type { SandboxHandle } from "../index"
import { checkstatusBody, merchantConfig, postJson, start, tokenFor } from "./support"

describe("sandbox: token and bearer authentication", () => {
  let sandbox: SandboxHandle
  const other = merchantConfig({ merchant_id: 2, merchant_key: "other-key", app_id: "other-app", app_secret: "other-secret" })

  beforeAll(async () => {
    sandbox = await start({ merchants: [merchantConfig({ is_3d: 2 }), other] })
  })
  afterAll(() => sandbox.close())

  it("issues a 2-hour token with is_3d and an Istanbul expires_at", async () => {
    const before = Date.now()
    const { status, body } = await postJson(`${sandbox.base_url}/api/token`, { app_id: sandbox.merchant.app_id, app_secret: sandbox.merchant.app_secret })
    expect(status).toBe(200)
    expect(body).toMatchObject({ status_code: 100, status_description: "Successfully Generated Token", data: { is_3d: 2 } })
    expect(typeof body.data.token).toBe("string")
    expect(body.data.expires_at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)
    const expiresUtc = Date.parse(body.data.expires_at.replace(" ", "T") + "+03:00")
    expect(Math.abs(expiresUtc - (before + 2 * 3600 * 1000))).toBeLessThan(5000)
  })

  it("answers 30 to bad credentials and 1 to a missing field", async () => {
    const bad = await postJson(`${sandbox.base_url}/api/token`, { app_id: sandbox.merchant.app_id, app_secret: "wrong" })
    expect(bad).toEqual({ status: 200, body: expect.objectContaining({ status_code: 30 }) })
    const missing = await postJson(`${sandbox.base_url}/api/token`, { app_id: sandbox.merchant.app_id })
    expect(missing.body.status_code).toBe(1)
    expect(missing.body.status_description).toContain("app_secret")
  })

  it.each(["paySmart2D", "checkstatus", "confirmPayment", "refund", "getpos", "installments"])("requires a bearer on %s (401 Unauthenticated.)", async (operation) => {
    for (const token of [undefined, "not-a-token"]) {
      const { status, body } = await postJson(`${sandbox.base_url}/api/${operation}`, { merchant_key: sandbox.merchant.merchant_key }, token)
      expect(status).toBe(401)
      expect(body).toEqual({ status_code: 401, status_description: "Unauthenticated." })
    }
  })

  it("requires a bearer on /payment/complete", async () => {
    const { status } = await postJson(`${sandbox.base_url.replace(/\/ccpayment$/, "")}/ccpayment/payment/complete`, {})
    expect(status).toBe(401)
  })

  it("answers 405 to a known path with another method and 404 elsewhere", async () => {
    expect((await fetch(`${sandbox.base_url}/api/token`)).status).toBe(405)
    expect((await fetch(`${sandbox.base_url}/api/nothing`, { method: "POST" })).status).toBe(404)
  })

  it("refuses a token once the sandbox clock passes its 2 hours", async () => {
    const token = await tokenFor(sandbox)
    const request = () => postJson(`${sandbox.base_url}/api/checkstatus`, checkstatusBody(sandbox.merchant, "none"), token)
    expect((await request()).body.status_code).toBe(32)
    await postJson(`${sandbox.link_base}/__sandbox/clock`, { advance_seconds: 2 * 3600 - 60 })
    expect((await request()).status).toBe(200)
    await postJson(`${sandbox.link_base}/__sandbox/clock`, { advance_seconds: 61 })
    expect((await request()).status).toBe(401)
  })

  it("accepts a token only for its own merchant", async () => {
    const token = await tokenFor(sandbox, other)
    const { status } = await postJson(`${sandbox.base_url}/api/checkstatus`, checkstatusBody(sandbox.merchant, "none"), token)
    expect(status).toBe(401)
  })
})
