// Bundled by the demo at start (esbuild, into /kit.js): the storefront kit's helpers
// (medusa-plugin-sipay-storefront, packages/storefront) over Medusa's JS SDK, which the checkout uses.
import Medusa from "@medusajs/js-sdk"

export { getInstallmentOptions, payDirect, startHostedPayment } from "../../packages/storefront/src/index.ts"

export function createSdk(config) {
  return new Medusa({ baseUrl: config.storeUrl, publishableKey: config.publishableKey })
}
