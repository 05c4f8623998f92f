import { createHmac } from "node:crypto"
import { macsEqual } from "../server-mac"
import { BlockList, isIP, isIPv4 } from "node:net"

/**
 * The shopper's address, as the plugin computes it (Medusa's own `req.ip` trusts one X-Forwarded-For
 * hop, which any client can write). Pure: the route hands in what it read from the request.
 */

export type TrustedProxies = { check(ip: string): boolean; readonly size: number }

/** An address as a plain IPv4 or IPv6 string (IPv4-mapped IPv6 becomes IPv4, brackets and ports dropped), or null. */
export function normalizeIp(value: string | null | undefined): string | null {
  if (typeof value !== "string") {
    return null
  }
  let text = value.trim()
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(text)
  if (bracketed) {
    text = bracketed[1]
  } else if (/^\d{1,3}(\.\d{1,3}){3}:\d+$/.test(text)) {
    text = text.slice(0, text.lastIndexOf(":"))
  }
  const mapped = /^::ffff:(\d{1,3}(\.\d{1,3}){3})$/i.exec(text)
  if (mapped) {
    text = mapped[1]
  }
  if (text.length > 45 || !isIP(text)) {
    return null
  }
  return isIPv4(text) ? text : text.toLowerCase()
}

const NAMED_RANGES: Record<string, string[]> = {
  loopback: ["127.0.0.0/8", "::1/128"],
  private: ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7"],
  linklocal: ["169.254.0.0/16", "fe80::/10"],
}

/**
 * The `trustedProxies` option: addresses, CIDRs (IPv4 and IPv6) and the names loopback, private,
 * linklocal. Throws on an entry that is none of these, so a typo cannot silently trust nobody.
 */
export function parseTrustedProxies(entries: readonly string[] | string | undefined | null): TrustedProxies {
  const list = new BlockList()
  let size = 0
  const given = typeof entries === "string" ? entries.split(",") : entries ?? []
  for (const raw of given) {
    const entry = String(raw).trim()
    if (!entry) continue
    for (const range of NAMED_RANGES[entry.toLowerCase()] ?? [entry]) {
      const [address, prefix, extra] = range.split("/")
      const ip = normalizeIp(address)
      const bits = prefix === undefined ? undefined : Number(prefix)
      const family = ip && isIPv4(ip) ? "ipv4" : "ipv6"
      if (!ip || extra !== undefined || (bits !== undefined && (!/^\d+$/.test(prefix) || bits > (family === "ipv4" ? 32 : 128)))) {
        throw new Error(`trustedProxies: ${JSON.stringify(entry)} is not an IP address, a CIDR range or one of ${Object.keys(NAMED_RANGES).join(", ")}`)
      }
      if (bits === undefined) list.addAddress(ip, family)
      else list.addSubnet(ip, bits, family)
      size += 1
    }
  }
  return {
    size,
    check: (ip: string) => {
      const normalized = normalizeIp(ip)
      return normalized !== null && list.check(normalized, isIPv4(normalized) ? "ipv4" : "ipv6")
    },
  }
}

export const CLIENT_IP_HEADER = "x-sipay-client-ip"
export const CLIENT_IP_SIGNATURE_HEADER = "x-sipay-client-ip-signature"
/** How long a storefront server's signed address stays valid. */
export const CLIENT_IP_SIGNATURE_MAX_AGE_SECONDS = 300

function signature(secret: string, ip: string, sessionId: string, timestamp: number): string {
  return createHmac("sha256", secret).update(`${ip}\n${sessionId}\n${timestamp}`).digest("hex")
}

/**
 * For a storefront server (e.g. a Next.js server action) passing on its shopper's address: the two
 * headers to send with the request, signed with the shared `storefrontSecret`. `sessionId` is the
 * payment session of the request ("" for a request without one, such as installment look-ups).
 */
export function signClientAddress(input: { secret: string; ip: string; sessionId?: string; nowMs?: number }): Record<string, string> {
  const ip = normalizeIp(input.ip)
  if (!ip) {
    throw new Error("signClientAddress: ip must be an IPv4 or IPv6 address")
  }
  const timestamp = Math.floor((input.nowMs ?? Date.now()) / 1000)
  return { [CLIENT_IP_HEADER]: ip, [CLIENT_IP_SIGNATURE_HEADER]: `t=${timestamp},v1=${signature(input.secret, ip, input.sessionId ?? "", timestamp)}` }
}

/** The signed address when the headers verify (right secret, this session, fresh), else null. */
export function verifyClientAddressSignature(input: {
  secret: string
  ip: string | undefined
  header: string | undefined
  sessionId: string
  nowMs: number
}): string | null {
  const ip = normalizeIp(input.ip)
  const parsed = /^t=(\d{1,12}),v1=([0-9a-f]{64})$/.exec(String(input.header ?? "").trim())
  if (!ip || !parsed || !input.secret) {
    return null
  }
  const timestamp = Number(parsed[1])
  const ageSeconds = input.nowMs / 1000 - timestamp
  if (ageSeconds > CLIENT_IP_SIGNATURE_MAX_AGE_SECONDS || ageSeconds < -60) {
    return null
  }
  return macsEqual(signature(input.secret, ip, input.sessionId, timestamp), parsed[2]) ? ip : null
}

export type AddressRequest = {
  /** The TCP peer (req.socket.remoteAddress). */
  socketAddress: string | undefined
  /** The X-Forwarded-For header as received (all of its values joined by commas). */
  forwardedFor: string | undefined
  /** The storefront server's signed address headers, when sent. */
  signedIp?: string
  signedIpSignature?: string
  /** The payment session the request is about ("" when none). */
  sessionId?: string
}

/**
 * The client's address: a storefront server's signed address when it verifies; else, when the peer
 * is a trusted proxy, the right-most X-Forwarded-For entry that is not a trusted proxy (an entry that
 * is not an IP stops the walk at the last trusted hop); else the peer itself. Always a valid IP, or
 * null when even the peer's is unusable.
 */
export function clientAddressOf(
  request: AddressRequest,
  config: { trustedProxies?: TrustedProxies; storefrontSecret?: string | null; nowMs?: number }
): string | null {
  if (config.storefrontSecret && request.signedIp !== undefined) {
    const signed = verifyClientAddressSignature({
      secret: config.storefrontSecret,
      ip: request.signedIp,
      header: request.signedIpSignature,
      sessionId: request.sessionId ?? "",
      nowMs: config.nowMs ?? Date.now(),
    })
    if (signed) {
      return signed
    }
  }
  let address = normalizeIp(request.socketAddress)
  if (!address || !config.trustedProxies?.size || !config.trustedProxies.check(address)) {
    return address
  }
  const hops = String(request.forwardedFor ?? "")
    .split(",")
    .map((hop) => hop.trim())
    .filter(Boolean)
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = normalizeIp(hops[i])
    if (!hop) {
      return address
    }
    address = hop
    if (!config.trustedProxies.check(hop)) {
      return hop
    }
  }
  return address
}
