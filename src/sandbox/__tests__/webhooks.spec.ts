import { validateHashKey } from "../../lib/sipay/hash"
import type { SandboxHandle } from "../index"
import { getJson, INSUFFICIENT, merchantConfig, paymentFields, postForm, postJson, readForm, sleep, SMS_CODE, start, startReceiver, threeDForm, tokenFor, type Receiver } from "./support"

describe("sandbox: sale webhook delivery", () => {
  let sandbox: SandboxHandle
  let receiver: Receiver
  let token: string
  const secret = () => sandbox.merchant.app_secret

  beforeAll(async () => {
    receiver = await startReceiver()
    sandbox = await start({ merchants: [merchantConfig({ sale_webhooks: { shop: receiver.url, down: "http://127.0.0.1:9/unreachable" } })] })
    token = await tokenFor(sandbox)
  })
  afterAll(async () => {
    await sandbox.close()
    await receiver.close()
  })
  beforeEach(() => {
    receiver.received.length = 0
    receiver.status = 200
  })

  it("posts the reference's fields with a verifiable result hash after a completed 2D payment", async () => {
    const fields = paymentFields(sandbox.merchant, { sale_webhook_key: "shop" })
    const { body } = await postJson(`${sandbox.base_url}/api/paySmart2D`, fields, token)
    await receiver.waitFor(1)
    const hook = receiver.received[0]
    expect(hook).toMatchObject({
      sipay_status: "1", order_no: body.data.order_no, invoice_id: fields.invoice_id, status_code: "100", sipay_payment_method: "1",
      payment_method: "1", transaction_type: "Auth", payment_status: "1", credit_card_no: "450803****4509", error_code: "100",
      error: "", status: "Completed", total: "150.75", currency_code: "TRY",
    })
    expect(validateHashKey(hook.hash_key, secret())).toEqual(["1", "150.75", fields.invoice_id, body.data.order_no, "TRY"])
  })

  it("notifies a failed 3D payment (via the sale_web_hook_key alias) with status Failed", async () => {
    const form = threeDForm(sandbox.merchant, { sale_web_hook_key: "shop", cc_no: INSUFFICIENT })
    const page = await postForm(`${sandbox.base_url}/api/paySmart3D`, form)
    await postForm(readForm(await page.text()).action, { sms_code: SMS_CODE, action: "confirm" })
    await receiver.waitFor(1)
    expect(receiver.received[0]).toMatchObject({ sipay_status: "0", status: "Failed", payment_status: "0", status_code: "41", invoice_id: form.invoice_id })
    expect(validateHashKey(receiver.received[0].hash_key, secret())?.[0]).toBe("0")
  })

  it("sends nothing for a payment without a key, and nothing before the bank page is finished", async () => {
    await postJson(`${sandbox.base_url}/api/paySmart2D`, paymentFields(sandbox.merchant), token)
    await postForm(`${sandbox.base_url}/api/paySmart3D`, threeDForm(sandbox.merchant, { sale_webhook_key: "shop" }))
    await sleep(150)
    expect(receiver.received).toHaveLength(0)
  })

  it("retries a failing receiver with backoff and logs each attempt", async () => {
    receiver.status = 500
    const fields = paymentFields(sandbox.merchant, { sale_webhook_key: "shop" })
    await postJson(`${sandbox.base_url}/api/paySmart2D`, fields, token)
    await receiver.waitFor(3)
    await sleep(50)
    const log = (await getJson(`${sandbox.link_base}/__sandbox/webhooks`)).body.filter((e: any) => e.body.invoice_id === fields.invoice_id)
    expect(log.map((e: any) => [e.kind, e.key, e.status, e.attempt])).toEqual([["sale", "shop", 500, 1], ["sale", "shop", 500, 2], ["sale", "shop", 500, 3]])
    expect(log[0]).toMatchObject({ url: receiver.url, sent_at: expect.any(String) })
  })

  it("survives an unreachable receiver: the failure is logged", async () => {
    const fields = paymentFields(sandbox.merchant, { sale_webhook_key: "down" })
    expect((await postJson(`${sandbox.base_url}/api/paySmart2D`, fields, token)).body.status_code).toBe(100)
    await sleep(400)
    const log = (await getJson(`${sandbox.link_base}/__sandbox/webhooks`)).body.filter((e: any) => e.body.invoice_id === fields.invoice_id)
    expect(log.length).toBe(3)
    expect(log[0]).toMatchObject({ status: 0, error: expect.any(String) })
    expect((await postJson(`${sandbox.base_url}/api/checkstatus`, { merchant_key: "x" }, token)).body.status_code).toBe(14)
  })

  it("refuses an unknown sale webhook key with 56 before any payment", async () => {
    const fields = paymentFields(sandbox.merchant, { sale_webhook_key: "unknown" })
    expect((await postJson(`${sandbox.base_url}/api/paySmart2D`, fields, token)).body.status_code).toBe(56)
  })
})
