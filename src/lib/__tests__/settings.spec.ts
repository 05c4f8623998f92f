import { checkoutSettingsFrom, findSettingsProblems, storedSettingsFrom } from "../settings"

const options = { baseUrl: "http://gateway", appId: "a", appSecret: "s", merchantKey: "k", saleWebhookKey: "sale", capture: true }

describe("checkout settings over the options", () => {
  it("a saved value wins, null falls back to the option, an empty text clears it", () => {
    const stored = storedSettingsFrom({ capture: false, max_installments: null, sale_webhook_key: "", description_template: null })
    expect(stored).toEqual({ capture: false, saleWebhookKey: null })
    const settings = checkoutSettingsFrom(options, stored)
    expect(settings).toMatchObject({ capture: false, saleWebhookKey: null, maxInstallments: 12, descriptionTemplate: null })
    expect(checkoutSettingsFrom(options, storedSettingsFrom(null))).toMatchObject({ capture: true, saleWebhookKey: "sale" })
  })

  it("one payment flow at least", () => {
    expect(findSettingsProblems(checkoutSettingsFrom(options, { threeDEnabled: false }))).toHaveLength(1)
    expect(findSettingsProblems(checkoutSettingsFrom({ ...options, enableDirectPayment: true }, { threeDEnabled: false }))).toEqual([])
  })
})
