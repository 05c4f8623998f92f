import type { SandboxHandle } from "../index"
import { advanceClock, checkstatusBody, confirmBody, istanbulToday, paymentFields, postForm, postJson, readForm, SMS_CODE, start, threeDForm, tokenFor, transactionsBody } from "./support"

const DAY = 86_400

describe("sandbox: pre-authorizations expire after 20 days of the sandbox clock", () => {
  let sandbox: SandboxHandle
  let token: string
  const m = () => sandbox.merchant
  const api = (operation: string, body: unknown) => postJson(`${sandbox.base_url}/api/${operation}`, body, token)
  const status = async (invoice: string) => (await api("checkstatus", checkstatusBody(m(), invoice))).body
  const advance = async (seconds: number) => {
    await advanceClock(sandbox, seconds)
    token = await tokenFor(sandbox)
  }

  beforeAll(async () => {
    sandbox = await start()
    token = await tokenFor(sandbox)
  })
  afterAll(() => sandbox.close())

  it("cancels reserved 2D and 3D pre-authorizations, keeps a completed one", async () => {
    const today = await istanbulToday(sandbox)
    const direct = paymentFields(m(), { transaction_type: "PreAuth" })
    expect((await api("paySmart2D", direct)).body.status_code).toBe(100)
    const form = threeDForm(m(), { transaction_type: "PreAuth" })
    const bank = await postForm(`${sandbox.base_url}/api/paySmart3D`, form)
    await postForm(readForm(await bank.text()).action, { sms_code: SMS_CODE, action: "confirm" })
    const completed = paymentFields(m(), { transaction_type: "PreAuth" })
    await api("paySmart2D", completed)
    expect((await api("confirmPayment", confirmBody(m(), completed.invoice_id, "1", "150.75"))).body.status_code).toBe(100)

    await advance(20 * DAY - 120)
    for (const invoice of [direct.invoice_id, form.invoice_id]) {
      expect(await status(invoice)).toMatchObject({ transaction_status: "Completed", transaction_type: "Pre-Authorization", reason: "" })
    }
    await advance(180)
    for (const invoice of [direct.invoice_id, form.invoice_id]) {
      expect(await status(invoice)).toMatchObject({ transaction_status: "Failed", transaction_type: "Pre-Authorization", reason: "Expired", transaction_amount: 0, payment_status: 0 })
    }
    expect(await status(completed.invoice_id)).toMatchObject({ transaction_status: "Completed", transaction_type: "Auth", reason: "" })

    const late = await api("confirmPayment", confirmBody(m(), direct.invoice_id, "1", "150.75"))
    expect(late.body).toMatchObject({ status_code: 105, status_description: expect.stringContaining("expired") })

    const { body } = await api("getTransactions", transactionsBody(m().merchant_key, { date: today }))
    const states = Object.fromEntries(body.data.map((sale: any) => [sale.invoice_id, [sale.transaction_state_id, sale.transaction_state_label]]))
    expect(states[direct.invoice_id]).toEqual([7, "Cancelled"])
    expect(states[form.invoice_id]).toEqual([7, "Cancelled"])
    expect(states[completed.invoice_id]).toEqual([1, "Completed"])
  })
})
