import { isIP } from "node:net"

/**
 * Whether a host name or address (as a URL's `hostname` gives it, IPv6 in brackets or not) can only be
 * reached from this machine: `localhost` (and `*.localhost`), 127.0.0.0/8, ::1 and the IPv4-mapped
 * forms of 127.x. Pure.
 */
export function isLoopbackHost(host: string): boolean {
  const name = host.trim().toLowerCase().replace(/^\[(.*)\]$/, "$1")
  if (name === "localhost" || name.endsWith(".localhost")) return true
  if (isIP(name) === 4) return name.startsWith("127.")
  if (isIP(name) === 6) {
    if (name === "::1") return true
    const mapped = /^::ffff:(.+)$/.exec(name)?.[1]
    if (!mapped) return false
    // ::ffff:127.0.0.1, or as URL parsing writes it: ::ffff:7f00:1
    return isIP(mapped) === 4 ? mapped.startsWith("127.") : /^7f[0-9a-f]{2}:/.test(mapped)
  }
  return false
}
