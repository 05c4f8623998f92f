import { renderHostedPageContent, renderHostedPageShell, renderPaidPageContent, HostedPageInput } from "../render"
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
    maxInstallments: 12,
    ...overrides,
  }
}

function shellConfigOf(html: string): Record<string, unknown> {
  const match = html.match(/<script type="application\/json" id="sipay-shell">([\s\S]*?)<\/script>/)
  expect(match).not.toBeNull()
  return JSON.parse(match![1])
}

/** The session's content as the page's script inserts it (its markup) and runs it (its settings, through JSON). */
function content(overrides: Partial<HostedPageInput> = {}) {
  const rendered = renderHostedPageContent(input(overrides))
  return { html: rendered.html, title: rendered.title, config: JSON.parse(JSON.stringify(rendered.config)) }
}

const HOSTILE = `</script><script>alert(1)</script><img src=x onerror="alert('x')">&amp;\u2028`

describe("hosted page escaping", () => {
  it("escapes a hostile store name and session id in the content's markup and title; its settings decode to the exact values", () => {
    const { html, title, config } = content({ storeName: HOSTILE, sessionId: HOSTILE })
    expect(html).not.toContain("<script")
    expect(html).not.toContain("<img src=x")
    expect(html).toContain("&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=&quot;alert(&#39;x&#39;)&quot;&gt;&amp;amp;")
    // the title is set as text by the script (document.title), never parsed as markup
    expect(title).toContain(HOSTILE)
    expect(config.sessionId).toBe(HOSTILE)
  })

  it("the shell holds nothing of a session, and exactly the two script elements it owns, the executable one with the nonce", () => {
    const html = renderHostedPageShell({ locale: "tr", nonce: NONCE, contentUrl: `/sipay/checkout/x/content?a="></script><!--\u2028` })
    expect(html.match(/<script\b/g)).toHaveLength(2)
    expect(html.match(/<\/script>/g)).toHaveLength(2)
    expect(html).toContain(`<script nonce="${NONCE}">`)
    expect(html).not.toContain("<!--")
    expect(html.slice(html.indexOf('id="sipay-shell"'))).not.toContain("\u2028")
    expect(shellConfigOf(html).contentUrl).toBe(`/sipay/checkout/x/content?a="></script><!--\u2028`)
    expect(html).not.toMatch(/₺|1\.249,90|Örnek Mağaza|cc_holder_name" name=/)
  })

  it("keeps hostile URLs in the settings, decodable and inert", () => {
    const signUrl = `/sign?a="><script>alert(1)</script>&b='`
    const installmentsUrl = `/inst?x=</script><!--`
    const { html, config } = content({ signUrl, installmentsUrl })
    expect(config.signUrl).toBe(signUrl)
    expect(config.installmentsUrl).toBe(installmentsUrl)
    expect(html).not.toContain("<script")
  })

  it("escapes the cancel link and drops non-http ones", () => {
    const { html } = content({ cancelUrl: `https://shop.example/?a="onmouseover=alert(1) x='` })
    expect(html).toContain(`href="https://shop.example/?a=&quot;onmouseover=alert(1) x=&#39;"`)
    for (const cancelUrl of ["javascript:alert(1)", " JaVaScRiPt:alert(1)", "data:text/html,<b>", null, ""]) {
      expect(content({ cancelUrl }).html).not.toContain(`class="cancel"`)
    }
  })

  it("refuses a nonce that could break out of the attribute, and malformed amounts", () => {
    expect(() => renderHostedPageShell({ locale: "tr", nonce: `abc"><script>x`, contentUrl: "/c" })).toThrow(/nonce/)
    expect(() => renderHostedPageShell({ locale: "tr", nonce: "short", contentUrl: "/c" })).toThrow(/nonce/)
    expect(() => renderHostedPageContent(input({ amount: "12,50" }))).toThrow(/amount/)
    expect(() => renderHostedPageContent(input({ amount: "1e3" }))).toThrow(/amount/)
    expect(() => renderHostedPageContent(input({ currencyCode: "GBP" as "TRY" }))).toThrow(/currency/)
  })

  it("the embedded browser script cannot close its own element", () => {
    expect(HOSTED_PAGE_SCRIPT).not.toMatch(/<\/script/i)
    expect(HOSTED_PAGE_SCRIPT).not.toContain("<!--")
    expect(() => new Function(HOSTED_PAGE_SCRIPT)).not.toThrow()
  })
})

describe("hosted page content", () => {
  it("renders Turkish with the amount formatted for the locale", () => {
    expect(renderHostedPageShell({ locale: "tr", nonce: NONCE, contentUrl: "/c" })).toContain(`<html lang="tr">`)
    const { html } = content()
    expect(html).toContain("₺1.249,90")
    expect(html).toContain(`href="?lang=en"`)
    expect(html).toContain("Kart numarası")
    expect(html).toContain("Örnek Mağaza")
  })

  it("renders English, with exact decimals and no float rounding", () => {
    expect(renderHostedPageShell({ locale: "en", nonce: NONCE, contentUrl: "/c" })).toContain(`<html lang="en">`)
    const { html } = content({ locale: "en", currencyCode: "EUR", amount: "90071992547409.93" })
    expect(html).toContain("€90,071,992,547,409.93")
    expect(html).toContain(`href="?lang=tr"`)
    expect(html).toContain("Card number")
  })

  it("names the card inputs as the gateway does, with autocomplete tokens", () => {
    const { html } = content()
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

describe("paid page content", () => {
  it("says the session is paid, with no card input, and links back to the store's page of the order", () => {
    const { html, title } = renderPaidPageContent({ amount: "1249.90", currencyCode: "TRY", locale: "en", storeName: "<Shop>", next: { kind: "order", url: "https://shop.example/api/sipay/success?order_id=order_1&country_code=tr" } })
    expect(title).toBe("Payment received · <Shop>")
    expect(html).toContain(`<h1 id="paid">Payment received</h1>`)
    expect(html).toContain("&lt;Shop&gt;")
    expect(html).not.toMatch(/<input|<form/)
    expect(html).toContain(`<a id="paid-next" class="cancel" href="https://shop.example/api/sipay/success?order_id=order_1&amp;country_code=tr">Go to your order</a>`)
    const store = renderPaidPageContent({ amount: "1249.90", currencyCode: "TRY", locale: "tr", storeName: "Mağaza", next: { kind: "store", url: "https://shop.example" } })
    expect(store.html).toContain(`href="https://shop.example">Mağazaya dönün</a>`)
  })

  it("links nowhere but an http(s) address", () => {
    const { html } = renderPaidPageContent({ amount: "1", currencyCode: "TRY", locale: "tr", storeName: "S", next: { kind: "order", url: "javascript:alert(1)" } })
    expect(html).not.toContain("<a ")
    expect(renderPaidPageContent({ amount: "1", currencyCode: "TRY", locale: "tr", storeName: "S" }).html).not.toContain("<a ")
  })
})

describe("no id of the store's on the page", () => {
  it("the card page and the paid page show no payment session id (the script's settings carry it, unseen)", () => {
    const card = content({ sessionId: "payses_01SECRETID" })
    expect(card.html).not.toContain("payses_01SECRETID")
    expect(card.config.sessionId).toBe("payses_01SECRETID")
    expect(card.html).not.toMatch(/Ödeme referansı|Payment reference/)
  })
})
