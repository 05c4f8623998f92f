import { webhookFields } from "../webhook-body"

describe("sale webhook body", () => {
  it("takes the fields the framework parsed from a form post", () => {
    expect(webhookFields({ data: { invoice_id: "INV_1", hash_key: "a:b:c" } })).toEqual({ invoice_id: "INV_1", hash_key: "a:b:c" })
  })

  it("reads a JSON body from the raw bytes", () => {
    expect(webhookFields({ data: {}, rawData: Buffer.from('{"invoice_id":"INV_2","status":"Completed"}') })).toEqual({ invoice_id: "INV_2", status: "Completed" })
  })

  it("reads a form body from the raw text, keeping '+' as a space as forms do", () => {
    expect(webhookFields({ rawData: "invoice_id=INV_3&hash_key=a%2Bb+c" })).toEqual({ invoice_id: "INV_3", hash_key: "a+b c" })
  })

  it("gives nothing for an empty or missing body", () => {
    expect(webhookFields(undefined)).toEqual({})
    expect(webhookFields({ data: {}, rawData: Buffer.alloc(0) })).toEqual({})
  })
})
