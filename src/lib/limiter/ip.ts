/**
 * IP addresses as text, in one canonical spelling, and the keys the limiter counts them under. Pure
 * and import-free: the storefront kit (packages/storefront) bundles this file, so the address a
 * storefront signs is spelled exactly as the plugin spells it.
 */

const IPV4 = /^(0|[1-9]\d{0,2})\.(0|[1-9]\d{0,2})\.(0|[1-9]\d{0,2})\.(0|[1-9]\d{0,2})$/
const GROUP = /^[0-9a-f]{1,4}$/

function ipv4Bytes(text: string): number[] | null {
  const match = IPV4.exec(text)
  if (!match) return null
  const bytes = match.slice(1, 5).map(Number)
  return bytes.every((byte) => byte <= 255) ? bytes : null
}

/** The eight 16-bit groups of an IPv6 text (lower case, `::` and a trailing dotted IPv4 allowed), or null. */
function ipv6Groups(text: string): number[] | null {
  let rest = text
  let tail: number[] = []
  const dotted = /^(.*:)([^:]*\.[^:]*)$/.exec(rest)
  if (dotted) {
    const bytes = ipv4Bytes(dotted[2])
    if (!bytes) return null
    tail = [(bytes[0] << 8) | bytes[1], (bytes[2] << 8) | bytes[3]]
    rest = dotted[1].endsWith("::") ? dotted[1] : dotted[1].slice(0, -1)
  }
  const halves = rest.split("::")
  if (halves.length > 2) return null
  const parse = (part: string) => (part === "" ? [] : part.split(":"))
  const head = parse(halves[0])
  const after = halves.length === 2 ? parse(halves[1]) : []
  if (![...head, ...after].every((group) => GROUP.test(group))) return null
  const given = head.length + after.length + tail.length
  if (halves.length === 1 ? given !== 8 : given > 7) return null
  const zeros = new Array(8 - given).fill(0)
  return [...head.map((g) => parseInt(g, 16)), ...zeros, ...after.map((g) => parseInt(g, 16)), ...tail]
}

/** RFC 5952: lower-case hex without leading zeros, the longest run of two or more zero groups as `::`. */
function formatIpv6(groups: number[]): string {
  let best = { start: -1, length: 0 }
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++
      continue
    }
    let j = i
    while (j < 8 && groups[j] === 0) j++
    if (j - i > best.length && j - i >= 2) best = { start: i, length: j - i }
    i = j
  }
  const hex = groups.map((group) => group.toString(16))
  if (best.start < 0) return hex.join(":")
  return `${hex.slice(0, best.start).join(":")}::${hex.slice(best.start + best.length).join(":")}`
}

function isMappedIpv4(groups: number[]): boolean {
  return groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff
}

/**
 * An address in its one canonical spelling, or null when the text is not an IP address: brackets,
 * a port and an IPv6 zone dropped; IPv4-mapped IPv6 (`::ffff:192.0.2.1`, `::ffff:c000:201`) as IPv4;
 * IPv6 as RFC 5952 (`2001:0DB8:0:0::1` -> `2001:db8::1`). IPv4 with leading zeros (octal to some
 * parsers) is refused.
 */
export function canonicalIp(value: unknown): string | null {
  if (typeof value !== "string") return null
  let text = value.trim().toLowerCase()
  if (text.length > 64) return null
  const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(text)
  if (bracketed) {
    text = bracketed[1]
  } else if (/^[\d.]+:\d{1,5}$/.test(text) && ipv4Bytes(text.slice(0, text.lastIndexOf(":")))) {
    text = text.slice(0, text.lastIndexOf(":"))
  }
  if (ipv4Bytes(text)) return text
  const zone = text.indexOf("%")
  if (zone >= 0) text = text.slice(0, zone)
  const groups = text.includes(":") ? ipv6Groups(text) : null
  if (!groups) return null
  if (isMappedIpv4(groups)) return [groups[6] >> 8, groups[6] & 255, groups[7] >> 8, groups[7] & 255].join(".")
  return formatIpv6(groups)
}

function prefixOf(ip: string, ipv4Octets: number, ipv6Groups_: number): string | null {
  const canonical = canonicalIp(ip)
  if (!canonical) return null
  const bytes = ipv4Bytes(canonical)
  if (bytes) {
    return ipv4Octets === 4 ? canonical : `${[...bytes.slice(0, ipv4Octets), ...new Array(4 - ipv4Octets).fill(0)].join(".")}/${ipv4Octets * 8}`
  }
  const groups = ipv6Groups(canonical)!
  return `${formatIpv6([...groups.slice(0, ipv6Groups_), ...new Array(8 - ipv6Groups_).fill(0)])}/${ipv6Groups_ * 16}`
}

/**
 * What counts as one client for the per-address limits: an IPv4 address, or an IPv6 /64 (one home
 * line, one VPS: every address of it is one client's). Null for a text that is not an address.
 */
export function addressLimitKey(ip: string): string | null {
  return prefixOf(ip, 4, 4)
}

/** The wider neighbourhood a decline budget is counted over: an IPv4 /24 or an IPv6 /48. */
export function addressPrefixKey(ip: string): string | null {
  return prefixOf(ip, 3, 3)
}
