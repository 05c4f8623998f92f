import { crossSiteVerdict } from "../cross-site"

const ownOrigin = "https://api.shop.example"

describe("cross-site verdict", () => {
  it("passes same-origin browsers and clients that are not browsers", () => {
    expect(crossSiteVerdict({ site: "same-origin", origin: ownOrigin, ownOrigin })).toBe("pass")
    expect(crossSiteVerdict({ site: "none", ownOrigin })).toBe("pass")
    expect(crossSiteVerdict({ ownOrigin })).toBe("pass")
    expect(crossSiteVerdict({ origin: ownOrigin, ownOrigin })).toBe("pass")
  })

  it("refuses a cross-site browser request without an Origin, or from an opaque one", () => {
    expect(crossSiteVerdict({ site: "cross-site", ownOrigin })).toBe("refuse")
    expect(crossSiteVerdict({ site: "same-site", ownOrigin })).toBe("refuse")
    expect(crossSiteVerdict({ site: "cross-site", origin: "null", ownOrigin })).toBe("refuse")
    expect(crossSiteVerdict({ origin: "null", ownOrigin })).toBe("refuse")
  })

  it("asks for the allowed origins for any other Origin", () => {
    expect(crossSiteVerdict({ site: "same-site", origin: "https://shop.example", ownOrigin })).toBe("ask")
    expect(crossSiteVerdict({ site: "cross-site", origin: "https://evil.example", ownOrigin })).toBe("ask")
    expect(crossSiteVerdict({ origin: "https://api.shop.example.evil.example", ownOrigin })).toBe("ask")
  })
})
