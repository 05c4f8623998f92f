import { addressLimitKey, addressPrefixKey, canonicalIp } from "../ip"

describe("canonicalIp: every spelling of one address is one address", () => {
  it("spells IPv6 as RFC 5952 whatever the case, leading zeros or compression", () => {
    const spellings = [
      "2001:db8:5130:2::1",
      "2001:DB8:5130:2::1",
      "2001:0db8:5130:0002:0000:0000:0000:0001",
      "2001:db8:5130:2:0::1",
      "2001:db8:5130:2:0:0:0:1",
      "[2001:db8:5130:2::1]",
      "[2001:db8:5130:2::1]:443",
      " 2001:db8:5130:2::0001 ",
    ]
    expect(new Set(spellings.map(canonicalIp))).toEqual(new Set(["2001:db8:5130:2::1"]))
  })

  it("compresses the longest run of zero groups (the first of equal ones), never a single group", () => {
    expect(canonicalIp("2001:db8:0:0:1:0:0:1")).toBe("2001:db8::1:0:0:1")
    expect(canonicalIp("2001:0:0:1:0:0:0:1")).toBe("2001:0:0:1::1")
    expect(canonicalIp("2001:db8:0:1:1:1:1:1")).toBe("2001:db8:0:1:1:1:1:1")
    expect(canonicalIp("0:0:0:0:0:0:0:0")).toBe("::")
    expect(canonicalIp("0:0:0:0:0:0:0:1")).toBe("::1")
    expect(canonicalIp("fe80::1%eth0")).toBe("fe80::1")
  })

  it("unwraps IPv4-mapped IPv6 in its dotted and hex spellings, and drops an IPv4 port", () => {
    for (const spelling of ["198.51.100.7", "::ffff:198.51.100.7", "::FFFF:c633:6407", "0:0:0:0:0:ffff:198.51.100.7", "[::ffff:198.51.100.7]:8080", "198.51.100.7:8080"]) {
      expect(canonicalIp(spelling)).toBe("198.51.100.7")
    }
  })

  it("agrees with the WHATWG URL serializer on 2,000 random IPv6 addresses written out in full", () => {
    let seed = 7
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31
    for (let i = 0; i < 2000; i++) {
      const groups = Array.from({ length: 8 }, () => (random() < 0.5 ? 0 : Math.floor(random() * 65536)))
      if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) continue
      const full = groups.map((g) => g.toString(16).padStart(4, "0")).join(":")
      expect(canonicalIp(full)).toBe(new URL(`http://[${full}]/`).hostname.slice(1, -1))
    }
  })

  it("refuses what is not an address", () => {
    for (const text of ["<script>", "999.999.1.1", "010.1.1.1", "1.2.3", "1:2:3:4:5:6:7:8:9", "1::2::3", "12345::1", "::ffff:1.2.3.256", "", "8.8.8.8, 9.9.9.9", "a".repeat(80)]) {
      expect(canonicalIp(text)).toBeNull()
    }
    expect(canonicalIp(undefined)).toBeNull()
  })
})

describe("the keys the limiter counts addresses under", () => {
  it("counts an IPv6 /64 as one client, whatever address of it and however it is spelled", () => {
    const keys = ["2001:db8:5130:1::1", "2001:db8:5130:1:ffff:ffff:ffff:fffe", "2001:0DB8:5130:0001::77", "[2001:db8:5130:1::9]:443"].map(addressLimitKey)
    expect(new Set(keys)).toEqual(new Set(["2001:db8:5130:1::/64"]))
    expect(addressLimitKey("2001:db8:5130:2::1")).toBe("2001:db8:5130:2::/64")
  })

  it("counts an IPv4 address as itself (a mapped spelling included)", () => {
    expect(addressLimitKey("::ffff:203.0.113.9")).toBe("203.0.113.9")
    expect(addressLimitKey("203.0.113.10")).toBe("203.0.113.10")
  })

  it("groups decline budgets by IPv4 /24 and IPv6 /48", () => {
    expect(addressPrefixKey("203.0.113.9")).toBe("203.0.113.0/24")
    expect(addressPrefixKey("203.0.113.250")).toBe("203.0.113.0/24")
    expect(addressPrefixKey("2001:db8:5130:1::1")).toBe("2001:db8:5130::/48")
    expect(addressPrefixKey("2001:db8:5130:ffff::1")).toBe("2001:db8:5130::/48")
    expect(addressPrefixKey("garbage")).toBeNull()
  })
})
