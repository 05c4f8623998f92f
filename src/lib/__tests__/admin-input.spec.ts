import { SendPaymentLinkBody } from "../../api/admin/sipay/payment-links/validators"
import { UpdateSettingsBody } from "../../api/admin/sipay/settings/validators"
import { checkoutSettingsFrom, findSettingsProblems } from "../settings"

const options = { baseUrl: "http://gateway", appId: "a", appSecret: "s", merchantKey: "k", storefrontUrl: "http://localhost:8310" }

describe("admin input", () => {
  it("a storefront URL with a user name (shop@evil.example) or not http(s) is refused", () => {
    for (const url of ["http://localhost:8310@evil.example", "http://shop:pw@evil.example/", "javascript:alert(1)", "http://shop .example"]) {
      expect(UpdateSettingsBody.safeParse({ storefront_url: url }).success).toBe(false)
    }
    expect(UpdateSettingsBody.safeParse({ storefront_url: "https://shop.example/tr" }).success).toBe(true)
  })

  it("success and failure URLs stay on the storefront's origin", () => {
    const problems = (successUrl: string) => findSettingsProblems(checkoutSettingsFrom(options, { successUrl }))
    for (const url of ["http://evil.example/{order_id}", "//evil.example/x", "/\\evil.example", "http://localhost:8310@evil.example/x", "https://localhost:8310/x"]) {
      expect(problems(url)).toEqual([expect.stringMatching(/^success_url /)])
    }
    expect(problems("/order/{order_id}")).toEqual([])
    expect(problems("http://localhost:8310/thanks/{order_id}")).toEqual([])
    expect(findSettingsProblems(checkoutSettingsFrom({ ...options, storefrontUrl: undefined }, { failureUrl: "http://localhost:8310/x" }))).toHaveLength(1)
  })

  it("webhook keys with control characters or line breaks are refused, not trimmed away; plain keys pass trimmed", () => {
    for (const key of ["x\r\nInjected: 1", "medusa-sale\n", "medusa\tsale", "medusa\u0000sale", "medusa\u007fsale", "medusa\u0085sale", "medusa\u2028sale"]) {
      for (const field of ["sale_webhook_key", "recurring_webhook_key"]) {
        const parsed = UpdateSettingsBody.safeParse({ [field]: key })
        expect(parsed.success).toBe(false)
        expect(parsed.error?.issues[0].message).toBe(`${field} must not contain control characters or line breaks`)
      }
    }
    expect(UpdateSettingsBody.safeParse({ sale_webhook_key: " medusa-sale " }).data).toEqual({ sale_webhook_key: "medusa-sale" })
    expect(UpdateSettingsBody.safeParse({ sale_webhook_key: null, recurring_webhook_key: "" }).success).toBe(true)
  })

  it("payment link e-mails are one plain address each: no header or recipient injection", () => {
    for (const email of ["a@example.com\r\nBcc: x@evil.example", "a@example.com\nSubject: hi", "a@example.com, b@evil.example", "a@example.com;b@evil.example", "Name <a@example.com>"]) {
      const parsed = SendPaymentLinkBody.safeParse({ emails: [email] })
      expect(parsed.success).toBe(false)
      expect(parsed.error?.issues[0].message).toMatch(/one plain e-mail address/)
    }
    expect(SendPaymentLinkBody.safeParse({ emails: [" A@Example.com "] }).data).toEqual({ emails: ["a@example.com"] })
  })
})
