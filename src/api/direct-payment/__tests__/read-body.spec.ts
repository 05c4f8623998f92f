import { MISSING_CART_MESSAGE, parseDirectPaymentBody } from "../read-body"

const CARD = "4508034508034509"
const CVV = "739"
const card = { holder_name: "Ayşe Yılmaz", number: CARD, expiry_month: "12", expiry_year: "2031", cvv: CVV }
const JSON_TYPE = "application/json; charset=utf-8"

function refusal(raw: string, contentType = JSON_TYPE) {
  const outcome = parseDirectPaymentBody(raw, contentType)
  if (!("refusal" in outcome)) throw new Error("expected a refusal")
  return outcome.refusal
}

/** Nothing of the card (its number, its first 10 digits, its CVV) in a message. */
function expectNoCardData(message: string) {
  expect(message).not.toContain(CARD.slice(0, 10))
  expect(message).not.toMatch(new RegExp(`(?<!\\d)${CVV}(?!\\d)`))
}

describe("the direct payment's body, read by the plugin", () => {
  it("takes a well-formed body with the holder's cart id", () => {
    const outcome = parseDirectPaymentBody(JSON.stringify({ cart_id: "cart_01ABC", installments_number: 3, card }), JSON_TYPE)
    expect(outcome).toEqual({ body: { cart_id: "cart_01ABC", installments_number: 3, card } })
  })

  it("answers wrong JSON types with what the field must be, never with what was sent", () => {
    const cases: [unknown, string][] = [
      [`${CARD}|12|2031|${CVV}`, "card must be an object with holder_name, number, expiry_month, expiry_year and cvv, each a string"],
      [[CARD, CVV], "card must be an object with holder_name, number, expiry_month, expiry_year and cvv, each a string"],
      [{ ...card, number: Number(CARD) }, "card.number must be a string of 12 to 19 digits"],
      [{ ...card, cvv: Number(CVV) }, "card.cvv must be a string of 3 or 4 digits"],
      [{ ...card, number: `${CARD}x` }, "card.number must be a string of 12 to 19 digits"],
      [{ ...card, holder_name: Number(CARD) }, "card.holder_name must be a string of 1 to 100 characters"],
      [{ ...card, expiry_month: 12 }, "card.expiry_month must be a string from 1 to 12"],
    ]
    for (const [value, message] of cases) {
      const answer = refusal(JSON.stringify({ cart_id: "cart_01ABC", card: value }))
      expect([value, answer]).toEqual([value, { status: 400, message }])
      expectNoCardData(answer.message)
    }
    const installments = refusal(JSON.stringify({ cart_id: "cart_01ABC", installments_number: CARD, card }))
    expect(installments.message).toBe("installments_number must be a whole number from 1 to 12")
  })

  it("answers malformed JSON and other encodings with a fixed message", () => {
    for (const raw of [`${CARD}|12|2031|${CVV}`, `{"cart_id":"cart_01ABC","card":{"number":"${CARD}","cvv":"${CVV}"`, "", "null", `"${CARD}"`, `[${CARD}]`]) {
      const answer = refusal(raw)
      expect(answer.status).toBe(400)
      expectNoCardData(answer.message)
    }
    for (const type of ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "", "application/jsonp"]) {
      expect(refusal(JSON.stringify({ cart_id: "cart_01ABC", card }), type)).toEqual({ status: 400, message: "The direct payment must be sent as a JSON object (Content-Type: application/json)" })
    }
  })

  it("names unknown keys only when they cannot be data", () => {
    expect(refusal(JSON.stringify({ cart_id: "cart_01ABC", card: { ...card, pin: CVV } })).message).toBe("card has fields it does not take: pin")
    const odd = refusal(JSON.stringify({ cart_id: "cart_01ABC", card, [CARD]: CVV }))
    expect(odd.message).toBe("The direct payment has fields it does not take")
    expectNoCardData(odd.message)
  })

  it("tells a storefront without cart_id (an older kit) to upgrade", () => {
    expect(refusal(JSON.stringify({ installments_number: 1, card }))).toEqual({ status: 400, message: MISSING_CART_MESSAGE })
    expect(MISSING_CART_MESSAGE).toMatch(/upgrade .*medusa-plugin-sipay-storefront|medusa-plugin-sipay-storefront.*upgrade/)
    expect(refusal(JSON.stringify({ cart_id: 42, card })).message).toBe("cart_id must be the id of the cart this payment session pays (a string)")
  })
})
