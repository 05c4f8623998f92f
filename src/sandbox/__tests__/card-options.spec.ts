import type { SandboxHandle } from "../index"
import { AGRICULTURAL, MASTERCARD, merchantConfig, POS_UNDEFINED, postJson, start, tokenFor, VISA } from "./support"

describe("sandbox: getpos and installments", () => {
  let sandbox: SandboxHandle
  let token: string
  const none = merchantConfig({ merchant_id: 7, merchant_key: "no-installments", app_id: "none-app", app_secret: "none-secret", installments: [] })
  const api = (operation: string, body: Record<string, unknown>, bearer = token) => postJson(`${sandbox.base_url}/api/${operation}`, body, bearer)

  beforeAll(async () => {
    sandbox = await start({ merchants: [merchantConfig({ installments: [1, 2, 3, 6] }), none] })
    token = await tokenFor(sandbox)
  })
  afterAll(() => sandbox.close())

  it("getpos: one entry per installment allowed for the merchant and the card, payable_amount = amount", async () => {
    const { body } = await api("getpos", { credit_card: MASTERCARD.slice(0, 6), amount: "150.75", currency_code: "TRY", merchant_key: sandbox.merchant.merchant_key })
    expect(body.status_code).toBe(100)
    expect(body.data.map((entry: { installments_number: number }) => entry.installments_number)).toEqual([1, 2, 3, 6])
    expect(body.data[0]).toEqual({
      pos_id: expect.any(Number), campaign_id: 0, allocation_id: 0, installments_number: 1, card_type: "CREDIT CARD", card_program: "BONUS",
      card_scheme: "MASTERCARD", is_commercial: 0, payable_amount: 150.75, amount_to_be_paid: "150.75", currency_code: "TRY", currency_id: 1,
      title: expect.any(String),
    })
  })

  it("getpos: payable_amount adds the card program's end-user commission for that count (3 installments on BONUS: 3.07 %)", async () => {
    const { body } = await api("getpos", { credit_card: MASTERCARD.slice(0, 6), amount: "325.40", currency_code: "TRY", merchant_key: sandbox.merchant.merchant_key })
    const byCount = Object.fromEntries(body.data.map((row: { installments_number: number; payable_amount: number; amount_to_be_paid: string }) => [row.installments_number, row]))
    expect(byCount[1]).toMatchObject({ payable_amount: 325.4, amount_to_be_paid: "325.40" })
    // 325.40 x 3.07 % = 9.98978 -> 9.99
    expect(byCount[3]).toMatchObject({ payable_amount: 335.39, amount_to_be_paid: "335.39" })
    // WORLD is one step (0.05 %) dearer than BONUS: 325.40 x 3.12 % = 10.15248 -> 10.15
    const world = await api("getpos", { credit_card: VISA.slice(0, 6), amount: "325.40", currency_code: "TRY", merchant_key: sandbox.merchant.merchant_key })
    expect(world.body.data.find((row: { installments_number: number }) => row.installments_number === 3)).toMatchObject({ card_program: "WORLD", payable_amount: 335.55 })
  })

  it("commissions: data keyed by installment count, one row per card program, 'x' where a program has no such count; a merchant's own cell wins", async () => {
    const custom = merchantConfig({ merchant_id: 8, merchant_key: "own-rates", app_id: "own-app", app_secret: "own-secret", installments: [1, 3], commissions: [{ card_program: "BONUS", installment: 3, user_commission_percentage: 2.5, user_commission_fixed: 1 }] })
    const own = await start({ merchants: [custom] })
    try {
      const ownToken = await tokenFor(own, custom)
      const { body } = await postJson(`${own.base_url}/api/commissions`, { currency_code: "TRY", commission_by: "user" }, ownToken)
      expect(body.status_code).toBe(100)
      expect(Object.keys(body.data)).toEqual(["1", "3"])
      const bonus3 = body.data["3"].find((row: { card_program: string }) => row.card_program === "BONUS")
      expect(bonus3).toEqual({
        title: "Bonus", card_program: "BONUS", merchant_commission_percentage: 1.79, merchant_commission_fixed: 0, user_commission_percentage: 2.5,
        user_commission_fixed: 1, currency_code: "TRY", installment: 3, pos_id: 1, getpos_card_program: "BONUS",
      })
      expect(body.data["1"].map((row: { title: string }) => row.title)).toEqual(["Bonus", "World", "Maximum", "Axess", "CardFinans", "Paraf", "Advantage", "Bankkart Combo"])
      // getpos follows the same cell: 100 x 2.5 % + 1 = 3.50
      const pos = await postJson(`${own.base_url}/api/getpos`, { credit_card: MASTERCARD.slice(0, 6), amount: "100", currency_code: "TRY", merchant_key: "own-rates" }, ownToken)
      expect(pos.body.data.find((row: { installments_number: number }) => row.installments_number === 3)).toMatchObject({ payable_amount: 103.5, amount_to_be_paid: "103.50" })
      expect((await postJson(`${own.base_url}/api/commissions`, { currency_code: "JPY" }, ownToken)).body.status_code).toBe(12)
      expect((await postJson(`${own.base_url}/api/commissions`, { currency_code: "TRY" })).status).toBe(401)
    } finally {
      await own.close()
    }
  })

  it("getpos: recurring offers a single installment only; the agricultural card offers its own", async () => {
    const recurring = await api("getpos", { credit_card: VISA.slice(0, 6), amount: 10, currency_code: "USD", merchant_key: sandbox.merchant.merchant_key, is_recurring: 1 })
    expect(recurring.body.data).toHaveLength(1)
    expect(recurring.body.data[0]).toMatchObject({ installments_number: 1, currency_id: 2 })
    const agricultural = await api("getpos", { credit_card: AGRICULTURAL.slice(0, 6), amount: 10, currency_code: "TRY", merchant_key: sandbox.merchant.merchant_key })
    expect(agricultural.body.data.map((e: { installments_number: number }) => e.installments_number)).toEqual([1])
  })

  it("getpos: 102 for the POS-not-defined card and unknown BINs, 12 for a bad currency, 1 for a bad BIN", async () => {
    const base = { amount: 10, currency_code: "TRY", merchant_key: sandbox.merchant.merchant_key }
    expect((await api("getpos", { ...base, credit_card: POS_UNDEFINED.slice(0, 6) })).body).toMatchObject({ status_code: 102, status_description: "Pos was not defined" })
    expect((await api("getpos", { ...base, credit_card: "411111" })).body.status_code).toBe(102)
    expect((await api("getpos", { ...base, credit_card: VISA.slice(0, 6), currency_code: "JPY" })).body.status_code).toBe(12)
    expect((await api("getpos", { ...base, credit_card: "45" })).body.status_code).toBe(1)
  })

  it("installments: the merchant's counts; the agricultural BIN adds maturity_period and payment_frequency", async () => {
    const plain = await api("installments", { merchant_key: sandbox.merchant.merchant_key })
    expect(plain.body).toEqual({ status_code: 100, status_description: "Success", message: "Merchant Active Installment", installments: [1, 2, 3, 6] })
    const agricultural = await api("installments", { merchant_key: sandbox.merchant.merchant_key, credit_card: AGRICULTURAL.slice(0, 6), amount: "100", currency_code: "TRY" })
    expect(agricultural.body).toEqual({ status_code: 100, status_description: "Success", message: "Merchant Active Installment", installments: [1], maturity_period: [3, 6, 9, 12], payment_frequency: [1, 3, 6] })
  })

  it("installments: 62 for a merchant without installments, 14 for an unknown merchant", async () => {
    const noneToken = await tokenFor(sandbox, none)
    expect((await api("installments", { merchant_key: none.merchant_key }, noneToken)).body.status_code).toBe(62)
    expect((await api("installments", { merchant_key: "unknown" })).body.status_code).toBe(14)
  })
})
