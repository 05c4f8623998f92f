import type { SandboxHandle } from "../index"
import { checkstatusBody, getJson, istanbulToday, paymentFields, postJson, start, threeDForm, postForm, tokenFor, transactionsBody } from "./support"

describe("sandbox: calls received per operation (test control)", () => {
  let sandbox: SandboxHandle
  const calls = async () => (await getJson(`${sandbox.link_base}/__sandbox/calls`)).body
  const clear = () => fetch(`${sandbox.link_base}/__sandbox/calls`, { method: "DELETE" })

  beforeAll(async () => {
    sandbox = await start()
  })
  afterAll(() => sandbox.close())
  beforeEach(async () => {
    await clear()
    await fetch(`${sandbox.link_base}/__sandbox/faults`, { method: "DELETE" })
  })

  it("counts every merchant request by operation, token fetches, refused and faulted ones included", async () => {
    const m = sandbox.merchant
    const token = await tokenFor(sandbox)
    await tokenFor(sandbox)
    await postJson(`${sandbox.base_url}/api/token`, { app_id: m.app_id, app_secret: "wrong" })
    const fields = paymentFields(m)
    expect((await postJson(`${sandbox.base_url}/api/paySmart2D`, fields, token)).body.status_code).toBe(100)
    await postJson(`${sandbox.base_url}/api/checkstatus`, checkstatusBody(m, fields.invoice_id), token)
    await postJson(`${sandbox.base_url}/api/checkstatus`, checkstatusBody(m, fields.invoice_id), "not-a-token")
    await postJson(`${sandbox.link_base}/__sandbox/faults`, { operation: "getTransactions", kind: "http_500" })
    const day = await istanbulToday(sandbox)
    expect((await postJson(`${sandbox.base_url}/api/getTransactions`, transactionsBody(m.merchant_key, { date: day }), token)).status).toBe(500)
    await postJson(`${sandbox.base_url}/api/getTransactions`, transactionsBody(m.merchant_key, { date: day }), token)
    await postJson(`${sandbox.base_url}/api/recurringPlan/query`, { merchant_key: m.merchant_key, plan_code: "none" }, token)
    await postForm(`${sandbox.base_url}/api/paySmart3D`, threeDForm(m))
    await fetch(`${sandbox.base_url}/api/nothing-here`, { method: "POST" })

    expect(await calls()).toEqual({
      token: 3,
      paySmart2D: 1,
      checkstatus: 2,
      getTransactions: 2,
      "recurringPlan/query": 1,
      paySmart3D: 1,
    })
  })

  it("DELETE resets the counts, the controls themselves are not counted, and POST reset clears them too", async () => {
    await tokenFor(sandbox)
    expect(await calls()).toEqual({ token: 1 })
    expect((await clear()).status).toBe(200)
    expect(await calls()).toEqual({})
    await tokenFor(sandbox)
    await postJson(`${sandbox.link_base}/__sandbox/reset`, {})
    expect(await calls()).toEqual({})
  })

  it("answers 404 without test controls", async () => {
    const plain = await start({ testControls: false })
    try {
      expect((await fetch(`${plain.link_base}/__sandbox/calls`)).status).toBe(404)
    } finally {
      await plain.close()
    }
  })
})
