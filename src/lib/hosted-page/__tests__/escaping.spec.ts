import { renderHostedPage, HostedPageInput } from "../render"
import { HOSTED_PAGE_SCRIPT } from "../script"

const NONCE = "bm9uY2Utbm9uY2Utbm9uY2U="

function input(overrides: Partial<HostedPageInput> = {}): HostedPageInput {
  return {
    sessionId: "payses_01ABC",
    amount: "1249.90",
    currencyCode: "TRY",
    locale: "tr",
    storeName: "Örnek Mağaza",
    signUrl: "/sipay/checkout/payses_01ABC/sign",
    installmentsUrl: "/sipay/checkout/payses_01ABC/installments",
    cancelUrl: "https://shop.example/checkout",
    nonce: NONCE,
    maxInstallments: 12,
    ...overrides,
  }
}

function configOf(html: string): Record<string, unknown> {
  const match = html.match(/<script type="application\/json" id="sipay-config">([\s\S]*?)<\/script>/)
  expect(match).not.toBeNull()
  return JSON.parse(match![1])
}

const HOSTILE = `</script><script>alert(1)</script><img src=x onerror="alert('x')">&amp;\u2028`

describe("hosted page escaping", () => {
  it("escapes a hostile store name and session id in text, title and script data", () => {
    const html = renderHostedPage(input({ storeName: HOSTILE, sessionId: HOSTILE }))
    expect(html).not.toContain("<script>alert(1)")
    expect(html).not.toContain("<img src=x")
    expect(html.slice(html.indexOf('id="sipay-config"'))).not.toContain("\u2028")
    expect(html).toContain("&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=&quot;alert(&#39;x&#39;)&quot;&gt;&amp;amp;")
    // exactly the two script elements the page owns, the executable one carrying the nonce
    expect(html.match(/<script\b/g)).toHaveLength(2)
    expect(html.match(/<\/script>/g)).toHaveLength(2)
    expect(html).toContain(`<script nonce="${NONCE}">`)
    // the data block decodes back to the exact values
    expect(configOf(html).sessionId).toBe(HOSTILE)
  })

  it("keeps hostile URLs inside the JSON data block, decodable and inert", () => {
    const signUrl = `/sign?a="><script>alert(1)</script>&b='`
    const installmentsUrl = `/inst?x=</script><!--`
    const html = renderHostedPage(input({ signUrl, installmentsUrl }))
    const config = configOf(html)
    expect(config.signUrl).toBe(signUrl)
    expect(config.installmentsUrl).toBe(installmentsUrl)
    expect(html).not.toContain("<!--")
    expect(html.match(/<script\b/g)).toHaveLength(2)
  })

  it("escapes the cancel link and drops non-http ones", () => {
    const html = renderHostedPage(input({ cancelUrl: `https://shop.example/?a="onmouseover=alert(1) x='` }))
    expect(html).toContain(`href="https://shop.example/?a=&quot;onmouseover=alert(1) x=&#39;"`)
    for (const cancelUrl of ["javascript:alert(1)", " JaVaScRiPt:alert(1)", "data:text/html,<b>", null, ""]) {
      expect(renderHostedPage(input({ cancelUrl }))).not.toContain(`class="cancel"`)
    }
  })

  it("refuses a nonce that could break out of the attribute, and malformed amounts", () => {
    expect(() => renderHostedPage(input({ nonce: `abc"><script>x` }))).toThrow(/nonce/)
    expect(() => renderHostedPage(input({ nonce: "short" }))).toThrow(/nonce/)
    expect(() => renderHostedPage(input({ amount: "12,50" }))).toThrow(/amount/)
    expect(() => renderHostedPage(input({ amount: "1e3" }))).toThrow(/amount/)
    expect(() => renderHostedPage(input({ currencyCode: "GBP" as "TRY" }))).toThrow(/currency/)
  })

  it("the embedded browser script cannot close its own element", () => {
    expect(HOSTED_PAGE_SCRIPT).not.toMatch(/<\/script/i)
    expect(HOSTED_PAGE_SCRIPT).not.toContain("<!--")
    expect(() => new Function(HOSTED_PAGE_SCRIPT)).not.toThrow()
  })
})

describe("hosted page content", () => {
  it("renders Turkish with the amount formatted for the locale", () => {
    const html = renderHostedPage(input())
    expect(html).toContain(`<html lang="tr">`)
    expect(html).toContain("₺1.249,90")
    expect(html).toContain(`href="?lang=en"`)
    expect(html).toContain("Kart numarası")
    expect(html).toContain("Örnek Mağaza")
  })

  it("renders English, with exact decimals and no float rounding", () => {
    const html = renderHostedPage(input({ locale: "en", currencyCode: "EUR", amount: "90071992547409.93" }))
    expect(html).toContain(`<html lang="en">`)
    expect(html).toContain("€90,071,992,547,409.93")
    expect(html).toContain(`href="?lang=tr"`)
    expect(html).toContain("Card number")
  })

  it("names the card inputs as the gateway does, with autocomplete tokens", () => {
    const html = renderHostedPage(input())
    for (const [name, token] of [
      ["cc_holder_name", "cc-name"],
      ["cc_no", "cc-number"],
      ["expiry_month", "cc-exp-month"],
      ["expiry_year", "cc-exp-year"],
      ["cvv", "cc-csc"],
    ]) {
      expect(html).toMatch(new RegExp(`<input type="text" id="${name}" name="${name}" autocomplete="${token}"`))
      expect(html).toContain(`<label for="${name}">`)
    }
    // the pay button starts disabled, so without the script the card can never post to the store
    expect(html).toMatch(/<button type="submit" id="pay-button" disabled>/)
  })
})
