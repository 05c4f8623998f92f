/**
 * The white-label brands of the CCPayment platform share one API; each has its own hosts.
 *
 * Every preset's payment API base (`…/ccpayment`, test and live) is the one listed by the public
 * Omnipay driver tcgunel/omnipay-sipay, `src/Constants/Provider.php` (commit 3ee07d02a9b1), which
 * names all seven brands; `SOURCES` below adds a second public source where one was found. The panel
 * base is the same host's `/merchant` (the platform's merchant panel, e.g. app.vepara.com.tr/merchant
 * in a published Vepara integration), which serves the payment-link operations on the live gateway.
 */

export type SipayBrandFamily = "sipay" | "qnbpay" | "vepara" | "parolapara" | "paybull" | "halkode" | "iqmoney"

export type SipayBrand = `${SipayBrandFamily}-test` | `${SipayBrandFamily}-live` | "sandbox"

/** Where `npx sipay-sandbox` listens by default (this package's local emulator of the gateway). */
export const SANDBOX_BASE_URL = "http://127.0.0.1:4010/ccpayment"

export type BrandPreset = {
  /** Base of the payment API ({base_url} of the interface). */
  baseUrl: string
  /** Base of the merchant panel API, which serves the payment-link operations on the live gateway. */
  panelBaseUrl: string
  /** The brand's name as shoppers and merchants know it (hosted page, "test connection"). */
  name: string
}

/** Public sources of each brand's test and live `…/ccpayment` bases (repository and path, as found with the code search). */
export const BRAND_SOURCES: Readonly<Record<SipayBrandFamily, readonly string[]>> = Object.freeze({
  sipay: ["tcgunel/omnipay-sipay src/Constants/Provider.php", "soyermert/sipay 01.giris/default.tr.md"],
  qnbpay: ["tcgunel/omnipay-sipay src/Constants/Provider.php"],
  vepara: ["tcgunel/omnipay-sipay src/Constants/Provider.php"],
  parolapara: ["tcgunel/omnipay-sipay src/Constants/Provider.php"],
  paybull: ["tcgunel/omnipay-sipay src/Constants/Provider.php"],
  halkode: ["tcgunel/omnipay-sipay src/Constants/Provider.php", "bilalfurkangenc61/HalkOdePHP checkstatus.php (test)"],
  iqmoney: ["tcgunel/omnipay-sipay src/Constants/Provider.php"],
})

const FAMILIES: Readonly<Record<SipayBrandFamily, { name: string; test: string; live: string }>> = {
  sipay: { name: "Sipay", test: "https://provisioning.sipay.com.tr", live: "https://app.sipay.com.tr" },
  qnbpay: { name: "QNBpay", test: "https://test.qnbpay.com.tr", live: "https://portal.qnbpay.com.tr" },
  vepara: { name: "Vepara", test: "https://test.vepara.com.tr", live: "https://app.vepara.com.tr" },
  parolapara: { name: "ParolaPara", test: "https://testccpayment.parolapara.com", live: "https://ccpayment.parolapara.com" },
  paybull: { name: "Paybull", test: "https://test.paybull.com", live: "https://app.paybull.com" },
  halkode: { name: "HalkÖde", test: "https://testapp.halkode.com.tr", live: "https://app.halkode.com.tr" },
  iqmoney: { name: "IQmoney", test: "https://provisioning.iqmoneytr.com", live: "https://app.iqmoneytr.com" },
}

function hostPreset(host: string, name: string): BrandPreset {
  return { baseUrl: `${host}/ccpayment`, panelBaseUrl: `${host}/merchant`, name }
}

export const BRAND_PRESETS: Readonly<Record<SipayBrand, BrandPreset>> = Object.freeze({
  ...(Object.fromEntries(
    Object.entries(FAMILIES).flatMap(([family, { name, test, live }]) => [
      [`${family}-test`, hostPreset(test, `${name} (test)`)],
      [`${family}-live`, hostPreset(live, name)],
    ])
  ) as Record<Exclude<SipayBrand, "sandbox">, BrandPreset>),
  // The sandbox serves the payment-link operations on its payment API base.
  sandbox: { baseUrl: SANDBOX_BASE_URL, panelBaseUrl: SANDBOX_BASE_URL, name: "Sipay sandbox" },
})

export function isSipayBrand(value: unknown): value is SipayBrand {
  return typeof value === "string" && Object.prototype.hasOwnProperty.call(BRAND_PRESETS, value)
}

/** The name of the gateway a store reaches: its brand's, or "Sipay" for base URLs given without a brand. */
export function brandName(brand: unknown): string {
  return isSipayBrand(brand) ? BRAND_PRESETS[brand].name : "Sipay"
}
