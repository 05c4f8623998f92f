import { randomBytes } from "node:crypto"
import { startSandbox, type SandboxHandle } from "../../../sandbox"
import { SipayClient, SipayError, cardBrandOf, redact } from "../index"
import { toStoredCard } from "../cards"
import { paymentRequest, TEST_CARD } from "./support/fixtures"

/** The client's card storage against the sandbox (issue 31): save, list, edit, delete, pay 3D and direct. */

let sandbox: SandboxHandle
let client: SipayClient
const logged: string[] = []
const invoice = () => `inv_${randomBytes(6).toString("hex")}`
const customer = { name: "Ayşe Yılmaz", email: "ayse@example.com", phone: "5551234567" }

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, testControls: true })
  const line = (message: string) => void logged.push(message)
  client = new SipayClient({
    baseUrl: sandbox.base_url,
    appId: sandbox.merchant.app_id,
    appSecret: sandbox.merchant.app_secret,
    merchantKey: sandbox.merchant.merchant_key,
    logger: { debug: line, info: line, warn: line, error: line },
  })
})
afterAll(() => sandbox.close())

describe("client.cards against the sandbox", () => {
  it("saves a card, lists it (masked, brand, no expiry in the list), edits and deletes it; deleting again is the gateway's refusal", async () => {
    const { cardToken } = await client.cards.save(91001, TEST_CARD, customer)
    const [card] = await client.cards.list(91001)
    expect(card).toEqual({
      id: expect.any(String), cardToken, maskedNumber: "450803****4509", last4: "4509", brand: "visa", bank: "Sandbox Bank",
      expiryMonth: null, expiryYear: null, createdAt: expect.any(String),
    })
    await client.cards.edit(91001, cardToken, { expiryMonth: "6", expiryYear: String(new Date().getUTCFullYear() + 4) })
    await client.cards.delete(91001, cardToken)
    expect(await client.cards.list(91001)).toEqual([])
    await expect(client.cards.delete(91001, cardToken)).rejects.toMatchObject({ statusCode: 1, description: "The selected card token is invalid." })
  })

  it("pays with a stored card: 3D answers the bank's page, direct answers the signed outcome", async () => {
    const { cardToken } = await client.cards.save("91002", TEST_CARD, customer)
    const payer = { cardToken, customerNumber: "91002", customerName: customer.name, customerEmail: customer.email }
    const page = await client.cards.payWith3D(paymentRequest({ invoiceId: invoice() }), payer)
    expect(page.html).toMatch(/<form[^>]*\/bank\//)
    const direct = await client.cards.payDirect(paymentRequest({ invoiceId: invoice() }), payer)
    expect(direct).toMatchObject({ success: true, hashVerified: true, maskedCardNumber: "450803****4509" })
  })

  it("a token not stored for that customer is refused before any sale: a SipayError with the gateway's code", async () => {
    const { cardToken } = await client.cards.save(91003, TEST_CARD, customer)
    const payer = { cardToken, customerNumber: 91004, customerName: customer.name, customerEmail: customer.email }
    const error = await client.cards.payWith3D(paymentRequest({ invoiceId: invoice() }), payer).catch((e) => e)
    expect(error).toBeInstanceOf(SipayError)
    expect(error.statusCode).toBe(1)
    await expect(client.cards.payDirect(paymentRequest({ invoiceId: invoice() }), payer)).resolves.toMatchObject({ success: false, statusCode: 1 })
  })

  it("never logs a card token or a card number", async () => {
    const { cardToken } = await client.cards.save(91005, TEST_CARD, customer)
    await client.cards.list(91005)
    await client.cards.delete(91005, cardToken)
    const text = logged.join("\n")
    expect(text).not.toContain(cardToken)
    expect(text).not.toContain(TEST_CARD.number)
  })

  it("refuses a customer number that is not a number, before any call", async () => {
    await expect(client.cards.list("abc")).rejects.toMatchObject({ code: "validation" })
  })
})

describe("card tokens are secrets to the redaction", () => {
  it("masks card_token and card_user_key in objects and text", () => {
    expect(redact({ card_token: "a4f8173943bfddd48967c18b3b6b850f", cardUserKey: "cJ>_uWL@_fv" })).toEqual({ card_token: "***", cardUserKey: "***" })
    expect(redact('{"card_token":"a4f8173943bfddd48967c18b3b6b850f"} card_token=f04cc117d3fbfb149c7cff234cdf5fa7')).not.toMatch(/a4f81739|f04cc117/)
  })
})

describe("stored card entries", () => {
  it("take the brand from the first digits and an expiry only when the gateway sends one", () => {
    expect(cardBrandOf("540667")).toBe("mastercard")
    expect(cardBrandOf("222100")).toBe("mastercard")
    expect(cardBrandOf("979209")).toBe("troy")
    expect(cardBrandOf("650170")).toBe("troy")
    expect(cardBrandOf("375987")).toBe("amex")
    expect(toStoredCard({ id: 1418, card_token: "a4f8173943bfddd48967c18b3b6b850f", card_number: "540667****5403", expiry_month: "7", expiry_year: 2031 })).toMatchObject({
      id: "1418", brand: "mastercard", expiryMonth: 7, expiryYear: 2031, bank: null,
    })
    expect(toStoredCard({ id: 1, card_number: "540667****5403" })).toBeNull()
  })
})
