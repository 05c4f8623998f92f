import { findPaymentLinkProblems } from "../../payment-links"
import { ORDER_LINK_PHOTO, orderLinkTerms } from "../link-terms"

describe("a phone order's link terms", () => {
  const now = new Date("2026-11-23T22:30:00Z") // 01:30 on the 24th in Istanbul

  it("is single-use, for the order's total, not editable by the payer, payable for three Istanbul days", () => {
    const terms = orderLinkTerms({ display_id: 42, amount: "1250.40", currency_code: "try", store_name: "Çay Evi" }, now)
    expect(terms).toEqual({
      amount: "1250.40",
      currency_code: "TRY",
      is_amount_set_by_user: false,
      name_of_product: "Order #42",
      description: "Payment for order #42 at Çay Evi",
      expire_date: "2026-11-27",
      expire_hour: 23,
      max_number_of_uses: 1,
    })
  })

  it("passes every rule of dpl/create, the built-in photo included", () => {
    const terms = orderLinkTerms({ display_id: null, amount: "10.00", currency_code: "EUR" }, now)
    expect(findPaymentLinkProblems(terms, { data: Buffer.from(ORDER_LINK_PHOTO.content, "base64"), filename: ORDER_LINK_PHOTO.filename, contentType: ORDER_LINK_PHOTO.content_type }, now)).toEqual([])
  })
})
