/** The white-label brands of the CCPayment platform share one API; each has its own hosts. */

export type SipayBrand = "sipay-test" | "sipay-live" | "qnbpay-test" | "qnbpay-live" | "sandbox"

/** Where `npx sipay-sandbox` listens by default (this package's local emulator of the gateway). */
export const SANDBOX_BASE_URL = "http://127.0.0.1:4010/ccpayment"

export type BrandPreset = {
  /** Base of the payment API ({base_url} of the interface). */
  baseUrl: string
  /** Base of the merchant panel API, which serves the payment-link operations on the live gateway. */
  panelBaseUrl: string
}

export const BRAND_PRESETS: Readonly<Record<SipayBrand, BrandPreset>> = Object.freeze({
  "sipay-test": {
    baseUrl: "https://provisioning.sipay.com.tr/ccpayment",
    panelBaseUrl: "https://provisioning.sipay.com.tr/merchant",
  },
  "sipay-live": {
    baseUrl: "https://app.sipay.com.tr/ccpayment",
    panelBaseUrl: "https://app.sipay.com.tr/merchant",
  },
  "qnbpay-test": {
    baseUrl: "https://test.qnbpay.com.tr/ccpayment",
    panelBaseUrl: "https://test.qnbpay.com.tr/merchant",
  },
  "qnbpay-live": {
    baseUrl: "https://portal.qnbpay.com.tr/ccpayment",
    panelBaseUrl: "https://portal.qnbpay.com.tr/merchant",
  },
  // The sandbox serves the payment-link operations on its payment API base.
  sandbox: { baseUrl: SANDBOX_BASE_URL, panelBaseUrl: SANDBOX_BASE_URL },
})

export function isSipayBrand(value: unknown): value is SipayBrand {
  return typeof value === "string" && Object.prototype.hasOwnProperty.call(BRAND_PRESETS, value)
}
