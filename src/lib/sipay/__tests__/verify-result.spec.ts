import { generateHashKey } from "../hash"
import { SipayClient } from "../index"
import { TEST_MERCHANT } from "./support/fake-gateway"

const client = new SipayClient({ baseUrl: "http://127.0.0.1:1/ccpayment", ...TEST_MERCHANT })

function signed(parts: string[], secret = TEST_MERCHANT.appSecret) {
  return generateHashKey(parts, secret)
}

describe("verifyResult", () => {
  const redirect = () => ({
    service_status: "1",
    order_no: "ORD123",
    invoice_id: "sess_01HXYZ_1",
    status_code: "100",
    status_description: "success",
    service_payment_method: "1",
    payment_method: "1",
    credit_card_no: "450803****4509",
    transaction_type: "Auth",
    payment_status: "1",
    error_code: "100",
    error: "",
    hash_key: signed(["1", "20", "sess_01HXYZ_1", "ORD123", "TRY"]),
  })

  it("reads a 3D redirect with the interface's names and a verified hash", () => {
    expect(client.verifyResult(redirect())).toEqual({
      status: "1",
      total: "20.00",
      invoiceId: "sess_01HXYZ_1",
      orderId: "ORD123",
      currencyCode: "TRY",
      paymentStatus: 1,
      transactionType: "Auth",
      statusCode: 100,
      maskedCardNumber: "450803****4509",
      errorCode: "100",
      error: "",
      serviceStatus: "1",
      servicePaymentMethod: "1",
      raw: expect.any(Object),
    })
  })

  it("reads a sale webhook with the live gateway's names", () => {
    const { service_status, service_payment_method, ...rest } = redirect()
    const result = client.verifyResult({ ...rest, sipay_status: service_status, sipay_payment_method: service_payment_method, status: "Completed" })
    expect(result).toMatchObject({ serviceStatus: "1", servicePaymentMethod: "1", status: "1" })
  })

  it("accepts a hash_key whose '+' became a space in a query string, and array values", () => {
    let fields = redirect()
    while (!fields.hash_key.includes("+")) {
      fields = redirect()
    }
    const mangled = { ...fields, hash_key: fields.hash_key.replace(/\+/g, " "), invoice_id: [fields.invoice_id] }
    expect(client.verifyResult(mangled as never)?.orderId).toBe("ORD123")
  })

  it("reads a failed payment's signed status 0", () => {
    const fields = { ...redirect(), payment_status: "0", hash_key: signed(["0", "20", "sess_01HXYZ_1", "", "TRY"]) }
    expect(client.verifyResult(fields)).toMatchObject({ status: "0", paymentStatus: 0, orderId: "" })
  })

  it("returns null when the hash_key is missing", () => {
    const { hash_key, ...fields } = redirect()
    expect(client.verifyResult(fields)).toBeNull()
  })

  it("returns null when the hash_key was made with another secret or tampered", () => {
    expect(client.verifyResult({ ...redirect(), hash_key: signed(["1", "20", "sess_01HXYZ_1", "ORD123", "TRY"], "other") })).toBeNull()
    const fields = redirect()
    expect(client.verifyResult({ ...fields, hash_key: fields.hash_key.slice(0, -4) + "AAA=" })).toBeNull()
  })

  it("returns null when the signed invoice differs from the invoice_id field", () => {
    expect(client.verifyResult({ ...redirect(), invoice_id: "sess_OTHER_1" })).toBeNull()
  })
})

describe("what a verified hash does not prove", () => {
  it("AES-CBC without a MAC: a flipped IV byte flips the signed status, so callers must confirm with checkStatus", () => {
    const failed = signed(["0", "20", "sess_01HXYZ_1", "", "TRY"])
    const [iv, salt, body] = failed.split(":")
    const flipped = String.fromCharCode(iv.charCodeAt(0) ^ 1) + iv.slice(1)
    const forged = client.verifyResult({ invoice_id: "sess_01HXYZ_1", hash_key: `${flipped}:${salt}:${body}` })
    expect(forged?.status).toBe("1")
  })
})
