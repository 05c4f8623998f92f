import { clientAddressOf, normalizeIp, parseTrustedProxies, signClientAddress } from ".."
import { CLIENT_IP_HEADER, CLIENT_IP_SIGNATURE_HEADER } from "../address"

describe("client address", () => {
  it("is the socket address by default, whatever X-Forwarded-For says", () => {
    expect(clientAddressOf({ socketAddress: "::ffff:198.51.100.7", forwardedFor: "203.0.113.1" }, {})).toBe("198.51.100.7")
  })

  it("behind trusted proxies is the right-most untrusted X-Forwarded-For entry (IPv4 and IPv6 CIDRs)", () => {
    const trustedProxies = parseTrustedProxies(["10.0.0.0/8", "2001:db8::/32"])
    const from = (forwardedFor: string, socketAddress = "10.1.2.3") => clientAddressOf({ socketAddress, forwardedFor }, { trustedProxies })
    expect(from("1.2.3.4, 198.51.100.7, 10.9.9.9")).toBe("198.51.100.7")
    expect(from("1.2.3.4, 2001:db8::5, 2a00:1450::1", "2001:db8::1")).toBe("2a00:1450::1")
    expect(from("10.0.0.1")).toBe("10.0.0.1")
    expect(from("<script>, 10.0.0.2")).toBe("10.0.0.2")
    expect(from("999.999.1.1")).toBe("10.1.2.3")
    expect(clientAddressOf({ socketAddress: "198.51.100.7", forwardedFor: "1.2.3.4" }, { trustedProxies })).toBe("198.51.100.7")
  })

  it("accepts a storefront server's signed address only with the right secret, session and age", () => {
    const secret = "storefront-shared-secret"
    const now = 1_800_000_000_000
    const headers = signClientAddress({ secret, ip: "203.0.113.50", sessionId: "payses_1", nowMs: now })
    const request = (sessionId: string, h = headers) => ({
      socketAddress: "127.0.0.1",
      forwardedFor: undefined,
      signedIp: h[CLIENT_IP_HEADER],
      signedIpSignature: h[CLIENT_IP_SIGNATURE_HEADER],
      sessionId,
    })
    expect(clientAddressOf(request("payses_1"), { storefrontSecret: secret, nowMs: now + 1000 })).toBe("203.0.113.50")
    expect(clientAddressOf(request("payses_2"), { storefrontSecret: secret, nowMs: now })).toBe("127.0.0.1")
    expect(clientAddressOf(request("payses_1"), { storefrontSecret: "other", nowMs: now })).toBe("127.0.0.1")
    expect(clientAddressOf(request("payses_1"), { storefrontSecret: secret, nowMs: now + 301_000 })).toBe("127.0.0.1")
    expect(clientAddressOf(request("payses_1", { ...headers, [CLIENT_IP_HEADER]: "203.0.113.51" }), { storefrontSecret: secret, nowMs: now })).toBe("127.0.0.1")
    expect(clientAddressOf(request("payses_1"), { nowMs: now })).toBe("127.0.0.1")
  })

  it("is always a valid IP", () => {
    expect(normalizeIp("<script>")).toBeNull()
    expect(normalizeIp("999.999.1.1")).toBeNull()
    expect(normalizeIp("[2001:DB8::1]:443")).toBe("2001:db8::1")
    expect(normalizeIp("198.51.100.7:8080")).toBe("198.51.100.7")
    expect(() => parseTrustedProxies(["10.0.0.0/33"])).toThrow(/not an IP address/)
    expect(() => parseTrustedProxies(["proxy.internal"])).toThrow(/not an IP address/)
    expect(parseTrustedProxies("loopback, private").check("192.168.1.1")).toBe(true)
  })
})
