import { request as httpRequest } from "node:http"
import { generateHashKey, validateHashKey } from "../../lib/sipay/hash"
import {
  checkstatusBody, FUTURE_YEAR, INSUFFICIENT, invoiceId, merchantConfig, MASTERCARD, postForm, postJson, readForm, SMS_CODE, start, tokenFor, VISA,
} from "./support"
import type { SandboxHandle } from "../index"

/**
 * Issue 31: card storage as the published clients send and read it. Requests are written here from
 * the clients' shapes (never through their code): sipay-node src/resources/cards.ts + src/types
 * (SaveCardResponse, SavedCard, CardPaymentResponse) and the PHP SDK (CreateCardRequest,
 * RetrieveCardListRequest, UpdateCardRequest, DeleteCardRequest, PaymentInvoice with a card token,
 * CardMapper / CardListMapper and their tests, SavedCardPaymentMapper).
 */

const OTHER_MERCHANT = merchantConfig({
  merchant_id: 20001,
  merchant_key: "$2y$10$OtherMerchantKeyForCardStorageTests00000000000000000",
  app_id: "other-app-id",
  app_secret: "other-app-secret-0000000000000000",
})

type M = { merchant_key: string; app_secret: string }

let sandbox: SandboxHandle
let token: string
let otherToken: string
const m = () => sandbox.merchant
const api = (operation: string, body: unknown, bearer = token) => postJson(`${sandbox.base_url}/api/${operation}`, body, bearer)

