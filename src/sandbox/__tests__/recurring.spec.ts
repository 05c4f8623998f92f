import type { SandboxHandle } from "../index"
import { addCycles } from "../recurring/schedule"
import {
  advanceClock, getJson, merchantConfig, paymentFields, postJson, sleep, start, startReceiver, tokenFor, transactionsBody, type Receiver,
} from "./support"

const DAY = 86_400
const DATE_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/

describe("sandbox: recurring schedule arithmetic (Istanbul calendar)", () => {
  const at = (text: string) => Date.parse(text)
  it("adds days, months and years at the same time of day, clamping to a month's last day", () => {
    expect(new Date(addCycles(at("2026-01-10T09:30:00Z"), "D", 3)).toISOString()).toBe("2026-01-13T09:30:00.000Z")
    expect(new Date(addCycles(at("2026-01-31T09:30:00Z"), "M", 1)).toISOString()).toBe("2026-02-28T09:30:00.000Z")
    expect(new Date(addCycles(at("2026-01-31T09:30:00Z"), "M", 13)).toISOString()).toBe("2027-02-28T09:30:00.000Z")
    expect(new Date(addCycles(at("2028-02-29T09:30:00Z"), "Y", 1)).toISOString()).toBe("2029-02-28T09:30:00.000Z")
    // 22:30 UTC on Jan 30 is 01:30 on Jan 31 in Istanbul: + 1 M is 01:30 on Feb 28 there.
    expect(new Date(addCycles(at("2026-01-30T22:30:00Z"), "M", 1)).toISOString()).toBe("2026-02-27T22:30:00.000Z")
  })
})

