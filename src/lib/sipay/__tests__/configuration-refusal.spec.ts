import { configurationCauseOf } from "../configuration-refusal"
import { paymentOutcomeCode } from "../../shopper-messages"
import { findSetupWarnings } from "../../config-alerts/startup-checks"
import { checkoutSettingsFrom } from "../../settings"

describe("the gateway's configuration refusals, apart from card declines", () => {
  it("names the configuration cause of each refusal the gateway gives for the store's setup", () => {
    expect(configurationCauseOf(14, "Merchant not found.")).toBe("merchant_not_found")
    expect(configurationCauseOf("14", "")).toBe("merchant_not_found")
    expect(configurationCauseOf(1, "The recurring_web_hook_key field is required.")).toBe("recurring_webhook_key_missing")
    expect(configurationCauseOf(56, "Invalid recurring web hook key.")).toBe("recurring_webhook_key_invalid")
    expect(configurationCauseOf(56, "Invalid sale web hook key.")).toBe("sale_webhook_key_invalid")
    expect(configurationCauseOf(34, "The 3D integration method is not allowed for this merchant.")).toBe("integration_not_allowed")
  })

  it("leaves per-card refusals and other validations as they were: never an alert", () => {
    expect(configurationCauseOf(102, "Pos was not defined")).toBeNull()
    expect(configurationCauseOf(41, "transaction failed")).toBeNull()
    expect(configurationCauseOf(1, "The cc_no is not a valid card number.")).toBeNull()
    expect(configurationCauseOf(null, "Merchant not found.")).toBeNull()
    expect(paymentOutcomeCode("failed", 102, "Pos was not defined")).toBe("card_not_valid")
    expect(paymentOutcomeCode("failed", 41, "transaction failed")).toBe("card_declined")
  })

  it("tells the shopper a neutral 'card payments are unavailable' for a configuration refusal", () => {
    expect(paymentOutcomeCode("failed", 14, "Merchant not found.")).toBe("payments_unavailable")
    expect(paymentOutcomeCode("pending", 1, "The recurring_web_hook_key field is required.")).toBe("payments_unavailable")
    expect(paymentOutcomeCode("failed", 34, "")).toBe("payments_unavailable")
  })
})

describe("start-up checks", () => {
  const options = { appId: "a", appSecret: "s", merchantKey: "k", baseUrl: "http://127.0.0.1:1" }
  it("warns of recurring without its key, 2D without its option, production without a sale webhook key", () => {
    const settings = checkoutSettingsFrom(options)
    expect(findSetupWarnings(settings, options, { recurringProducts: 1, regionsWithDirect: 1 }, "production")).toEqual([
      "recurring_without_webhook_key",
      "direct_without_option",
      "production_without_sale_webhook_key",
    ])
    const configured = { ...options, recurringWebhookKey: "r", saleWebhookKey: "s", enableDirectPayment: true }
    expect(findSetupWarnings(checkoutSettingsFrom(configured), configured, { recurringProducts: 1, regionsWithDirect: 1 }, "production")).toEqual([])
    expect(findSetupWarnings(settings, options, { recurringProducts: 0, regionsWithDirect: 0 }, "development")).toEqual([])
  })
})
