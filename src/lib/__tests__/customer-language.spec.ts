import { customerLanguage } from "../customer-language"
import { describeInvoice } from "../checkout/urls"
import { findOptionProblems } from "../options"
import { checkoutSettingsFrom } from "../settings"

describe("the language a customer reads", () => {
  it("is the first locale named: the cart's or order's, then the store's first", () => {
    expect(customerLanguage(["en-US", "tr-TR"], "tr")).toBe("en")
    expect(customerLanguage(["tr-TR", "en-US"], "en")).toBe("tr")
    expect(customerLanguage([null, "en-GB"], "tr")).toBe("en")
    expect(customerLanguage([undefined, "tr"], "en")).toBe("tr")
    expect(customerLanguage(["", "  ", "TR_tr"], "en")).toBe("tr")
  })

  it("is English for a language the plugin does not write (a German customer reads English, not Turkish)", () => {
    expect(customerLanguage(["de-DE"], "tr")).toBe("en")
    expect(customerLanguage([null, "fr"], "tr")).toBe("en")
  })

  it("is the option's when no locale is named anywhere, Turkish by default", () => {
    expect(customerLanguage([null, null], "en")).toBe("en")
    expect(customerLanguage([null, null])).toBe("tr")
    expect(customerLanguage([])).toBe("tr")
  })

  it("the option takes tr or en only", () => {
    const options = { baseUrl: "http://gateway", appId: "a", appSecret: "s", merchantKey: "k" }
    expect(findOptionProblems({ ...options, defaultLocale: "en" })).toEqual([])
    expect(findOptionProblems({ ...options, defaultLocale: "de" as never })).toEqual(['option "defaultLocale" must be "tr" or "en"'])
  })
})

describe("the invoice description sent to the gateway", () => {
  const options = { baseUrl: "http://gateway", appId: "a", appSecret: "s", merchantKey: "k" }

  it("is the built-in one in the customer's language when the store sets none", () => {
    const settings = checkoutSettingsFrom(options)
    expect(settings.descriptionTemplate).toBeNull()
    expect(describeInvoice(settings.descriptionTemplate, { cart_id: "cart_1", language: "tr" })).toBe("Sipariş cart_1")
    expect(describeInvoice(settings.descriptionTemplate, { cart_id: "cart_1", language: "en" })).toBe("Order cart_1")
  })

  it("is the store's own template, in every language, with the store's name filled in", () => {
    const settings = checkoutSettingsFrom({ ...options, descriptionTemplate: "{store} / {order}" })
    expect(describeInvoice(settings.descriptionTemplate, { cart_id: "cart_1", store: "Çay Evi", language: "en" })).toBe("Çay Evi / cart_1")
    const saved = checkoutSettingsFrom(options, { descriptionTemplate: "Kahve {cart_id}" })
    expect(describeInvoice(saved.descriptionTemplate, { cart_id: "cart_2", language: "en" })).toBe("Kahve cart_2")
  })
})