describe("sandbox: recurring payments, plans and webhooks driven by the sandbox clock", () => {
  let sandbox: SandboxHandle
  let receiver: Receiver
  let token: string
  const m = () => sandbox.merchant
  const api = (operation: string, body: unknown) => postJson(`${sandbox.base_url}/api/${operation}`, body, token)
  const advance = async (seconds: number) => {
    await advanceClock(sandbox, seconds)
    token = await tokenFor(sandbox)
  }
  const subscribe = async (cycle: string, interval: number, count: number, total = "150.75", cardNumber?: string) => {
    const fields = paymentFields(m(), {
      ...(cardNumber ? { cc_no: cardNumber } : {}),
      total, items: [{ name: "Plan", price: total, quantity: 1 }], order_type: 1, recurring_payment_number: count,
      recurring_payment_cycle: cycle, recurring_payment_interval: interval, recurring_web_hook_key: "rec",
    })
    const { body } = await api("paySmart2D", fields)
    expect(body.status_code).toBe(100)
    return { invoice: fields.invoice_id as string, planCode: body.data.order_no as string }
  }
  const query = async (planCode: string, extra: Record<string, unknown> = {}) => (await api("recurringPlan/query", { merchant_key: m().merchant_key, plan_code: planCode, ...extra })).body
  const update = async (planCode: string, change: Record<string, unknown>) => (await api("recurringPlan/update", { merchant_key: m().merchant_key, plan_code: planCode, ...change })).body
  const hooksFor = (planCode: string) => receiver.received.filter((hook) => hook.plan_code === planCode)
  const hooksArrive = async (planCode: string, count: number) => {
    for (const deadline = Date.now() + 3000; hooksFor(planCode).length < count; await sleep(20)) {
      if (Date.now() > deadline) throw new Error(`${count} recurring webhook(s) of ${planCode} expected, ${hooksFor(planCode).length} arrived`)
    }
  }
  const salesOn = async (date: string, invoice: string) =>
    (await api("getTransactions", transactionsBody(m().merchant_key, { date, invoiceid: invoice }))).body.data as any[]

  beforeAll(async () => {
    receiver = await startReceiver()
    sandbox = await start({ merchants: [merchantConfig({ recurring_webhooks: { rec: receiver.url } })] })
    token = await tokenFor(sandbox)
  })
  afterAll(async () => {
    await sandbox.close()
    await receiver.close()
  })

  it("makes each monthly charge once as the clock passes its date: a sale with recurring_id, a recurring webhook, a plan history entry; an amount change applies to later charges", async () => {
    const { invoice, planCode } = await subscribe("M", 1, 3)
    const opened = await query(planCode)
    expect(opened).toMatchObject({
      status_code: 100, status_description: "Success",
      plan_code: planCode, invoice_id: invoice, first_order_id: planCode, currency: "TRY", currency_code: "TRY", recurring_amount: 150.75, payment_number: 3,
      payment_cycle: "M", payment_interval: 1, recurring_status: "Active", completed_payment_number: 1,
      next_action_date: expect.stringMatching(DATE_TIME),
      transactionHistories: [expect.objectContaining({ recurring_number: 1, order_id: planCode, invoice_id: invoice, amount: 150.75, currency_code: "TRY", status: "Success", attempts: 1, action_date: expect.stringMatching(DATE_TIME), sale_id: expect.any(Number) })],
    })
    const firstDate = opened.transactionHistories[0].action_date.slice(0, 10)
    const [first] = await salesOn(firstDate, invoice)
    expect(first).toMatchObject({ recurring_id: expect.any(Number), payment_source: 2, sale_recurring: { plan_code: planCode, recurring_number: 1 } })
    expect(first.recurring_id).toBeGreaterThan(0)

    await advance(31 * DAY)
    await receiver.waitFor(1)
    await advance(3600)
    await sleep(100)
    expect(hooksFor(planCode)).toHaveLength(1)
    const hook = hooksFor(planCode)[0]
    expect(hook).toEqual({
      merchant_key: m().merchant_key, invoice_id: invoice, order_id: expect.stringMatching(/^\d+$/), product_price: "150.75", plan_code: planCode,
      recurring_number: "2", status: "Completed", attempts: "1", action_date: opened.next_action_date,
    })
    const [charge] = (await salesOn(hook.action_date.slice(0, 10), invoice)).filter((sale) => sale.order_id === hook.order_id)
    expect(charge).toMatchObject({
      recurring_id: first.recurring_id, transaction_state_id: 1, product_price: 150.75, payment_source: 4, credit_card_no: first.credit_card_no,
      sale_recurring: { plan_code: planCode, recurring_number: 2 }, sale_recurring_history: [{ recurring_number: 2, status: "Completed", attempts: 1, action_date: hook.action_date }],
    })
    expect((await query(planCode)).transactionHistories.map((h: any) => [h.recurring_number, h.order_id])).toEqual([[1, planCode], [2, hook.order_id]])
    expect((await query(planCode, { recurring_number: 2 })).transactionHistories.map((h: any) => h.recurring_number)).toEqual([2])

    const changed = await update(planCode, { recurring_amount: "99.9" })
    expect(changed).toMatchObject({ status_code: 100, recurring_amount: 99.9, recurring_status: "Active" })
    await advance(31 * DAY)
    await receiver.waitFor(2)
    expect(hooksFor(planCode).map((h) => [h.recurring_number, h.product_price])).toEqual([["2", "150.75"], ["3", "99.9"]])
    expect((await query(planCode))).toMatchObject({ recurring_status: "Completed", completed_payment_number: 3, next_action_date: null })
    await advance(62 * DAY)
    await sleep(100)
    expect(hooksFor(planCode)).toHaveLength(2)
  })

  it("a declined charge is tried again a day later under the same number, each try a sale and a webhook with its attempts", async () => {
    const { invoice, planCode } = await subscribe("M", 1, 2, "80", "4155140000000009")
    const due = (await query(planCode)).next_action_date
    // To just past the due time: a fixed 31 days would pass the retry's day too when the month is shorter (28 to 30 days).
    const { body: clock } = await getJson(`${sandbox.link_base}/__sandbox/clock`)
    await advance(Math.ceil((Date.parse(`${due.replace(" ", "T")}+03:00`) - Date.parse(clock.now)) / 1000) + 60)
    await hooksArrive(planCode, 1)
    expect(hooksFor(planCode)).toEqual([expect.objectContaining({ recurring_number: "2", status: "Failed", attempts: "1", action_date: due, product_price: "80" })])
    const failed = hooksFor(planCode)[0]
    expect((await query(planCode))).toMatchObject({
      recurring_status: "Active", completed_payment_number: 1, next_action_date: expect.stringMatching(DATE_TIME),
      transactionHistories: [expect.objectContaining({ recurring_number: 1 }), expect.objectContaining({ recurring_number: 2, status: "Failed", attempts: 1, order_id: failed.order_id, remarks: "Insufficient funds" })],
    })
    expect((await salesOn(due.slice(0, 10), invoice)).find((sale) => sale.order_id === failed.order_id)).toMatchObject({ transaction_state_id: 2, payment_source: 4 })

    await advance(DAY)
    await hooksArrive(planCode, 2)
    const retried = hooksFor(planCode)[1]
    expect(retried).toMatchObject({ recurring_number: "2", status: "Completed", attempts: "2" })
    expect(retried.order_id).not.toBe(failed.order_id)
    expect((await query(planCode))).toMatchObject({
      recurring_status: "Completed", completed_payment_number: 2, next_action_date: null,
      transactionHistories: [expect.objectContaining({ recurring_number: 1 }), expect.objectContaining({ recurring_number: 2, status: "Success", attempts: 2, order_id: retried.order_id })],
    })
  })

  it("a charge declined on every try stops the plan after the third", async () => {
    const { planCode } = await subscribe("D", 7, 4, "25", "4155150000000008")
    await advance(7 * DAY)
    for (let tries = 1; tries <= 3; tries++) {
      await hooksArrive(planCode, tries)
      await advance(DAY)
    }
    await advance(30 * DAY)
    await sleep(100)
    expect(hooksFor(planCode).map((hook) => [hook.recurring_number, hook.status, hook.attempts])).toEqual([["2", "Failed", "1"], ["2", "Failed", "2"], ["2", "Failed", "3"]])
    expect((await query(planCode))).toMatchObject({ recurring_status: "Stopped", completed_payment_number: 1, next_action_date: null })
  })

  it("stops a plan: no charge after recurring_status 0, and a stopped plan cannot be updated (71)", async () => {
    const { planCode } = await subscribe("D", 2, 5, "10")
    await advance(2 * DAY)
    await sleep(100)
    expect(hooksFor(planCode).map((h) => h.recurring_number)).toEqual(["2"])
    expect(await update(planCode, { recurring_status: "0" })).toMatchObject({ status_code: 100, recurring_status: "Stopped", next_action_date: null })
    await advance(10 * DAY)
    await sleep(100)
    expect(hooksFor(planCode)).toHaveLength(1)
    expect((await query(planCode)).transactionHistories).toHaveLength(2)
    expect(await update(planCode, { recurring_amount: "5" })).toMatchObject({ status_code: 71 })
  })

  it("changes the number of payments: lowering it to the charges made completes the plan", async () => {
    const { planCode } = await subscribe("Y", 1, 4, "20")
    expect(await update(planCode, { recurring_payment_number: 0 })).toMatchObject({ status_code: 71 })
    expect(await update(planCode, { recurring_payment_number: 1 })).toMatchObject({ status_code: 100, payment_number: 1, recurring_status: "Completed" })
    await advance(400 * DAY)
    await sleep(100)
    expect(hooksFor(planCode)).toHaveLength(0)
  })

  it("refuses an update it cannot make with 71 and an unknown plan on query with 31", async () => {
    const { planCode } = await subscribe("M", 1, 12, "30")
    for (const change of [{}, { recurring_amount: "0" }, { recurring_amount: "abc" }, { recurring_status: "maybe" }, { recurring_payment_number: "x" }]) {
      const answer = await update(planCode, change)
      expect(answer.status_code).toBe(71)
      expect(answer.status_description).toContain("Recurring plan update failed")
    }
    expect(await update("no_such_plan", { recurring_amount: "5" })).toMatchObject({ status_code: 71 })
    expect(await query("no_such_plan")).toMatchObject({ status_code: 31 })
    expect((await api("recurringPlan/query", { plan_code: planCode })).body.status_code).toBe(1)
    expect((await postJson(`${sandbox.base_url}/api/recurringPlan/query`, { merchant_key: m().merchant_key, plan_code: planCode })).status).toBe(401)
  })
})
