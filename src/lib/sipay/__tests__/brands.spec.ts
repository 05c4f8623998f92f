import { startSandbox } from "../../../sandbox"
import { BRAND_PRESETS, BRAND_SOURCES, brandName, type SipayBrand } from "../brands"
import { SipayClient } from "../client"

/**
 * The test and live payment API bases as published in tcgunel/omnipay-sipay src/Constants/Provider.php
 * (commit 3ee07d02a9b1e70922f97298d734d9c6e52bab85), copied here by hand from that file so a changed
 * preset fails this test.
 */
const CITED: Record<string, { test: string; live: string; name: string }> = {
  sipay: { test: "https://provisioning.sipay.com.tr/ccpayment", live: "https://app.sipay.com.tr/ccpayment", name: "Sipay" },
  halkode: { test: "https://testapp.halkode.com.tr/ccpayment", live: "https://app.halkode.com.tr/ccpayment", name: "HalkÖde" },
  iqmoney: { test: "https://provisioning.iqmoneytr.com/ccpayment", live: "https://app.iqmoneytr.com/ccpayment", name: "IQmoney" },
  parolapara: { test: "https://testccpayment.parolapara.com/ccpayment", live: "https://ccpayment.parolapara.com/ccpayment", name: "ParolaPara" },
  paybull: { test: "https://test.paybull.com/ccpayment", live: "https://app.paybull.com/ccpayment", name: "Paybull" },
  qnbpay: { test: "https://test.qnbpay.com.tr/ccpayment", live: "https://portal.qnbpay.com.tr/ccpayment", name: "QNBpay" },
  vepara: { test: "https://test.vepara.com.tr/ccpayment", live: "https://app.vepara.com.tr/ccpayment", name: "Vepara" },
}

const MERCHANT = { appId: "brand-app", appSecret: "brand-secret-0001", merchantKey: "$2y$10$brandPresetMerchantKey00000000000000000000000000" }

describe("brand presets", () => {
  it("offers every brand of the platform, test and live, and the sandbox, nothing else", () => {
    const expected = Object.keys(CITED).flatMap((family) => [`${family}-test`, `${family}-live`]).concat("sandbox").sort()
    expect(Object.keys(BRAND_PRESETS).sort()).toEqual(expected)
    expect(Object.keys(BRAND_SOURCES).sort()).toEqual(Object.keys(CITED).sort())
  })

  it.each(Object.entries(CITED))("%s resolves to its cited test and live bases, the panel on the same host", (family, cited) => {
    for (const [mode, url] of [["test", cited.test], ["live", cited.live]] as const) {
      const client = new SipayClient({ brand: `${family}-${mode}` as SipayBrand, ...MERCHANT })
      expect(client.baseUrl).toBe(url)
      expect(client.panelBaseUrl).toBe(url.replace(/\/ccpayment$/, "/merchant"))
    }
    expect(brandName(`${family}-live`)).toBe(cited.name)
    expect(brandName(`${family}-test`)).toBe(`${cited.name} (test)`)
  })

  it("names the gateway of base URLs given without a brand Sipay", () => {
    expect(brandName(undefined)).toBe("Sipay")
    expect(brandName("sandbox")).toBe("Sipay sandbox")
  })

  describe("against the sandbox through a baseUrl override", () => {
    let sandbox: Awaited<ReturnType<typeof startSandbox>>
    beforeAll(async () => {
      sandbox = await startSandbox({
        port: 0,
        merchants: [{ merchant_id: 1, merchant_key: MERCHANT.merchantKey, app_id: MERCHANT.appId, app_secret: MERCHANT.appSecret, is_3d: 1, installments: [1] }] as never,
      })
    })
    afterAll(() => sandbox.close())

    it.each(Object.keys(BRAND_PRESETS).filter((brand) => brand !== "sandbox"))("%s reaches the gateway at the override, panel following it", async (brand) => {
      const client = new SipayClient({ brand: brand as SipayBrand, baseUrl: sandbox.base_url, ...MERCHANT })
      expect(client.baseUrl).toBe(sandbox.base_url)
      expect(client.panelBaseUrl).toBe(sandbox.base_url)
      const connection = await client.testConnection()
      expect(connection.is3d).toBe(1)
    })
  })
})
