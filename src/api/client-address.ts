import type { MedusaRequest } from "@medusajs/framework/http"
import { parseAddressList, resolveClientAddress, type ClientAddress, type TrustedProxies } from "../lib/limiter"
import { CLIENT_IP_HEADER, CLIENT_IP_SIGNATURE_HEADER } from "../lib/limiter/address"
import type { SipayOptions } from "../lib/options"
import { SIPAY_MODULE } from "../modules/sipay"
import type SipayModuleService from "../modules/sipay/service"

const listsByOptions = new WeakMap<SipayOptions, { trustedProxies: TrustedProxies; storefrontAddresses: TrustedProxies }>()

function header(req: MedusaRequest, name: string): string | undefined {
  const value = req.headers[name]
  return Array.isArray(value) ? value.join(", ") : value
}

/**
 * Who the request is counted as (never Medusa's `req.ip`, which believes one X-Forwarded-For hop
 * from anyone): see docs/storefront.md "Rate limits and the client address". `sessionId` is the payment session
 * the request is about, which a storefront's signature covers.
 */
export function clientOf(req: MedusaRequest, sessionId = ""): ClientAddress | undefined {
  const options = req.scope.resolve<SipayModuleService>(SIPAY_MODULE).getOptions()
  let lists = listsByOptions.get(options)
  if (!lists) {
    lists = { trustedProxies: parseAddressList(options.trustedProxies), storefrontAddresses: parseAddressList(options.storefrontAddresses) }
    listsByOptions.set(options, lists)
  }
  return (
    resolveClientAddress(
      {
        socketAddress: req.socket?.remoteAddress,
        forwardedFor: header(req, "x-forwarded-for"),
        signedIp: header(req, CLIENT_IP_HEADER),
        signedIpSignature: header(req, CLIENT_IP_SIGNATURE_HEADER),
        sessionId,
      },
      { ...lists, storefrontSecret: options.storefrontSecret }
    ) ?? undefined
  )
}

/** The client's address (the `ip` sent to the gateway), always a valid canonical IP, or undefined. */
export function clientAddress(req: MedusaRequest, sessionId = ""): string | undefined {
  return clientOf(req, sessionId)?.ip
}

/** The client's address when the per-address limits count it (not an unsigned request from a storefront server), else null. */
export function countedAddress(req: MedusaRequest, sessionId = ""): string | null {
  const client = clientOf(req, sessionId)
  return client?.perAddress ? client.ip : null
}
