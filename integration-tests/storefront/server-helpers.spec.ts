import { join, resolve } from "node:path"
import { build } from "esbuild"
import { binOf, cardBrandName, formatMoney, installmentAmount, PAYMENT_METHOD_TITLES, readPaymentReturn, sipayMethodTitle } from "../../packages/storefront/src"
import { installmentLabel } from "../../packages/storefront/src/react/installments"
import { MESSAGES } from "../../packages/storefront/src/react/messages"
import { normalizeIp, shopperAddress, shopperHeaders, signClientAddress, sipayLandingResponse, sipaySuccessResponse } from "../../packages/storefront/src/server"
import { clientAddressOf, parseTrustedProxies } from "../../src/lib/limiter"

const ROOT = resolve(__dirname, "..", "..")

describe("storefront kit: server helpers", () => {
  it("sign the shopper's address the way the plugin verifies it (this session only, this secret only)", async () => {
    const headers = await signClientAddress({ secret: "s3cret", ip: "::ffff:203.0.113.7", sessionId: "payses_1" })
    const request = (sessionId: string, secret: string) =>
      clientAddressOf(
        { socketAddress: "127.0.0.1", forwardedFor: undefined, signedIp: headers["x-sipay-client-ip"], signedIpSignature: headers["x-sipay-client-ip-signature"], sessionId },
        { trustedProxies: parseTrustedProxies([]), storefrontSecret: secret }
      )
    expect(headers["x-sipay-client-ip"]).toBe("203.0.113.7")
    expect(request("payses_1", "s3cret")).toBe("203.0.113.7")
    expect(request("payses_2", "s3cret")).toBe("127.0.0.1")
    expect(request("payses_1", "other")).toBe("127.0.0.1")
    await expect(signClientAddress({ secret: "s3cret", ip: "not-an-ip" })).rejects.toThrow(/IPv4 or IPv6/)
  })

  it("read the shopper's address the way the hosting says it arrives, never one the browser wrote", () => {
    // Behind one proxy that appends: the right-most entry; the left ones are the browser's.
    expect(shopperAddress({ "x-forwarded-for": "6.6.6.6, 203.0.113.7" }, { proxies: 1 })).toBe("203.0.113.7")
    expect(shopperAddress({ "x-forwarded-for": "6.6.6.6, 203.0.113.7, 10.0.0.2" }, { proxies: 2 })).toBe("203.0.113.7")
    // Fewer entries than proxies: the request did not come the way the hosting says; nothing is believed.
    expect(shopperAddress({ "x-forwarded-for": "203.0.113.7" }, { proxies: 2 })).toBeNull()
    expect(shopperAddress({ "x-forwarded-for": "garbage" }, { proxies: 1 })).toBeNull()
    // A platform header, in the plugin's spelling; a list in it is not the platform's alone.
    expect(shopperAddress(new Headers({ "x-real-ip": "2001:0DB8::0001" }), { header: "x-real-ip" })).toBe("2001:db8::1")
    expect(shopperAddress({ "x-real-ip": "6.6.6.6, 203.0.113.7" }, { header: "x-real-ip" })).toBeNull()
    // A bare `next start`: Next.js keeps the browser's own X-Forwarded-For, so nothing is sent.
    expect(shopperAddress({ "x-forwarded-for": "203.0.113.7", "x-real-ip": "203.0.113.7" }, { proxies: 0 })).toBeNull()
    expect(() => shopperAddress({ "x-forwarded-for": "203.0.113.7" }, {} as never)).toThrow(/how the shopper's address reaches this server/)
    expect(normalizeIp("[::1]:8080")).toBe("::1")
    expect(normalizeIp("10.0.0.1:443")).toBe("10.0.0.1")
    expect(normalizeIp("::ffff:c633:6407")).toBe("198.51.100.7")
  })

  it("sign nothing with proxies: 0, and keep the headers every request carries", async () => {
    const nothing = shopperHeaders({ secret: "s3cret", headers: { "x-forwarded-for": "203.0.113.7" }, proxies: 0, also: { authorization: "Bearer customer" } })
    expect(await nothing("payses_1")).toEqual({ authorization: "Bearer customer" })
    const signed = await shopperHeaders({ secret: "s3cret", headers: { "x-forwarded-for": "203.0.113.7" }, proxies: 1, also: { authorization: "Bearer customer" } })("payses_1")
    expect(signed).toMatchObject({ authorization: "Bearer customer", "x-sipay-client-ip": "203.0.113.7", "x-sipay-client-ip-signature": expect.stringMatching(/^t=\d+,v1=[0-9a-f]{64}$/) })
  })

  it("tell a refusal by its code in the kit's language, whatever language the plugin answered in", async () => {
    const { codeOfMessage, shopperRefusal, SHOPPER_MESSAGES } = await import("../../packages/storefront/src")
    expect(codeOfMessage(SHOPPER_MESSAGES.address_limit.en)).toBe("address_limit")
    expect(codeOfMessage(SHOPPER_MESSAGES.card_declined.tr)).toBe("card_declined")
    expect(codeOfMessage("Insufficient funds")).toBeNull()
    const refused = Object.assign(new Error(SHOPPER_MESSAGES.decline_budget.en), { status: 429 })
    expect(shopperRefusal(refused, "tr")).toEqual({ status: 429, code: "decline_budget", message: SHOPPER_MESSAGES.decline_budget.tr })
    // An answer that is not one of the plugin's texts is never shown as it is (a gateway's reason would be an oracle).
    expect(shopperRefusal(Object.assign(new Error("Insufficient funds"), { status: 402 }), "en")).toEqual({ status: 402, code: null, message: SHOPPER_MESSAGES.card_declined.en })
  })

  it("the success route drops the cart cookie only for a completed cart and goes on to the starter's confirmation page", async () => {
    const request = (query: string, cookie = "_medusa_cart_id=cart_01ABC; other=1") => new Request(`http://shop/api/sipay/success?${query}`, { headers: { cookie } })
    const completed = await sipaySuccessResponse(request("order_id=order_01XYZ&country_code=tr"), { isCartCompleted: async (id) => id === "cart_01ABC" })
    expect(completed.status).toBe(303)
    expect(completed.headers.get("location")).toBe("/tr/order/order_01XYZ/confirmed")
    expect(completed.headers.getSetCookie()).toEqual(["_medusa_cart_id=; Path=/; Max-Age=0; SameSite=Lax"])

    const open = await sipaySuccessResponse(request("order_id=order_01XYZ&country_code=tr"), { isCartCompleted: async () => false })
    expect(open.headers.getSetCookie()).toEqual([])
    const forged = await sipaySuccessResponse(request("order_id=https://evil.example&country_code=x/y"))
    expect(forged.headers.get("location")).toBe("/")
    expect(forged.headers.getSetCookie()).toEqual([])
  })

  it("the landing route navigates only within the storefront, keeping the other parameters", async () => {
    const page = async (query: string) => (await sipayLandingResponse(new Request(`http://shop/api/sipay/land?${query}`)).text())
    expect(await page("to=/tr/checkout&step=payment&error=Yetersiz%20bakiye")).toContain('content="0;url=/tr/checkout?step=payment&#38;error=Yetersiz+bakiye"')
    expect(await page("to=//evil.example/x")).toContain('content="0;url=/"')
    expect(await page("to=https://evil.example")).toContain('content="0;url=/"')
    expect(await page('to=/x"><script>')).not.toContain("<script>")
  })

  it("read the failure from the address, and only a BIN from a card number", () => {
    expect(readPaymentReturn("?step=payment&error=The%20card%20payment%20did%20not%20go%20through.")).toEqual({ error: "The card payment did not go through." })
    expect(readPaymentReturn({ step: "payment" })).toEqual({ error: null })
    expect(binOf("4508 0345 0803 4509")).toBe("450803")
    expect(binOf("4508")).toBeNull()
  })

  it("money in the shopper's format, one Intl.NumberFormat(locale, { style: \"currency\", currency }) for the kit and the storefront (Intl's own no-break spaces)", () => {
    expect(formatMoney(325.4, "try", "tr")).toBe("₺325,40")
    expect(formatMoney("1299.90", "TRY", "tr")).toBe("₺1.299,90")
    expect(formatMoney(325.4, "TRY", "en")).toBe("TRY\u00a0325.40")
    expect(formatMoney(325.4, "EUR", "de-DE")).toBe("325,40\u00a0€")
    expect(formatMoney(10, "TRY")).toBe("₺10,00")
  })

  it("an installment row says what each installment is and the total", () => {
    const row = (installments_number: number, amount_to_be_paid: string | null, lang: "tr" | "en" = "tr") =>
      installmentLabel({ installments_number, amount_to_be_paid, label: null, card_program: null }, MESSAGES[lang], "TRY", lang)
    expect(row(3, "199.80")).toBe("3 taksit · 3 × ₺66,60 · toplam ₺199,80")
    expect(row(1, "199.80")).toBe("Tek çekim · ₺199,80")
    // A count the merchant charges a commission on: its own total.
    expect(row(6, "1319.90", "en")).toBe("6 installments · 6 × TRY\u00a0219.98 · total TRY\u00a01,319.90")
    expect(row(2, null)).toBe("2 taksit")
    expect(installmentAmount("100.00", 3)).toBe(33.33)
  })

  it("the card's brand in words from the gateway's scheme for its BIN, and two payment methods that do not read alike", () => {
    expect([cardBrandName("VISA"), cardBrandName("MASTERCARD"), cardBrandName("TROY"), cardBrandName("AMEX"), cardBrandName("DISCOVER"), cardBrandName(null), cardBrandName("")]).toEqual([
      "Visa",
      "Mastercard",
      "Troy",
      "American Express",
      "Discover",
      null,
      null,
    ])
    expect(sipayMethodTitle("pp_sipay_sipay", "tr")).toBe(PAYMENT_METHOD_TITLES["3d"].tr)
    expect(sipayMethodTitle("pp_sipay-2d_sipay", "en")).toBe(PAYMENT_METHOD_TITLES.direct.en)
    expect(sipayMethodTitle("pp_stripe_stripe")).toBeNull()
    for (const lang of ["tr", "en"] as const) {
      const [threeD, direct] = [PAYMENT_METHOD_TITLES["3d"][lang], PAYMENT_METHOD_TITLES.direct[lang]]
      // Neither title is the other with something added: each says how it differs.
      expect(threeD.startsWith(direct)).toBe(false)
      expect(direct.startsWith(threeD)).toBe(false)
      expect(threeD).toMatch(/3D Secure/)
    }
  })

  it("the components render under React 18 (the plugin's own) and React 19 (the storefront package's), labelled, in both languages", async () => {
    const rendered: Record<string, any> = {}
    for (const [name, dir] of [["18", ROOT], ["19", join(ROOT, "packages", "storefront")]] as const) {
      const result = await build({
        entryPoints: [join(__dirname, "page", "render-all.tsx")],
        bundle: true,
        write: false,
        format: "cjs",
        platform: "node",
        jsx: "automatic",
        define: { "process.env.NODE_ENV": '"production"' },
        alias: { react: join(dir, "node_modules", "react"), "react-dom": join(dir, "node_modules", "react-dom") },
        logLevel: "silent",
      })
      const module = { exports: {} as any }
      new Function("module", "exports", "require", result.outputFiles[0].text)(module, module.exports, require)
      rendered[name] = { tr: module.exports.renderAll("tr"), en: module.exports.renderAll("en") }
    }
    expect(rendered["18"].tr.version).toMatch(/^18\./)
    expect(rendered["19"].tr.version).toMatch(/^19\./)
    for (const version of ["18", "19"]) {
      const { tr, en } = rendered[version]
      expect(tr.hosted).toContain("Güvenli ödeme sayfasında öde")
      expect(en.hosted).toContain("Pay on the secure payment page")
      // The forms' pay button names the amount in the page's money format.
      expect(tr.direct).toContain("₺325,40 öde")
      expect(en.threeD).toContain("Pay TRY\u00a0325.40")
      for (const form of [tr.threeD, tr.direct]) {
        for (const name of ["cc_holder_name", "cc_no", "expiry_month", "expiry_year", "cvv"]) expect(form).toContain(`name="${name}"`)
        expect(form).toMatch(/autocomplete="cc-number"/i)
        expect(form).toContain("Taksit seçenekleri")
        // Every input has its label.
        const ids = [...form.matchAll(/<input[^>]*\sid="([^"]+)"/g)].map((match: RegExpMatchArray) => match[1])
        for (const id of ids) expect(form).toContain(`for="${id}"`)
      }
      expect(en.direct).toContain("Card number")
      // A recurring cart's form shows its charge plan and offers no installments (issue 27).
      expect(tr.threeDRecurring).toContain("12 x ₺900,00, her ay")
      expect(en.threeDRecurring).toContain("12 x TRY\u00a0900.00, every month")
      expect(tr.threeDRecurring).not.toContain("Taksit seçenekleri")
      expect(tr.threeDRecurring).not.toContain('type="radio"')
      expect(tr.error).toContain('role="alert"')
      expect(tr.error).toContain("Yetersiz bakiye")
      expect(tr.noError).toBe("")
      // The status component: a shopper back from the gateway is told the payment is being checked; a plain visit shows nothing.
      expect(tr.statusBack).toContain('role="status"')
      expect(tr.statusBack).toContain("Ödemenizin durumu kontrol ediliyor…")
      expect(en.statusBack).toContain("Checking your payment…")
      expect(tr.statusPlain).toBe("")
    }
  })
})

describe("storefront kit: the product page's installment table", () => {
  it("shows each card family's counts as 'n x per-installment = total (+fee)', in Turkish and English", () => {
    const { renderToStaticMarkup } = require("../../packages/storefront/node_modules/react-dom/server")
    const { createElement } = require("../../packages/storefront/node_modules/react")
    const { SipayInstallmentTable } = require("../../packages/storefront/src/react/installment-table")
    const table = {
      amount: "325.40",
      currency_code: "TRY",
      table: [
        { card_program: "BONUS", title: "Bonus", options: [
          { installments: 1, fee: "0.00", total: "325.40", per_installment: "325.40" },
          { installments: 3, fee: "10.00", total: "335.40", per_installment: "111.80" },
          { installments: 6, fee: "0.00", total: "325.40", per_installment: "54.23" },
        ] },
        { card_program: "WORLD", title: "World", options: [] },
      ],
    }
    const tr = renderToStaticMarkup(createElement(SipayInstallmentTable, { table, lang: "tr" })).replace(/\u00a0/g, " ")
    expect(tr).toContain("3 taksit: 3 x ₺111,80 = ₺335,40 (+₺10,00 vade farkı)")
    expect(tr).toContain("6 taksit: 6 x ₺54,23 = ₺325,40</dd>")
    expect(tr).toContain("Tek çekim: ₺325,40")
    expect(tr).not.toContain("World")
    const en = renderToStaticMarkup(createElement(SipayInstallmentTable, { table, lang: "en" })).replace(/\u00a0/g, " ")
    expect(en).toContain("3 installments: 3 x TRY 111.80 = TRY 335.40 (+TRY 10.00 installment fee)")
    expect(renderToStaticMarkup(createElement(SipayInstallmentTable, { table: { ...table, table: [] } }))).toBe("")
  })
})
