import { SipayClient, SipayLogger } from "./sipay"
import { SipayOptions } from "./options"

/** A gateway client from the plugin options (the client redacts what it logs). */
export function clientFor(options: SipayOptions, logger?: SipayLogger): SipayClient {
  return new SipayClient({
    brand: options.brand,
    baseUrl: options.baseUrl,
    panelBaseUrl: options.panelBaseUrl,
    appId: options.appId,
    appSecret: options.appSecret,
    merchantKey: options.merchantKey,
    merchantId: options.merchantId,
    timeoutMs: options.timeoutMs,
    logger: logger
      ? {
          debug: (message) => logger.debug?.(message),
          info: (message) => logger.info?.(message),
          warn: (message) => logger.warn?.(message),
          error: (message) => logger.error?.(message),
        }
      : undefined,
  })
}
