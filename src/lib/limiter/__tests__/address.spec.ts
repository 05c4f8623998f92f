import { canonicalIp, clientAddressOf, parseAddressList, parseTrustedProxies, resolveClientAddress, signClientAddress } from ".."
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

  it("is canonical: the gateway and the limits see one spelling of an address", () => {
    expect(clientAddressOf({ socketAddress: "2001:0DB8:5130:0002:0:0:0:0001", forwardedFor: undefined }, {})).toBe("2001:db8:5130:2::1")
    const trustedProxies = parseTrustedProxies(["loopback"])
    expect(clientAddressOf({ socketAddress: "::1", forwardedFor: "2001:db8:5130:2:0::1" }, { trustedProxies })).toBe("2001:db8:5130:2::1")
    const secret = "s"
    const signed = signClientAddress({ secret, ip: "2001:0db8::0001", sessionId: "payses_1" })
    expect(signed[CLIENT_IP_HEADER]).toBe("2001:db8::1")
    expect(clientAddressOf({ socketAddress: "127.0.0.1", forwardedFor: undefined, signedIp: signed[CLIENT_IP_HEADER], signedIpSignature: signed[CLIENT_IP_SIGNATURE_HEADER], sessionId: "payses_1" }, { storefrontSecret: secret })).toBe("2001:db8::1")
  })

  it("from a storefront server's own address, unsigned, is not counted per address; signed, it is", () => {
    const storefrontAddresses = parseAddressList(["10.0.5.0/24"])
    const secret = "storefront-secret"
    expect(resolveClientAddress({ socketAddress: "10.0.5.7", forwardedFor: undefined }, { storefrontAddresses })).toEqual({ ip: "10.0.5.7", perAddress: false })
    expect(resolveClientAddress({ socketAddress: "10.0.6.7", forwardedFor: undefined }, { storefrontAddresses })).toEqual({ ip: "10.0.6.7", perAddress: true })
    const headers = signClientAddress({ secret, ip: "203.0.113.9", sessionId: "payses_1" })
    const signed = { socketAddress: "10.0.5.7", forwardedFor: undefined, signedIp: headers[CLIENT_IP_HEADER], signedIpSignature: headers[CLIENT_IP_SIGNATURE_HEADER], sessionId: "payses_1" }
    expect(resolveClientAddress(signed, { storefrontAddresses, storefrontSecret: secret })).toEqual({ ip: "203.0.113.9", perAddress: true })
    expect(resolveClientAddress({ ...signed, sessionId: "payses_2" }, { storefrontAddresses, storefrontSecret: secret })).toEqual({ ip: "10.0.5.7", perAddress: false })
    expect(resolveClientAddress({ socketAddress: "10.0.5.7", forwardedFor: undefined }, {})).toEqual({ ip: "10.0.5.7", perAddress: true })
  })

  it("is always a valid IP", () => {
    expect(canonicalIp("<script>")).toBeNull()
    expect(canonicalIp("999.999.1.1")).toBeNull()
    expect(canonicalIp("[2001:DB8::1]:443")).toBe("2001:db8::1")
    expect(canonicalIp("198.51.100.7:8080")).toBe("198.51.100.7")
    expect(() => parseTrustedProxies(["10.0.0.0/33"])).toThrow(/not an IP address/)
    expect(() => parseTrustedProxies(["proxy.internal"])).toThrow(/not an IP address/)
    expect(parseTrustedProxies("loopback, private").check("192.168.1.1")).toBe(true)
  })
})
