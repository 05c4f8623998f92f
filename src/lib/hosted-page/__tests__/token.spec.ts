import { issueCheckoutToken, verifyCheckoutToken } from "../token"

describe("the hosted page's token", () => {
  const secret = "app-secret-of-the-store"
  const session = "payses_01M83JY7G118DXJBG2DDD14SDA"
  const now = 1_800_000_000

  it("opens the page of its own session until it expires", () => {
    const token = issueCheckoutToken(secret, session, now + 3600)
    expect(verifyCheckoutToken(secret, session, token, now)).toBe(true)
    expect(verifyCheckoutToken(secret, session, token, now + 3600)).toBe(true)
    expect(verifyCheckoutToken(secret, session, token, now + 3601)).toBe(false)
  })

  it("is the same for every server with the same configuration, and different under another app secret", () => {
    const token = issueCheckoutToken(secret, session, now + 60)
    expect(issueCheckoutToken(secret, session, now + 60)).toBe(token)
    expect(verifyCheckoutToken("another-secret", session, token, now)).toBe(false)
  })

  it("does not open another session, and a changed expiry or MAC is refused", () => {
    const token = issueCheckoutToken(secret, session, now + 60)
    const [expiry, mac] = token.split(".")
    expect(verifyCheckoutToken(secret, "payses_01M83JY8DZD1Y53WE5JNWJAV4T", token, now)).toBe(false)
    expect(verifyCheckoutToken(secret, session, `${(parseInt(expiry, 36) + 86400).toString(36)}.${mac}`, now)).toBe(false)
    expect(verifyCheckoutToken(secret, session, `${expiry}.${mac.slice(0, -1)}${mac.endsWith("A") ? "B" : "A"}`, now)).toBe(false)
    for (const junk of [undefined, "", "x", `${expiry}.`, `.${mac}`, ["a"], 12, `${token}${token}`]) {
      expect(verifyCheckoutToken(secret, session, junk, now)).toBe(false)
    }
  })
})
