import { findPaymentLinkProblems } from "../../payment-links"
import { ORDER_LINK_PHOTO, orderLinkTerms } from "../link-terms"

describe("a phone order's link terms", () => {
  const now = new Date("2026-11-23T22:30:00Z") // 01:30 on the 24th in Istanbul

  it("is single-use, for the order's total, not editable by the payer, payable for three Istanbul days, in Turkish for a Turkish order", () => {
    const terms = orderLinkTerms({ display_id: 42, amount: "1250.40", currency_code: "try", store_name: "Çay Evi", language: "tr" }, now)
    expect(terms).toEqual({
      amount: "1250.40",
      currency_code: "TRY",
      is_amount_set_by_user: false,
      name_of_product: "Sipariş #42",
      description: "Sipariş #42 için ödeme (Çay Evi)",
      expire_date: "2026-11-27",
      expire_hour: 23,
      max_number_of_uses: 1,
    })
  })

  it("speaks English to an English-speaking customer", () => {
    const terms = orderLinkTerms({ display_id: 42, amount: "10.00", currency_code: "EUR", store_name: "Çay Evi", language: "en" }, now)
    expect([terms.name_of_product, terms.description]).toEqual(["Order #42", "Payment for order #42 at Çay Evi"])
  })

  it("leaves out what it does not know: the order's number, the store's name", () => {
    expect(orderLinkTerms({ display_id: null, amount: "10.00", currency_code: "TRY", store_name: "", language: "tr" }, now)).toMatchObject({
      name_of_product: "Sipariş",
      description: "Sipariş için ödeme",
    })
    expect(orderLinkTerms({ display_id: 7, amount: "10.00", currency_code: "TRY", language: "en" }, now)).toMatchObject({
      name_of_product: "Order #7",
      description: "Payment for order #7",
    })
  })

  it("passes every rule of dpl/create, the built-in photo included", () => {
    const terms = orderLinkTerms({ display_id: null, amount: "10.00", currency_code: "EUR", language: "tr" }, now)
    expect(findPaymentLinkProblems(terms, { data: Buffer.from(ORDER_LINK_PHOTO.content, "base64"), filename: ORDER_LINK_PHOTO.filename, contentType: ORDER_LINK_PHOTO.content_type }, now)).toEqual([])
  })
})
