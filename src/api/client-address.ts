import type { MedusaRequest } from "@medusajs/framework/http"
import { clientAddressOf, parseTrustedProxies, type TrustedProxies } from "../lib/limiter"
import { CLIENT_IP_HEADER, CLIENT_IP_SIGNATURE_HEADER } from "../lib/limiter/address"
import type { SipayOptions } from "../lib/options"
import { SIPAY_MODULE } from "../modules/sipay"
import type SipayModuleService from "../modules/sipay/service"

const trustedByOptions = new WeakMap<SipayOptions, TrustedProxies>()

function header(req: MedusaRequest, name: string): string | undefined {
  const value = req.headers[name]
  return Array.isArray(value) ? value.join(", ") : value
}

/**
 * The shopper's address as the plugin computes it (never Medusa's `req.ip`, which believes one
 * X-Forwarded-For hop from anyone): see README "Client address". Always a valid IP, or undefined.
 * `sessionId` is the payment session the request is about, which a storefront's signature covers.
 */
export function clientAddress(req: MedusaRequest, sessionId = ""): string | undefined {
  const options = req.scope.resolve<SipayModuleService>(SIPAY_MODULE).getOptions()
  let trustedProxies = trustedByOptions.get(options)
  if (!trustedProxies) {
    trustedProxies = parseTrustedProxies(options.trustedProxies)
    trustedByOptions.set(options, trustedProxies)
  }
  return (
    clientAddressOf(
      {
        socketAddress: req.socket?.remoteAddress,
        forwardedFor: header(req, "x-forwarded-for"),
        signedIp: header(req, CLIENT_IP_HEADER),
        signedIpSignature: header(req, CLIENT_IP_SIGNATURE_HEADER),
        sessionId,
      },
      { trustedProxies, storefrontSecret: options.storefrontSecret }
    ) ?? undefined
  )
}