/** GET with a JSON body, as axios (sipay-node) and curl with CURLOPT_POSTFIELDS (the PHP SDK) send getCardTokens (fetch cannot). */
function getCardTokens(body: Record<string, unknown>, bearer = token): Promise<{ status: number; body: any }> {
  const payload = JSON.stringify(body)
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${sandbox.base_url}/api/getCardTokens`,
      { method: "GET", headers: { "content-type": "application/json", accept: "application/json", authorization: `Bearer ${bearer}`, "content-length": Buffer.byteLength(payload) } },
      async (res) => {
        let text = ""
        for await (const chunk of res) text += chunk
        resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) })
      }
    )
    req.on("error", reject)
    req.end(payload)
  })
}

/** saveCard as the PHP SDK's CreateCardRequest sends it: ints, hash merchant_key|customer_number|card_holder_name|card_number|expiry_month|expiry_year. */
function phpSaveCard(merchant: M, customerNumber: number, card = VISA, overrides: Record<string, unknown> = {}) {
  const fields = {
    merchant_key: merchant.merchant_key, card_holder_name: "John Doe", card_number: Number(card), expiry_month: 12, expiry_year: Number(FUTURE_YEAR),
    customer_number: customerNumber, customer_name: "John Doe", customer_email: "john@doe.com", customer_phone: "901111111111",
  }
  const hash_key = generateHashKey([fields.merchant_key, String(customerNumber), fields.card_holder_name, card, "12", FUTURE_YEAR], merchant.app_secret)
  return { ...fields, hash_key, ...overrides }
}

/** saveCard as sipay-node's Cards.saveCard sends it: numbers, hash merchant_key|customer_number|card_holder_name|expiry_month|expiry_year. */
function nodeSaveCard(merchant: M, customerNumber: number, card = MASTERCARD) {
  const fields = {
    customer_number: customerNumber, card_holder_name: "John Doe", card_number: Number(card), expiry_month: 12, expiry_year: Number(FUTURE_YEAR),
    customer_name: "John Doe", customer_email: "john@example.com", customer_phone: 5551234567, merchant_key: merchant.merchant_key,
  }
  return { ...fields, hash_key: generateHashKey([merchant.merchant_key, String(customerNumber), "John Doe", "12", FUTURE_YEAR], merchant.app_secret) }
}

/** editCard / deleteCard: hash merchant_key|customer_number|card_token (both clients). */
function tokenHash(merchant: M, customerNumber: number | string, cardToken: string) {
  return generateHashKey([merchant.merchant_key, String(customerNumber), cardToken], merchant.app_secret)
}

/** payByCardToken(NonSecure) as sipay-node sends it: items an array, installments_number left out (signed as 1). */
function nodeTokenPayment(merchant: M, customerNumber: number | string, cardToken: string, overrides: Record<string, unknown> = {}) {
  const invoice = invoiceId("tok")
  return {
    merchant_key: merchant.merchant_key, card_token: cardToken, customer_number: customerNumber, customer_email: "john@example.com",
    customer_phone: "+905551234567", customer_name: "John Doe", currency_code: "TRY", invoice_id: invoice, invoice_description: "Test payment",
    total: 100, items: [{ name: "Test Item", price: 100, quantity: 1, description: "Test Description" }],
    cancel_url: "http://shop.test/cancel", return_url: "http://shop.test/return", bill_email: "john@example.com", bill_phone: "5551234567",
    hash_key: generateHashKey(["100.00", "1", "TRY", merchant.merchant_key, invoice], merchant.app_secret),
    ...overrides,
  }
}

async function savedToken(customerNumber: number, card = VISA): Promise<string> {
  const { body } = await api("saveCard", phpSaveCard(m(), customerNumber, card))
  expect(body.status_code).toBe(100)
  return body.card_token
}

async function sales(): Promise<any[]> {
  return (await (await fetch(`${sandbox.link_base}/__sandbox/sales`)).json()) as any[]
}

beforeAll(async () => {
  sandbox = await start({ merchants: [merchantConfig(), OTHER_MERCHANT] })
  token = await tokenFor(sandbox)
  otherToken = await tokenFor(sandbox, OTHER_MERCHANT)
})
afterAll(() => sandbox.close())

describe("saveCard", () => {
  it("as the PHP SDK sends it answers the token at the top level (CardMapperTest: 'The card token saved successfully')", async () => {
    const { status, body } = await api("saveCard", phpSaveCard(m(), 5070))
    expect(status).toBe(200)
    expect(body).toEqual({ status_code: 100, status_description: "The card token saved successfully", card_token: expect.stringMatching(/^[0-9a-f]{32}$/) })
  })

  it("as sipay-node sends it (no card number in the hash) is accepted too", async () => {
    const { body } = await api("saveCard", nodeSaveCard(m(), 5071))
    expect(body).toMatchObject({ status_code: 100, card_token: expect.stringMatching(/^[0-9a-f]{32}$/) })
  })

  it("refuses a hash of other data (90), a card failing Luhn, an expired card and a non-numeric customer (1), a missing bearer (401)", async () => {
    expect((await api("saveCard", phpSaveCard(m(), 5072, VISA, { card_holder_name: "Someone Else" }))).body.status_code).toBe(90)
    expect((await api("saveCard", phpSaveCard(m(), 5072, "4508034508034500"))).body).toMatchObject({ status_code: 1, status_description: "The card number is not a valid card number." })
    const expired = phpSaveCard(m(), 5072, VISA, { expiry_year: 2020 })
    expired.hash_key = generateHashKey([m().merchant_key, "5072", "John Doe", VISA, "12", "2020"], m().app_secret)
    expect((await api("saveCard", expired)).body.status_code).toBe(1)
    const named = phpSaveCard(m(), 5072, VISA, { customer_number: "abc" })
    expect((await api("saveCard", named)).body).toMatchObject({ status_code: 1, status_description: "The customer number must be a number." })
    expect((await postJson(`${sandbox.base_url}/api/saveCard`, phpSaveCard(m(), 5072))).status).toBe(401)
  })
})

describe("getCardTokens", () => {
  it("answers the customer's cards in data with the fields both clients map: masked number, '<number>-<merchant_id>', no expiry", async () => {
    const cardToken = await savedToken(6001)
    const { status, body } = await getCardTokens({ merchant_key: m().merchant_key, customer_number: 6001 })
    expect(status).toBe(200)
    expect(body).toMatchObject({ status_code: 100, status_description: "Data fetched successfully" })
    expect(body.data).toEqual([
      {
        id: expect.any(Number), card_token: cardToken, card_user_key: expect.any(String), card_number: "450803****4509", merchant_id: 18309,
        customer_number: "6001-18309", card_issuer_bank: "Sandbox Bank", customer_name: "John Doe", customer_email: "john@doe.com",
        customer_phone: "901111111111", bank_id: expect.any(Number),
        created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/), updated_at: expect.any(String),
      },
    ])
    // A POST, and the listed '<number>-<merchant_id>' form of the customer number, answer the same.
    expect((await api("getCardTokens", { merchant_key: m().merchant_key, customer_number: "6001-18309" })).body.data).toEqual(body.data)
  })

  it("lists only the merchant's cards of that customer number: another customer, another merchant see none", async () => {
    await savedToken(6002)
    expect((await getCardTokens({ merchant_key: m().merchant_key, customer_number: 6003 })).body).toEqual({ status_code: 100, status_description: "Data fetched successfully", data: [] })
    expect((await getCardTokens({ merchant_key: OTHER_MERCHANT.merchant_key, customer_number: 6002 }, otherToken)).body.data).toEqual([])
    // Another merchant's token with this merchant's key: 401, as every operation.
    expect((await getCardTokens({ merchant_key: m().merchant_key, customer_number: 6002 }, otherToken)).status).toBe(401)
  })
})

describe("editCard and deleteCard", () => {
  it("editCard keeps the token and takes a new expiry; a past expiry is refused", async () => {
    const cardToken = await savedToken(6101)
    const edit = { merchant_key: m().merchant_key, customer_number: 6101, card_token: cardToken, card_holder_name: "John Not Doe", expiry_month: 6, expiry_year: Number(FUTURE_YEAR) + 1 }
    expect((await api("editCard", { ...edit, hash_key: tokenHash(m(), 6101, cardToken) })).body).toEqual({ status_code: 100, status_description: "Card updated successfully", card_token: cardToken })
    expect((await api("editCard", { ...edit, expiry_year: 2020, hash_key: tokenHash(m(), 6101, cardToken) })).body.status_code).toBe(1)
    expect((await api("editCard", { ...edit, hash_key: tokenHash(m(), 6102, cardToken) })).body.status_code).toBe(90)
  })

  it("deleteCard removes the card from the list; deleting it again, or another customer's token, is 'invalid' (1)", async () => {
    const cardToken = await savedToken(6201)
    const foreign = await savedToken(6202)
    const del = (customer: number, card: string) => api("deleteCard", { merchant_key: m().merchant_key, customer_number: customer, card_token: card, hash_key: tokenHash(m(), customer, card) })
    expect((await del(6201, foreign)).body).toEqual({ status_code: 1, status_description: "The selected card token is invalid." })
    expect((await del(6201, cardToken)).body).toEqual({ status_code: 100, status_description: "Card deleted successfully" })
    expect((await getCardTokens({ merchant_key: m().merchant_key, customer_number: 6201 })).body.data).toEqual([])
    expect((await del(6201, cardToken)).body.status_code).toBe(1)
    expect((await getCardTokens({ merchant_key: m().merchant_key, customer_number: 6202 })).body.data).toHaveLength(1)
  })
})

describe("payByCardToken (3D) and payByCardTokenNonSecure", () => {
  it("payByCardToken answers the bank's page as HTML (the PHP SDK keeps it as the form to show); the sale goes through the bank page to return_url", async () => {
    const cardToken = await savedToken(6301)
    const body = nodeTokenPayment(m(), 6301, cardToken)
    const page = await fetch(`${sandbox.base_url}/api/payByCardToken`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
    })
    expect(page.status).toBe(200)
    expect(page.headers.get("content-type")).toMatch(/text\/html/)
    const html = await page.text()
    expect(html).not.toContain(cardToken)
    const answer = await postForm(readForm(html).action, { sms_code: SMS_CODE, action: "confirm" })
    const redirect = new URL(answer.headers.get("location")!)
    expect(`${redirect.origin}${redirect.pathname}`).toBe("http://shop.test/return")
    const result = Object.fromEntries(redirect.searchParams)
    expect(result).toMatchObject({ invoice_id: body.invoice_id, payment_status: "1", credit_card_no: "450803****4509" })
    expect(validateHashKey(result.hash_key, m().app_secret)).toEqual(["1", "100", body.invoice_id, result.order_no, "TRY"])
    const status = await api("checkstatus", checkstatusBody(m(), body.invoice_id))
    expect(status.body).toMatchObject({ status_code: 100, transaction_status: "Completed" })
    const sale = (await sales()).find((s) => s.invoice_id === body.invoice_id)
    expect(sale).toMatchObject({ integration: "3D", saved_card: { id: expect.any(Number), customer_number: "6301" } })
  })

  it("payByCardToken as the PHP SDK sends it (items JSON-encoded, name and surname, installments signed) is accepted", async () => {
    const cardToken = await savedToken(6302)
    const invoice = invoiceId("php")
    const body = {
      merchant_key: m().merchant_key, currency_code: "TRY", card_token: cardToken, customer_number: "6302-18309", customer_email: "john@doe.com",
      customer_phone: "901111111111", customer_name: "John Doe", items: JSON.stringify([{ name: "Test Product 1", price: 100, quantity: 1, description: "D" }]),
      installments_number: "1", name: "John", surname: "Doe", invoice_id: invoice, total: 100, cancel_url: "http://shop.test/cancel",
      return_url: "http://shop.test/return", bill_email: "example@gimali.com", bill_phone: "905555555555",
      hash_key: generateHashKey(["100", "1", "TRY", m().merchant_key, invoice], m().app_secret),
    }
    const page = await fetch(`${sandbox.base_url}/api/payByCardToken`, { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${token}` }, body: JSON.stringify(body) })
    const html = await page.text()
    expect([page.headers.get("content-type"), html.slice(0, 200)]).toEqual([expect.stringMatching(/text\/html/), expect.stringContaining("<")])
    expect(readForm(html).action).toContain("/bank/")
  })

  it("payByCardTokenNonSecure answers like paySmart2D: the outcome in data, signed", async () => {
    const cardToken = await savedToken(6303)
    const body = nodeTokenPayment(m(), 6303, cardToken, { ip: "127.0.0.1" })
    const { body: paid } = await api("payByCardTokenNonSecure", body)
    expect(paid).toMatchObject({ status_code: 100, status_description: "Payment process successful" })
    expect(paid.data).toMatchObject({ sipay_status: 1, invoice_id: body.invoice_id, credit_card_no: "450803****4509", transaction_type: "Auth", payment_status: 1 })
    expect(validateHashKey(paid.data.hash_key, m().app_secret)).toEqual(["1", "100", body.invoice_id, paid.data.order_no, "TRY"])
    const declining = await savedToken(6303, INSUFFICIENT)
    const { body: declined } = await api("payByCardTokenNonSecure", nodeTokenPayment(m(), 6303, declining))
    expect(declined).toMatchObject({ status_code: 41, data: { payment_status: 0, error: "Insufficient funds" } })
  })

  it("another customer's token, a deleted token and another merchant's token are invalid (1): no sale is recorded", async () => {
    const mine = await savedToken(6401)
    const theirs = await savedToken(6402)
    const before = (await sales()).length
    const other = await api("payByCardTokenNonSecure", nodeTokenPayment(m(), 6401, theirs))
    expect(other.body).toEqual({ status_code: 1, status_description: "The selected card token is invalid." })
    await api("deleteCard", { merchant_key: m().merchant_key, customer_number: 6401, card_token: mine, hash_key: tokenHash(m(), 6401, mine) })
    expect((await api("payByCardToken", nodeTokenPayment(m(), 6401, mine))).body.status_code).toBe(1)
    const otherMerchantCard = (await api("saveCard", phpSaveCard(OTHER_MERCHANT, 6401), otherToken)).body.card_token
    expect((await api("payByCardTokenNonSecure", nodeTokenPayment(m(), 6401, otherMerchantCard))).body.status_code).toBe(1)
    expect((await sales()).length).toBe(before)
  })

  it("refuses a bad hash (90), a total the hash does not sign (68), NonSecure for a 3D-only merchant (34)", async () => {
    const cardToken = await savedToken(6501)
    expect((await api("payByCardTokenNonSecure", nodeTokenPayment(m(), 6501, cardToken, { hash_key: "00:00:00" }))).body.status_code).toBe(90)
    expect((await api("payByCardTokenNonSecure", nodeTokenPayment(m(), 6501, cardToken, { total: 90, items: [{ name: "X", price: 90, quantity: 1 }] }))).body.status_code).toBe(68)
    const threeDOnly = await start({ merchants: [merchantConfig({ is_3d: 2 })] })
    try {
      const bearer = await tokenFor(threeDOnly)
      const saved = (await postJson(`${threeDOnly.base_url}/api/saveCard`, phpSaveCard(threeDOnly.merchant, 7001), bearer)).body.card_token
      const answer = await postJson(`${threeDOnly.base_url}/api/payByCardTokenNonSecure`, nodeTokenPayment(threeDOnly.merchant, 7001, saved), bearer)
      expect(answer.body.status_code).toBe(34)
    } finally {
      await threeDOnly.close()
    }
  })

  it("takes the usual faults: getCardTokens answers HTTP 500 once when armed", async () => {
    await postJson(`${sandbox.link_base}/__sandbox/faults`, { operation: "getCardTokens", kind: "http_500", times: 1 })
    expect((await getCardTokens({ merchant_key: m().merchant_key, customer_number: 1 })).status).toBe(500)
    expect((await getCardTokens({ merchant_key: m().merchant_key, customer_number: 1 })).status).toBe(200)
  })
})
