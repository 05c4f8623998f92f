import { hostedPageHeaders } from "../headers"
import { pickLocale } from "../locale"
import { MESSAGES } from "../messages"

describe("pickLocale", () => {
  it("prefers the explicit ?lang=", () => {
    expect(pickLocale("en", "tr-TR,tr;q=0.9")).toBe("en")
    expect(pickLocale("tr", "en-US")).toBe("tr")
    expect(pickLocale("EN-gb")).toBe("en")
  })

  it("falls back to Accept-Language by q-value, then to Turkish", () => {
    expect(pickLocale(undefined, "en-US,en;q=0.9")).toBe("en")
    expect(pickLocale("de", "de-DE,tr;q=0.5,en;q=0.8")).toBe("en")
    expect(pickLocale(undefined, "fr, tr;q=0.2")).toBe("tr")
    expect(pickLocale(undefined, "en;q=0")).toBe("tr")
    expect(pickLocale(undefined, "de-DE")).toBe("tr")
    expect(pickLocale()).toBe("tr")
    expect(pickLocale("", "")).toBe("tr")
  })
})

describe("hostedPageHeaders", () => {
  const nonce = "AAECAwQFBgcICQoLDA0ODw=="

  it("forbids caching and sets a strict policy", () => {
    const headers = hostedPageHeaders({
      nonce,
      gatewayOrigin: "https://provisioning.sipay.com.tr/ccpayment/api/paySmart3D",
      frameAncestors: ["https://shop.example/checkout", "https://shop.example", "https://www.shop.example"],
    })
    expect(headers["Cache-Control"]).toBe("no-store")
    expect(headers.Pragma).toBe("no-cache")
    expect(headers["Referrer-Policy"]).toBe("no-referrer")
    expect(headers["X-Content-Type-Options"]).toBe("nosniff")
    expect(headers["Content-Security-Policy"]).toBe(
      [
        "default-src 'none'",
        `script-src 'nonce-${nonce}'`,
        `style-src 'nonce-${nonce}'`,
        "connect-src 'self'",
        "form-action 'self' https://provisioning.sipay.com.tr",
        "frame-ancestors 'self' https://shop.example https://www.shop.example",
        "base-uri 'none'",
        "img-src 'self' data:",
      ].join("; ")
    )
  })

  it("refuses values that would inject into the policy", () => {
    const base = { nonce, gatewayOrigin: "https://gw.example", frameAncestors: [] as string[] }
    expect(() => hostedPageHeaders({ ...base, nonce: "abc; script-src *" })).toThrow(/nonce/)
    expect(() => hostedPageHeaders({ ...base, gatewayOrigin: "*" })).toThrow(/gatewayOrigin/)
    expect(() => hostedPageHeaders({ ...base, frameAncestors: ["javascript:alert(1)"] })).toThrow(/frame ancestor/)
    expect(() => hostedPageHeaders({ ...base, frameAncestors: ["https://a.example; script-src *"] })).toThrow(/frame ancestor/)
  })
})

describe("messages", () => {
  it("has every text in both languages", () => {
    expect(Object.keys(MESSAGES.en).sort()).toEqual(Object.keys(MESSAGES.tr).sort())
    for (const locale of ["tr", "en"] as const) {
      for (const [key, text] of Object.entries(MESSAGES[locale])) {
        expect([key, text.trim().length > 0]).toEqual([key, true])
      }
    }
  })
})
