import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { seedStoreWithAdmin } from "../harness/seed"
import { allOf, attack, AttackContext, Expectation, gatewayCallsAtMost, nothingChanged, reported, send, useSecurityStack } from "./attack"

jest.setTimeout(300 * 1000)

const { stack, gatewayCalls } = useSecurityStack()

const EVIL = "https://evil.example"

function istanbulDayAfter(days: number): string {
  return new Date(Date.now() + 3 * 3600_000 + days * 86400_000).toISOString().slice(0, 10)
}

// A 1x1 PNG: real image bytes, so the photo check passes.
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64")

/** A valid payment link form (what the admin's drawer posts as multipart/form-data). */
function linkForm(name: string): FormData {
  const form = new FormData()
  const fields = { amount: "99.90", currency_code: "TRY", is_amount_set_by_user: "false", name_of_product: name, description: "A link", expire_date: istanbulDayAfter(5) }
  for (const [key, value] of Object.entries(fields)) form.append(key, value)
  form.append("product_photo", new Blob([new Uint8Array(PNG)], { type: "image/png" }), "photo.png")
  return form
}

/** The admin's settings read back after the attack are those before it. */
function settingsUnchanged(): Expectation {
  return {
    text: "settings unchanged",
    check: (_before, _after, extra) =>
      JSON.stringify(extra.settingsBefore) === JSON.stringify(extra.settingsAfter) ? [] : [`settings changed: ${JSON.stringify(extra.settingsAfter).slice(0, 300)}`],
  }
}

/** Every request of the attack was answered with `status`. */
function everyAnswer(status: number): Expectation {
  return {
    text: `every request answered ${status}`,
    check: (_before, _after, extra) => {
      const answers = (extra.answers ?? {}) as Record<string, number>
      const wrong = Object.entries(answers).filter(([, answer]) => answer !== status)
      return !Object.keys(answers).length ? ["nothing was sent"] : wrong.map(([what, answer]) => `${what} answered ${answer}`)
    },
  }
}

