import { BRAND_PRESETS, SipayClient } from "../index"
import { TEST_MERCHANT } from "./support/fake-gateway"

describe("client options", () => {
  it.each([
    ["baseUrl", { appId: "a", appSecret: "b", merchantKey: "c" }],
    ["appId", { baseUrl: "http://x", appSecret: "b", merchantKey: "c" }],
    ["appSecret", { baseUrl: "http://x", appId: "a", merchantKey: "c" }],
    ["merchantKey", { brand: "sipay-test", appId: "a", appSecret: "b" }],
  ])("names the missing %s option", (name, options) => {
    expect(() => new SipayClient(options as never)).toThrow(new RegExp(`\\b${name}\\b`))
  })

  it("strips trailing slashes and defaults the panel base to the base", () => {
    const client = new SipayClient({ baseUrl: "http://127.0.0.1:4010/ccpayment///", ...TEST_MERCHANT })
    expect(client.baseUrl).toBe("http://127.0.0.1:4010/ccpayment")
    expect(client.panelBaseUrl).toBe("http://127.0.0.1:4010/ccpayment")
    expect(client.build3DForm).toBeDefined()
  })

  it.each(Object.entries(BRAND_PRESETS))("brand %s sets both bases", (brand, preset) => {
    const client = new SipayClient({ brand: brand as never, ...TEST_MERCHANT })
    expect(client.baseUrl).toBe(preset.baseUrl)
    expect(client.panelBaseUrl).toBe(preset.panelBaseUrl)
    // The gateway's brands serve payment links from their merchant panel; the local sandbox from its one base (contracts.md).
    expect(preset.panelBaseUrl).toBe(brand === "sandbox" ? preset.baseUrl : preset.baseUrl.replace(/\/ccpayment$/, "/merchant"))
  })

  it("lets an explicit base override a brand, the panel following it unless given", () => {
    const client = new SipayClient({ brand: "sipay-live", baseUrl: "http://127.0.0.1:4010/ccpayment/", ...TEST_MERCHANT })
    expect(client.panelBaseUrl).toBe("http://127.0.0.1:4010/ccpayment")
    const withPanel = new SipayClient({ brand: "sipay-test", panelBaseUrl: "http://panel.example/merchant/", ...TEST_MERCHANT })
    expect(withPanel.baseUrl).toBe("https://provisioning.sipay.com.tr/ccpayment")
    expect(withPanel.panelBaseUrl).toBe("http://panel.example/merchant")
  })

  it("refuses an unknown brand", () => {
    expect(() => new SipayClient({ brand: "vepara" as never, ...TEST_MERCHANT })).toThrow(/unknown brand/)
  })

  it("imports nothing from Medusa", () => {
    const { readdirSync, readFileSync } = require("node:fs") as typeof import("node:fs")
    const { join } = require("node:path") as typeof import("node:path")
    const dir = join(__dirname, "..")
    for (const file of readdirSync(dir).filter((name: string) => name.endsWith(".ts"))) {
      expect(readFileSync(join(dir, file), "utf8")).not.toMatch(/from ["']@medusajs\//)
    }
  })
})
