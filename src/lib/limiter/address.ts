import { createHmac } from "node:crypto"
import { BlockList, isIPv4 } from "node:net"
import { macsEqual } from "../server-mac"
import { canonicalIp } from "./ip"

/**
 * The shopper's address, as the plugin computes it (Medusa's own `req.ip` trusts one X-Forwarded-For
 * hop, which any client can write). Pure: the route hands in what it read from the request.
 */

export type TrustedProxies = { check(ip: string): boolean; readonly size: number }

const NAMED_RANGES: Record<string, string[]> = {
  loopback: ["127.0.0.0/8", "::1/128"],
  private: ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7"],
  linklocal: ["169.254.0.0/16", "fe80::/10"],
}

/**
 * A list of addresses (the `trustedProxies` and `storefrontAddresses` options): addresses, CIDRs (IPv4
 * and IPv6) and the names loopback, private, linklocal. Throws on an entry that is none of these, so a
 * typo cannot silently match nobody.
 */
export function parseAddressList(entries: readonly string[] | string | undefined | null): TrustedProxies {
  const list = new BlockList()
  let size = 0
  const given = typeof entries === "string" ? entries.split(",") : entries ?? []
  for (const raw of given) {
    const entry = String(raw).trim()
    if (!entry) continue
    for (const range of NAMED_RANGES[entry.toLowerCase()] ?? [entry]) {
      const [address, prefix, extra] = range.split("/")
      const ip = canonicalIp(address)
      const bits = prefix === undefined ? undefined : Number(prefix)
      const family = ip && isIPv4(ip) ? "ipv4" : "ipv6"
      if (!ip || extra !== undefined || (bits !== undefined && (!/^\d+$/.test(prefix) || bits > (family === "ipv4" ? 32 : 128)))) {
        throw new Error(`${JSON.stringify(entry)} is not an IP address, a CIDR range or one of ${Object.keys(NAMED_RANGES).join(", ")}`)
      }
      if (bits === undefined) list.addAddress(ip, family)
      else list.addSubnet(ip, bits, family)
      size += 1
    }
  }
  return {
    size,
    check: (ip: string) => {
      const normalized = canonicalIp(ip)
      return normalized !== null && list.check(normalized, isIPv4(normalized) ? "ipv4" : "ipv6")
    },
  }
}

/** The `trustedProxies` option (see parseAddressList). */
export const parseTrustedProxies = parseAddressList

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
  const ip = canonicalIp(input.ip)
  if (!ip) {
    throw new Error("signClientAddress: ip must be an IPv4 or IPv6 address")
  }
  const timestamp = Math.floor((input.nowMs ?? Date.now()) / 1000)
  return { [CLIENT_IP_HEADER]: ip, [CLIENT_IP_SIGNATURE_HEADER]: `t=${timestamp},v1=${signature(input.secret, ip, input.sessionId ?? "", timestamp)}` }
}

/**
 * The signed address, in its canonical spelling, when the headers verify (right secret, this session,
 * fresh), else null. The signature covers the address as the header spells it (what any signer sent).
 */
export function verifyClientAddressSignature(input: {
  secret: string
  ip: string | undefined
  header: string | undefined
  sessionId: string
  nowMs: number
}): string | null {
  const sent = String(input.ip ?? "").trim()
  const ip = canonicalIp(sent)
  const parsed = /^t=(\d{1,12}),v1=([0-9a-f]{64})$/.exec(String(input.header ?? "").trim())
  if (!ip || !parsed || !input.secret) {
    return null
  }
  const timestamp = Number(parsed[1])
  const ageSeconds = input.nowMs / 1000 - timestamp
  if (ageSeconds > CLIENT_IP_SIGNATURE_MAX_AGE_SECONDS || ageSeconds < -60) {
    return null
  }
  return macsEqual(signature(input.secret, sent, input.sessionId, timestamp), parsed[2]) ? ip : null
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

/** Who the plugin counts a request as. */
export type ClientAddress = {
  /** The address, canonical (limits, and the `ip` sent to the gateway). */
  ip: string
  /**
   * Whether the per-address limits count it: false for an unsigned request from one of the
   * `storefrontAddresses` (a storefront server that does not pass its shopper's address), whose
   * shoppers would otherwise all share the server's budget; such requests are counted per session,
   * cart and card only.
   */
  perAddress: boolean
}

/**
 * The client's address: a storefront server's signed address when it verifies; else, when the peer
 * is a trusted proxy, the right-most X-Forwarded-For entry that is not a trusted proxy (an entry that
 * is not an IP stops the walk at the last trusted hop); else the peer itself. Always a valid IP, or
 * null when even the peer's is unusable.
 */
export function resolveClientAddress(
  request: AddressRequest,
  config: { trustedProxies?: TrustedProxies; storefrontSecret?: string | null; storefrontAddresses?: TrustedProxies; nowMs?: number }
): ClientAddress | null {
  if (config.storefrontSecret && request.signedIp !== undefined) {
    const signed = verifyClientAddressSignature({
      secret: config.storefrontSecret,
      ip: request.signedIp,
      header: request.signedIpSignature,
      sessionId: request.sessionId ?? "",
      nowMs: config.nowMs ?? Date.now(),
    })
    if (signed) {
      return { ip: signed, perAddress: true }
    }
  }
  const ip = unsignedAddress(request, config.trustedProxies)
  return ip ? { ip, perAddress: !config.storefrontAddresses?.size || !config.storefrontAddresses.check(ip) } : null
}

/** The address alone (see resolveClientAddress). */
export function clientAddressOf(request: AddressRequest, config: Parameters<typeof resolveClientAddress>[1]): string | null {
  return resolveClientAddress(request, config)?.ip ?? null
}

function unsignedAddress(request: AddressRequest, trustedProxies: TrustedProxies | undefined): string | null {
  let address = canonicalIp(request.socketAddress)
  if (!address || !trustedProxies?.size || !trustedProxies.check(address)) {
    return address
  }
  const hops = String(request.forwardedFor ?? "")
    .split(",")
    .map((hop) => hop.trim())
    .filter(Boolean)
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = canonicalIp(hops[i])
    if (!hop) {
      return address
    }
    address = hop
    if (!trustedProxies.check(hop)) {
      return hop
    }
  }
  return address
}