medusaIntegrationTestRunner({
  testSuite: ({ api, getContainer }) => {
    let admin: { headers: Record<string, string> }
    let cookie: string
    const ctx = (): AttackContext => ({ file: __filename, stack, getContainer, gatewayCalls })

    beforeEach(async () => {
      ;({ admin } = await seedStoreWithAdmin(getContainer(), api))
      // The admin dashboard's session: a cookie, which a browser also sends with another site's form.
      // The app runs in production (attack.ts): its session cookie is Secure, set behind an HTTPS proxy.
      const session = await send(`${stack.backendUrl}/auth/session`, { method: "POST", headers: { ...admin.headers, "x-forwarded-proto": "https" } })
      cookie = String(session.headers.get("set-cookie") ?? "").split(";")[0]
      expect(cookie).toMatch(/=/)
    })

    const settings = async () => (await send(`${stack.backendUrl}/admin/sipay/settings`, { headers: admin.headers })).json.settings
    const saveSettings = (body: Record<string, unknown>, headers: Record<string, string> = admin.headers) =>
      send(`${stack.backendUrl}/admin/sipay/settings`, { headers, json: body })

    describe("admin URL settings", () => {
      it("an admin storefront URL with a user name (shop@evil.example) is refused", async () => {
        const storefront = new URL(stack.storefrontUrl)
        await attack(
          ctx(),
          { attack: "an admin storefront URL with a user name (shop@evil.example) is refused", point: "6", status: "closed" },
          allOf(everyAnswer(400), settingsUnchanged(), nothingChanged()),
          async () => {
            const settingsBefore = await settings()
            const answers: Record<string, number> = {}
            for (const url of [`http://${storefront.host}@evil.example`, "http://shop:secret@evil.example/", "https://shop.example@evil.example/tr"]) {
              answers[url] = (await saveSettings({ storefront_url: url })).status
            }
            return { answers, settingsBefore, settingsAfter: await settings() }
          }
        )
      })

      it("admin success and failure URLs on another origin are refused", async () => {
        const storefront = new URL(stack.storefrontUrl)
        await attack(
          ctx(),
          { attack: "admin success and failure URLs on another origin are refused", point: "6", status: "closed" },
          allOf(everyAnswer(400), settingsUnchanged(), nothingChanged()),
          async () => {
            const settingsBefore = await settings()
            const answers: Record<string, number> = {}
            for (const url of ["http://evil.example/{order_id}", "//evil.example/{order_id}", "/\\evil.example/{order_id}", `http://${storefront.host}@evil.example/{order_id}`]) {
              answers[`success_url ${url}`] = (await saveSettings({ success_url: url })).status
              answers[`failure_url ${url}`] = (await saveSettings({ failure_url: url.replace("{order_id}", "{error}") })).status
            }
            return { answers, settingsBefore, settingsAfter: await settings() }
          }
        )
      })
    })

    describe("webhook keys", () => {
      it("webhook keys with control characters (CR, LF, tab, NUL, DEL, line separators) are refused", async () => {
        await attack(
          ctx(),
          { attack: "webhook keys with control characters (CR, LF, tab, NUL, DEL, line separators) are refused", point: "N11", status: "closed" },
          allOf(everyAnswer(400), settingsUnchanged(), nothingChanged()),
          async () => {
            const settingsBefore = await settings()
            const answers: Record<string, number> = {}
            for (const key of ["x\r\nInjected: 1", "medusa-sale\n", "medusa\tsale", "medusa\u0000sale", "medusa\u007fsale", "medusa\u0085sale", "medusa\u2028sale"]) {
              const shown = key.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)
              answers[`sale_webhook_key "${shown}"`] = (await saveSettings({ sale_webhook_key: key })).status
              answers[`recurring_webhook_key "${shown}"`] = (await saveSettings({ recurring_webhook_key: key })).status
            }
            return { answers, settingsBefore, settingsAfter: await settings() }
          }
        )
      })
    })

    describe("cross-site requests to admin routes", () => {
      it("a cross-site navigation with the admin's session cookie makes no gateway call: the gateway look-up is a POST", async () => {
        const day = istanbulDayAfter(-1)
        await attack(
          ctx(),
          { attack: "a cross-site navigation with the admin's session cookie makes no gateway call: the gateway look-up is a POST", point: "N12", status: "closed" },
          allOf(
            gatewayCallsAtMost("getTransactions", 1),
            reported("the GET asks no gateway; the cross-site POST is refused; the admin's own POST looks up once", { crossSiteGetCalls: 0, crossSitePost: 403, adminPost: 200, adminPostSource: "gateway" })
          ),
          async () => {
            const calls = () => gatewayCalls.counts.getTransactions ?? 0
            const before = calls()
            await send(`${stack.backendUrl}/admin/sipay/transactions?date=${day}&source=gateway`, {
              headers: { cookie, origin: EVIL, "sec-fetch-site": "cross-site", "sec-fetch-mode": "navigate" },
            })
            const crossSiteGetCalls = calls() - before
            const crossSitePost = await send(`${stack.backendUrl}/admin/sipay/transactions/lookup`, {
              headers: { cookie, origin: EVIL, "sec-fetch-site": "cross-site" },
              body: new URLSearchParams({ date: day }),
            })
            const adminPost = await send(`${stack.backendUrl}/admin/sipay/transactions/lookup`, { headers: admin.headers, json: { date: day } })
            return { crossSiteGetCalls, crossSitePost: crossSitePost.status, adminPost: adminPost.status, adminPostSource: adminPost.json?.source }
          }
        )
      })


      it("a cross-site form post with the admin's session cookie cannot create a payment link", async () => {
        await attack(
          ctx(),
          { attack: "a cross-site form post with the admin's session cookie cannot create a payment link", point: "6", status: "closed" },
          allOf(reported("answered 403 cross_site_request", { status: 403, code: "cross_site_request" }), gatewayCallsAtMost("dpl/create", 0), reported("no link was stored", { links: 0 })),
          async () => {
            const response = await fetch(`${stack.backendUrl}/admin/sipay/payment-links`, {
              method: "POST",
              headers: { cookie, origin: EVIL, "sec-fetch-site": "cross-site" },
              body: linkForm("CSRF link"),
            })
            const body = await response.json().catch(() => ({}))
            const links = await (getContainer().resolve("sipay") as any).listPaymentLinks({}, { take: null })
            return { status: response.status, code: (body as any).code, links: links.length }
          }
        )
      })

      it("a cross-site post with the admin's session cookie cannot change the settings", async () => {
        await attack(
          ctx(),
          { attack: "a cross-site post with the admin's session cookie cannot change the settings", point: "6", status: "closed" },
          allOf(reported("answered 403 cross_site_request", { status: 403, code: "cross_site_request" }), settingsUnchanged()),
          async () => {
            const settingsBefore = await settings()
            const answer = await saveSettings({ capture: !settingsBefore.capture }, { cookie, origin: EVIL })
            return { status: answer.status, code: answer.json?.code, settingsBefore, settingsAfter: await settings() }
          }
        )
      })

      it("the admin API with a bearer token and no Origin, or from the backend's own origin, still changes settings", async () => {
        const before = await settings()
        expect((await saveSettings({ capture: !before.capture })).status).toBe(200)
        expect((await settings()).capture).toBe(!before.capture)
        expect((await saveSettings({ capture: before.capture }, { cookie, origin: stack.backendUrl, "sec-fetch-site": "same-origin" })).status).toBe(200)
        expect((await settings()).capture).toBe(before.capture)
      })
    })

    describe("payment link e-mails", () => {
      it("payment link e-mail addresses cannot inject headers or recipients", async () => {
        const created = await fetch(`${stack.backendUrl}/admin/sipay/payment-links`, { method: "POST", headers: admin.headers, body: linkForm("Mail test") })
        expect(created.status).toBe(201)
        const link = ((await created.json()) as any).payment_link
        await attack(
          ctx(),
          { attack: "payment link e-mail addresses cannot inject headers or recipients", point: "6", status: "closed" },
          allOf(everyAnswer(400), gatewayCallsAtMost("dpl/sendemail", 0), reported("no mail left the gateway", { mails: 0 })),
          async () => {
            const outboxBefore = (await (await fetch(`${stack.sandbox.link_base}/__sandbox/outbox`)).json()).length
            const answers: Record<string, number> = {}
            for (const email of ["ayse@example.com\r\nBcc: list@evil.example", "ayse@example.com\nSubject: urgent", "ayse@example.com, list@evil.example", "ayse@example.com;list@evil.example", "Ayşe <list@evil.example>"]) {
              answers[JSON.stringify(email)] = (await send(`${stack.backendUrl}/admin/sipay/payment-links/${link.id}/send`, { headers: admin.headers, json: { emails: [email] } })).status
            }
            const outboxAfter = (await (await fetch(`${stack.sandbox.link_base}/__sandbox/outbox`)).json()).length
            return { answers, mails: outboxAfter - outboxBefore }
          }
        )
      })
    })
  },
})
