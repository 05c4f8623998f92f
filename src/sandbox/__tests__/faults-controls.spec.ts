import { generateHashKey, validateHashKey } from "../../lib/sipay/hash"
import type { SandboxHandle } from "../index"
import {
  checkstatusBody, getJson, merchantConfig, paymentFields, postForm, postJson, readForm, sleep, SMS_CODE, start, startReceiver,
  threeDForm, tokenFor, type Receiver,
} from "./support"

describe("sandbox: faults (test controls)", () => {
  let sandbox: SandboxHandle
  let receiver: Receiver
  let token: string
  const m = () => sandbox.merchant
  const arm = (fault: Record<string, unknown>) => postJson(`${sandbox.link_base}/__sandbox/faults`, fault)
  const pay2d = (overrides: Record<string, unknown> = {}) => postJson(`${sandbox.base_url}/api/paySmart2D`, paymentFields(m(), overrides), token)
  const status = async (invoice: string) => (await postJson(`${sandbox.base_url}/api/checkstatus`, checkstatusBody(m(), invoice), token)).body

  beforeAll(async () => {
    receiver = await startReceiver()
    sandbox = await start({ merchants: [merchantConfig({ sale_webhooks: { shop: receiver.url } })] })
    token = await tokenFor(sandbox)
  })
  afterAll(async () => {
    await sandbox.close()
    await receiver.close()
  })
  beforeEach(async () => {
    receiver.received.length = 0
    await fetch(`${sandbox.link_base}/__sandbox/faults`, { method: "DELETE" })
  })

  it("latency delays the answer by ms", async () => {
    await arm({ operation: "checkstatus", kind: "latency", ms: 300 })
    const started = Date.now()
    expect((await status("none")).status_code).toBe(32)
    expect(Date.now() - started).toBeGreaterThanOrEqual(290)
  })

  it("http_500 and http_502 answer 5xx for `times` calls, then the operation works again", async () => {
    expect((await arm({ operation: "token", kind: "http_500", times: 2 })).status).toBe(200)
    const tokenRequest = () => postJson(`${sandbox.base_url}/api/token`, { app_id: m().app_id, app_secret: m().app_secret })
    expect((await tokenRequest()).status).toBe(500)
    expect((await tokenRequest()).status).toBe(500)
    expect((await tokenRequest()).status).toBe(200)
    await arm({ operation: "paySmart2D", kind: "http_502" })
    const fields = paymentFields(m())
    const response = await fetch(`${sandbox.base_url}/api/paySmart2D`, { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${token}` }, body: JSON.stringify(fields) })
    expect(response.status).toBe(502)
    expect((await status(fields.invoice_id)).status_code).toBe(32)
  })

  it("drop_connection closes the socket without answering or acting", async () => {
    await arm({ operation: "paySmart2D", kind: "drop_connection" })
    const fields = paymentFields(m())
    await expect(postJson(`${sandbox.base_url}/api/paySmart2D`, fields, token)).rejects.toThrow()
    expect((await status(fields.invoice_id)).status_code).toBe(32)
  })

  it("charge_then_drop charges (2D), refunds and confirms, then drops the answer", async () => {
    await arm({ operation: "paySmart2D", kind: "charge_then_drop" })
    const fields = paymentFields(m(), { transaction_type: "PreAuth" })
    await expect(postJson(`${sandbox.base_url}/api/paySmart2D`, fields, token)).rejects.toThrow()
    expect(await status(fields.invoice_id)).toMatchObject({ transaction_status: "Completed", transaction_type: "Pre-Authorization" })

    await arm({ operation: "confirmPayment", kind: "charge_then_drop" })
    const confirm = { invoice_id: fields.invoice_id, merchant_key: m().merchant_key, status: "1", total: "150.75", hash_key: generateHashKey([m().merchant_key, fields.invoice_id, "1"], m().app_secret) }
    await expect(postJson(`${sandbox.base_url}/api/confirmPayment`, confirm, token)).rejects.toThrow()
    expect(await status(fields.invoice_id)).toMatchObject({ transaction_type: "Auth", transaction_amount: 150.75 })

    await arm({ operation: "refund", kind: "charge_then_drop" })
    const refund = { invoice_id: fields.invoice_id, amount: "10", merchant_key: m().merchant_key, app_id: m().app_id, app_secret: m().app_secret, hash_key: generateHashKey(["10", fields.invoice_id, m().merchant_key], m().app_secret) }
    await expect(postJson(`${sandbox.base_url}/api/refund`, refund, token)).rejects.toThrow()
    expect((await status(fields.invoice_id)).total_refunded_amount).toBe(10)
  })

  it("charge_then_drop of paySmart3D settles at the bank page and the browser never gets the redirect", async () => {
    await arm({ operation: "paySmart3D", kind: "charge_then_drop" })
    const form = threeDForm(m(), { sale_webhook_key: "shop" })
    const page = await postForm(`${sandbox.base_url}/api/paySmart3D`, form)
    expect(page.status).toBe(200)
    await expect(postForm(readForm(await page.text()).action, { sms_code: SMS_CODE, action: "confirm" })).rejects.toThrow()
    expect((await status(form.invoice_id)).transaction_status).toBe("Completed")
    await receiver.waitFor(1)
  })

  it("duplicate sends the sale webhook twice; delay holds it for ms", async () => {
    await arm({ operation: "sale_webhook", kind: "duplicate" })
    await pay2d({ sale_webhook_key: "shop" })
    await receiver.waitFor(2)
    expect(receiver.received[0].invoice_id).toBe(receiver.received[1].invoice_id)

    receiver.received.length = 0
    await arm({ operation: "sale_webhook", kind: "delay", ms: 400 })
    await pay2d({ sale_webhook_key: "shop" })
    await sleep(200)
    expect(receiver.received).toHaveLength(0)
    await receiver.waitFor(1)
  })

  it("drop never sends the sale webhook, and the webhook log says so; the next one goes out", async () => {
    await arm({ operation: "sale_webhook", kind: "drop" })
    const { body } = await pay2d({ sale_webhook_key: "shop" })
    await sleep(300)
    expect(receiver.received).toHaveLength(0)
    const log = (await (await fetch(`${sandbox.link_base}/__sandbox/webhooks`)).json()) as { body: { invoice_id: string }; status: number; error?: string }[]
    expect(log.find((entry) => entry.body.invoice_id === body.data.invoice_id)).toMatchObject({ status: 0, error: "dropped (test fault)" })
    await pay2d({ sale_webhook_key: "shop" })
    await receiver.waitFor(1)
  })

  it("bad_result_hash signs the 2D result, the 3D redirect and the webhook with a wrong secret", async () => {
    await arm({ operation: "paySmart2D", kind: "bad_result_hash" })
    await arm({ operation: "sale_webhook", kind: "bad_result_hash" })
    const { body } = await pay2d({ sale_webhook_key: "shop" })
    expect(body.status_code).toBe(100)
    expect(validateHashKey(body.data.hash_key, m().app_secret)).toBeNull()
    await receiver.waitFor(1)
    expect(validateHashKey(receiver.received[0].hash_key, m().app_secret)).toBeNull()

    await arm({ operation: "paySmart3D", kind: "bad_result_hash" })
    const page = await postForm(`${sandbox.base_url}/api/paySmart3D`, threeDForm(m()))
    const redirect = await postForm(readForm(await page.text()).action, { sms_code: SMS_CODE, action: "confirm" })
    const hash = new URL(redirect.headers.get("location")!).searchParams.get("hash_key")!
    expect(validateHashKey(hash, m().app_secret)).toBeNull()
    expect((await pay2d()).body.data.hash_key).toEqual(expect.any(String))
  })

  it("hits getTransactions, dpl (create and sendemail) and recurringPlan like any operation", async () => {
    await arm({ operation: "getTransactions", kind: "http_500" })
    await arm({ operation: "dpl", kind: "http_502" })
    await arm({ operation: "recurringPlan", kind: "http_500" })
    expect((await postJson(`${sandbox.base_url}/api/getTransactions`, {}, token)).status).toBe(500)
    const sendEmail = await fetch(`${sandbox.base_url}/api/dpl/sendemail`, { method: "POST", headers: { authorization: `Bearer ${token}` }, body: "{}" })
    expect(sendEmail.status).toBe(502)
    expect((await postJson(`${sandbox.base_url}/api/recurringPlan/query`, {}, token)).status).toBe(500)
    expect((await postJson(`${sandbox.base_url}/api/dpl/sendemail`, {}, token)).body).toMatchObject({ statuscode: 1 })
  })

  it("lists, validates and clears faults", async () => {
    expect((await arm({ operation: "nope", kind: "http_500" })).status).toBe(400)
    expect((await arm({ operation: "token", kind: "duplicate" })).status).toBe(400)
    expect((await arm({ operation: "sale_webhook", kind: "http_500" })).status).toBe(400)
    expect((await arm({ operation: "token", kind: "http_500", times: 0 })).status).toBe(400)
    await arm({ operation: "refund", kind: "http_502", times: 3 })
    expect((await getJson(`${sandbox.link_base}/__sandbox/faults`)).body).toEqual([{ operation: "refund", kind: "http_502", times: 3, ms: 0 }])
    await fetch(`${sandbox.link_base}/__sandbox/faults`, { method: "DELETE" })
    expect((await getJson(`${sandbox.link_base}/__sandbox/faults`)).body).toEqual([])
  })
})

describe("sandbox: control API", () => {
  it("serves clock, outbox, webhooks, sales and reset", async () => {
    const sandbox = await start()
    try {
      const before = (await getJson(`${sandbox.link_base}/__sandbox/clock`)).body
      expect(Math.abs(Date.parse(before.now) - Date.now())).toBeLessThan(5000)
      const after = (await postJson(`${sandbox.link_base}/__sandbox/clock`, { advance_seconds: 86400 })).body
      expect(Date.parse(after.now) - Date.parse(before.now)).toBeGreaterThanOrEqual(86400 * 1000)
      expect((await postJson(`${sandbox.link_base}/__sandbox/clock`, { advance_seconds: "x" })).status).toBe(400)
      expect((await getJson(`${sandbox.link_base}/__sandbox/outbox`)).body).toEqual([])
      expect((await getJson(`${sandbox.link_base}/__sandbox/webhooks`)).body).toEqual([])
      const token = await tokenFor(sandbox)
      await postJson(`${sandbox.base_url}/api/paySmart2D`, paymentFields(sandbox.merchant), token)
      expect((await getJson(`${sandbox.link_base}/__sandbox/sales`)).body).toHaveLength(1)
      await postJson(`${sandbox.link_base}/__sandbox/reset`, {})
      expect((await getJson(`${sandbox.link_base}/__sandbox/sales`)).body).toEqual([])
      expect(Math.abs(Date.parse((await getJson(`${sandbox.link_base}/__sandbox/clock`)).body.now) - Date.now())).toBeLessThan(5000)
    } finally {
      await sandbox.close()
    }
  })

  it("is absent (404) without testControls", async () => {
    const sandbox = await start({ testControls: false })
    try {
      expect((await fetch(`${sandbox.link_base}/__sandbox/clock`)).status).toBe(404)
      expect((await postJson(`${sandbox.link_base}/__sandbox/faults`, { operation: "token", kind: "http_500" })).status).toBe(404)
    } finally {
      await sandbox.close()
    }
  })
})
