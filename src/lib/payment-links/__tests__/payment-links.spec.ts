import { expiryMoment, findPaymentLinkProblems, linkError, findPhotoProblem, istanbulDaysBetween, linkStateFrom, NewPaymentLink, paidSalesOfLink, sniffImageType } from ".."
import { SaleRecord, SipayError } from "../../sipay"

const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64")
const NOW = new Date("2026-11-22T10:00:00Z") // 13:00 in Istanbul

const link: NewPaymentLink = {
  amount: "250.50",
  currency_code: "TRY",
  is_amount_set_by_user: false,
  name_of_product: "Mug",
  description: "Hand-made",
  expire_date: "2026-11-23",
}
const photo = { data: PNG, filename: "mug.png", contentType: "image/png" }

describe("payment link rules", () => {
  it("accepts a valid link", () => {
    expect(findPaymentLinkProblems(link, photo, NOW)).toEqual([])
  })

  it("expiry is Istanbul time: today at 13:00 has passed at 10:00 UTC, 14:00 has not", () => {
    expect(findPaymentLinkProblems({ ...link, expire_date: "2026-11-22", expire_hour: 13 }, photo, NOW)).toEqual([
      "Expiry must be in the future (Istanbul time, the gateway's clock)",
    ])
    expect(findPaymentLinkProblems({ ...link, expire_date: "2026-11-22", expire_hour: 14 }, photo, NOW)).toEqual([])
    expect(expiryMoment("2026-11-22").toISOString()).toBe("2026-11-22T20:59:59.000Z")
  })

  it("names every broken rule", () => {
    const problems = findPaymentLinkProblems(
      { ...link, amount: "0", currency_code: "GBP", description: "", expire_date: "2026-02-29", expire_hour: 7.5, max_number_of_uses: 0 },
      null,
      NOW
    )
    expect(problems).toHaveLength(7)
  })
})

describe("product photo", () => {
  it("reads the type from the bytes", () => {
    expect(sniffImageType(PNG)).toBe("image/png")
    expect(sniffImageType(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toBe("image/jpeg")
    expect(sniffImageType(Buffer.from("RIFF0000WEBPVP8 "))).toBe("image/webp")
    expect(sniffImageType(Buffer.from("GIF89a"))).toBe("image/gif")
    expect(sniffImageType(Buffer.from("<svg/>"))).toBeNull()
  })

  it("refuses other types, a content that does not match its type, and more than 2 MB", () => {
    expect(findPhotoProblem({ ...photo, contentType: "image/svg+xml" })).toMatch(/got image\/svg\+xml/)
    expect(findPhotoProblem({ ...photo, contentType: "image/jpeg" })).toMatch(/declared as image\/jpeg but its content is image\/png/)
    expect(findPhotoProblem({ ...photo, data: Buffer.concat([PNG, Buffer.alloc(2 * 1024 * 1024)]) })).toMatch(/at most 2.0 MB/)
    expect(findPhotoProblem(photo)).toBeNull()
  })
})

describe("link state from the gateway's sales", () => {
  const sale = (dpl_id: number, transaction_state_id: number) => ({ dpl_id, transaction_state_id }) as SaleRecord
  const stored = { status: "ACTIVE", expire_date: "2026-11-23 18:00:00", max_number_of_uses: 2 }

  it("counts only the link's paid sales", () => {
    expect(paidSalesOfLink([sale(4, 1), sale(4, 2), sale(4, 5), sale(5, 1), sale(4, 3)], 4)).toHaveLength(2)
  })

  it("USED at the maximum, EXPIRED after the date and hour (Istanbul), else as stored", () => {
    expect(linkStateFrom(stored, 1, NOW)).toEqual({ number_of_uses: 1, status: "ACTIVE" })
    expect(linkStateFrom(stored, 2, NOW)).toEqual({ number_of_uses: 2, status: "USED" })
    expect(linkStateFrom(stored, 1, new Date("2026-11-23T15:00:01Z"))).toEqual({ number_of_uses: 1, status: "EXPIRED" })
    expect(linkStateFrom({ ...stored, max_number_of_uses: 0 }, 9, NOW).status).toBe("ACTIVE")
  })

  it("one getTransactions day per Istanbul day of the link's life", () => {
    expect(istanbulDaysBetween(new Date("2026-11-20T22:30:00Z"), NOW)).toEqual(["2026-11-21", "2026-11-22"])
  })
})

describe("link errors", () => {
  it("an unknown outcome says the link may or may not have gone out; a gateway code keeps its description", () => {
    const unknown = new SipayError({ operation: "dpl/sendemail", description: "HTTP 502; the outcome is unknown, reconcile with checkStatus", httpStatus: 502, code: "outcome_unknown" })
    expect(linkError(unknown, "e-mailed").description).toBe("HTTP 502 from the gateway: it is not known whether the link was e-mailed; check with the recipients before sending again")
    const refused = new SipayError({ operation: "dpl/sendemail", statusCode: 31, description: "DPL not found", code: "not_found" })
    expect(linkError(refused, "e-mailed")).toMatchObject({ statusCode: 31, description: "DPL not found" })
  })
})
