import type { SandboxHandle } from "../index"
import {
  advanceClock, daysAfter, FUTURE_YEAR, INSUFFICIENT, istanbulToday, linkForm, merchantConfig, postForm, postJson, postMultipart,
  readForm, SMS_CODE, start, startReceiver, tokenFor, transactionsBody, VISA, type Receiver,
} from "./support"

describe("sandbox: paying through a payment link's payer page over HTTP", () => {
  let sandbox: SandboxHandle
  let receiver: Receiver
  let token: string
  let today: string

  const createLink = async (overrides: Record<string, string | null> = {}) => {
    const fields = {
      amount: "250.5", currency: "1", is_amount_set_by_user: "0", payment_link_type: "2", name_of_product: "Ceramic mug",
      description: "Hand made, 350 ml", expire_date: daysAfter(today, 10), max_number_of_uses: "2", ...overrides,
    }
    const { body } = await postMultipart(`${sandbox.base_url}/api/dpl/create`, linkForm(fields), token)
    expect(body.statuscode).toBe(100)
    return { dpl: body.data.dpl, url: `${sandbox.link_base}/dplLink/${body.data.dpl.token}` }
  }
  const card = (overrides: Record<string, string> = {}) => ({
    cc_holder_name: "Ayşe Yılmaz", cc_no: VISA, expiry_month: "12", expiry_year: FUTURE_YEAR, cvv: "000", bill_email: "ayse@example.com", ...overrides,
  })
  /** Posts the payer page's form, then the bank page's SMS code; answers the final redirect's URL. */
  const payLink = async (url: string, fields: Record<string, string> = card()) => {
    const bank = await postForm(url, fields)
    expect(bank.status).toBe(200)
    const html = await bank.text()
    expect(html).toContain(SMS_CODE)
    const redirect = await postForm(readForm(html).action, { sms_code: SMS_CODE, action: "confirm" })
    expect(redirect.status).toBe(303)
    return new URL(redirect.headers.get("location")!)
  }
  const transactions = async (filters: Record<string, string> = {}) =>
    (await postJson(`${sandbox.base_url}/api/getTransactions`, transactionsBody(sandbox.merchant.merchant_key, { date: today, ...filters }), token)).body.data as any[]
  const linkRecord = async (dplId: number) =>
    (await postJson(`${sandbox.base_url}/api/dpl/sendemail`, { dpl_id: dplId, payment_link_type: 2, email: ["ops@example.com"] }, token)).body

  beforeAll(async () => {
    receiver = await startReceiver()
    sandbox = await start({ merchants: [merchantConfig({ sale_webhooks: { first: receiver.url, second: "http://127.0.0.1:9/second" } })] })
    token = await tokenFor(sandbox)
    today = await istanbulToday(sandbox)
  })
  afterAll(async () => {
    await sandbox.close()
    await receiver.close()
  })
  beforeEach(() => {
    receiver.received.length = 0
  })

  it("shows the product, description, the fixed amount and a card form", async () => {
    const { url } = await createLink()
    const response = await fetch(url)
    expect(response.status).toBe(200)
    const html = await response.text()
    for (const text of ["Ceramic mug", "Hand made, 350 ml", "250,50", 'name="cc_no"', 'name="cvv"', 'name="expiry_month"', 'name="cc_holder_name"']) expect(html).toContain(text)
    expect(html).not.toContain('name="amount"')
    expect(readForm(html).action).toBe(url)
  })

  it("pays by 3D through the bank page; the sale has dpl_id, is listed by getTransactions and notified to the first sale webhook key", async () => {
    const { dpl, url } = await createLink()
    const result = await payLink(url)
    expect(`${result.origin}${result.pathname}`).toBe(`${url}/result`)
    expect(result.searchParams.get("payment_status")).toBe("1")
    const page = await fetch(result).then((r) => r.text())
    expect(page).toContain("Payment successful")

    const sale = (await transactions()).find((r) => r.dpl_id === dpl.id)
    expect(sale).toMatchObject({ dpl_id: dpl.id, product_price: 250.5, gross: 250.5, currency_code: "TRY", transaction_state_id: 1, payment_source: 3, credit_card_no: "450803****4509" })
    expect(sale.order_id).toBe(result.searchParams.get("order_no"))

    await receiver.waitFor(1)
    expect(receiver.received[0]).toMatchObject({ invoice_id: sale.invoice_id, order_no: sale.order_id, status: "Completed", payment_status: "1", total: "250.5" })
    expect((await linkRecord(dpl.id)).data.dpl.number_of_uses).toBe(1)
  })

  it("lets the payer set the amount when is_amount_set_by_user is 1, and refuses a bad one on the page", async () => {
    const { dpl, url } = await createLink({ is_amount_set_by_user: "1", currency: "2" })
    expect(await fetch(url).then((r) => r.text())).toContain('name="amount"')
    const refused = await postForm(url, card({ amount: "12.345" }))
    expect(refused.status).toBe(400)
    expect(await refused.text()).toContain("amount")
    await payLink(url, card({ amount: "75.25" }))
    const sale = (await transactions({ currency_id: "2" })).find((r) => r.dpl_id === dpl.id)
    expect(sale).toMatchObject({ product_price: 75.25, currency_code: "USD" })
  })

  it("ignores a payer's amount when the link's amount is fixed", async () => {
    const { dpl, url } = await createLink()
    await payLink(url, card({ amount: "1" }))
    expect((await transactions()).find((r) => r.dpl_id === dpl.id).product_price).toBe(250.5)
  })

  it("shows card errors on the page, and a declined card does not count as a use", async () => {
    const { dpl, url } = await createLink({ max_number_of_uses: "1" })
    const bad = await postForm(url, card({ cc_no: "4508034508034508" }))
    expect(bad.status).toBe(400)
    expect(await bad.text()).toContain("cc_no")
    const result = await payLink(url, card({ cc_no: INSUFFICIENT }))
    expect(result.searchParams.get("payment_status")).toBe("0")
    expect(await fetch(result).then((r) => r.text())).toContain("Payment failed")
    expect((await linkRecord(dpl.id)).data.dpl.number_of_uses).toBe(0)
  })

  it("counts uses up to max_number_of_uses, then refuses payment with a clear page", async () => {
    const { dpl, url } = await createLink({ max_number_of_uses: "2" })
    await payLink(url)
    await payLink(url)
    const page = await fetch(url)
    expect(page.status).toBe(410)
    expect(await page.text()).toContain("maximum number of uses")
    const refused = await postForm(url, card())
    expect(refused.status).toBe(410)
    expect((await transactions()).filter((r) => r.dpl_id === dpl.id)).toHaveLength(2)
    expect((await linkRecord(dpl.id)).statuscode).toBe(1)
  })

  it("two payers on the bank page at once for a link's last use: the first one pays, the second is declined uncharged", async () => {
    const { dpl, url } = await createLink({ max_number_of_uses: "1" })
    const bankPages = await Promise.all([postForm(url, card()), postForm(url, card({ cc_holder_name: "Mehmet Kaya" }))])
    const [first, second] = await Promise.all(bankPages.map(async (page) => readForm(await page.text()).action))
    const confirm = async (action: string) => new URL((await postForm(action, { sms_code: SMS_CODE, action: "confirm" })).headers.get("location")!)
    expect((await confirm(first)).searchParams.get("payment_status")).toBe("1")
    const late = await confirm(second)
    expect(late.searchParams.get("payment_status")).toBe("0")
    expect(await fetch(late).then((r) => r.text())).toContain("maximum number of uses")
    const sales = (await transactions()).filter((r) => r.dpl_id === dpl.id)
    expect(sales.map((s) => s.transaction_state_id).sort()).toEqual([1, 2])
    expect((await linkRecord(dpl.id)).statuscode).toBe(1)
  })

  it("answers 404 for an unknown link", async () => {
    expect((await fetch(`${sandbox.link_base}/dplLink/unknown0token`)).status).toBe(404)
  })

  it("expires at its date and hour (Istanbul) as the sandbox clock passes it", async () => {
    const { dpl, url } = await createLink({ expire_date: daysAfter(today, 1), expire_hour: "12" })
    expect((await fetch(url)).status).toBe(200)
    await advanceClock(sandbox, 2 * 86_400)
    const page = await fetch(url)
    expect(page.status).toBe(410)
    expect(await page.text()).toContain("expired")
    expect((await postForm(url, card())).status).toBe(410)
    token = await tokenFor(sandbox)
    expect((await linkRecord(dpl.id)).description).toContain("EXPIRED")
  })
})
