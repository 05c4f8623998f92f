import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { seedStoreWithAdmin, SeededStore } from "../harness/seed"
import { clearSandboxFaults, useSipayStack } from "../harness/stack"
import { createCart, issueThreeDForm, PAYING_CARD, payAtGateway, startPaymentSession } from "../harness/shopper"

jest.setTimeout(300 * 1000)

// One boot: payment links (create, list, get, send, refresh) and the settings, against the sandbox gateway.
const stack = useSipayStack()

// A 1x1 PNG and a GIF header: real image bytes, so the content check passes.
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64"
)
const GIF = Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64")

function istanbulDayAfter(days: number): string {
  return new Date(Date.now() + 3 * 3600_000 + days * 86400_000).toISOString().slice(0, 10)
}

type LinkFields = Record<string, string>

function linkForm(fields: LinkFields, photo: { data: Buffer; type: string; name: string } | null = { data: PNG, type: "image/png", name: "mug.png" }) {
  const form = new FormData()
  for (const [name, value] of Object.entries(fields)) {
    form.append(name, value)
  }
  if (photo) {
    form.append("product_photo", new Blob([new Uint8Array(photo.data)], { type: photo.type }), photo.name)
  }
  return form
}

const MUG: LinkFields = {
  amount: "250.50",
  currency_code: "TRY",
  is_amount_set_by_user: "false",
  name_of_product: "Ceramic mug",
  description: "Hand-made in Kütahya",
  expire_date: istanbulDayAfter(10),
  expire_hour: "15",
  max_number_of_uses: "2",
}

medusaIntegrationTestRunner({
  testSuite: ({ api, getContainer }) => {
    let admin: { headers: Record<string, string> }
    let store: SeededStore

    beforeEach(async () => {
      ;({ store, admin } = await seedStoreWithAdmin(getContainer(), api))
    })
    afterEach(() => clearSandboxFaults(stack))

    const baseUrl = () => String(api.defaults.baseURL).replace(/\/+$/, "")
    const sipay = () => getContainer().resolve("sipay") as any

    async function fault(operation: string, kind: string, times = 1) {
      const response = await fetch(`${stack.sandbox.link_base}/__sandbox/faults`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ operation, kind, times }),
      })
      expect(response.status).toBeLessThan(300)
    }

    async function outbox(dplId: number): Promise<{ to: string; link: string; dpl_id: number }[]> {
      const all = await (await fetch(`${stack.sandbox.link_base}/__sandbox/outbox`)).json()
      return all.filter((mail: { dpl_id: number }) => mail.dpl_id === dplId)
    }

    async function createLink(form: FormData) {
      const response = await fetch(`${baseUrl()}/admin/sipay/payment-links`, { method: "POST", headers: admin.headers, body: form })
      return { status: response.status, body: (await response.json()) as any }
    }

    const get = (path: string) => api.get(path, admin).catch((error: any) => error.response)
    const post = (path: string, body: unknown) => api.post(path, body, admin).catch((error: any) => error.response)

    describe("payment links", () => {
      it("creates a link with a photo: kept as the gateway returned it, with its payer address", async () => {
        const { status, body } = await createLink(linkForm(MUG))
        expect(status).toBe(201)
        const link = body.payment_link
        expect(link).toMatchObject({
          amount: "250.50",
          currency: 1,
          currency_code: "TRY",
          type: 2,
          name_of_product: "Ceramic mug",
          description: "Hand-made in Kütahya",
          max_number_of_uses: 2,
          number_of_uses: 0,
          status: "ACTIVE",
          is_email_send: 0,
          is_amount_set_by_user: false,
          expire_date: `${MUG.expire_date} 15:00:00`,
          photo_filename: "mug.png",
          photo_content_type: "image/png",
          photo_size: PNG.length,
          synced_from: "create",
          emails: [],
          emailed: { count: 0, recipients: [], last_sent_at: null },
        })
        expect(link.dpl_id).toBeGreaterThan(0)
        expect(link.link).toBe(`${stack.sandbox.link_base}/dplLink/${link.token}`)
        expect(link.inputs).toMatchObject({ amount: "250.50", currency: "1", payment_link_type: "2", is_amount_set_by_user: "0" })
        expect(link.gateway_created_at).toMatch(/Z$/)

        const payerPage = await fetch(link.link)
        expect(payerPage.status).toBe(200)
        expect(await payerPage.text()).toContain("Ceramic mug")

        const fetched = await get(`/admin/sipay/payment-links/${link.id}`)
        expect(fetched.status).toBe(200)
        expect(fetched.data.payment_link).toMatchObject({ id: link.id, dpl_id: link.dpl_id, token: link.token })
      })

      it("refuses a link that breaks the interface's rules, naming each rule, before anything reaches the gateway", async () => {
        const before = (await get("/admin/sipay/payment-links")).data.count
        const bad = await createLink(
          linkForm({ ...MUG, amount: "12.345", currency_code: "GBP", name_of_product: " ", expire_date: "2025-02-30", expire_hour: "24", max_number_of_uses: "0" }, null)
        )
        expect(bad.status).toBe(400)
        for (const text of [
          "Amount must be a positive number with at most 2 decimals",
          "Currency must be TRY, USD or EUR",
          "Product name is required",
          "Expiry hour must be a whole hour from 0 to 23",
          "Expiry date must be an existing date",
          "Maximum number of uses must be a whole number of at least 1",
          "A product photo is required",
        ]) {
          expect(bad.body.message).toContain(text)
        }

        const past = await createLink(linkForm({ ...MUG, expire_date: istanbulDayAfter(-1) }))
        expect(past.status).toBe(400)
        expect(past.body.message).toContain("Expiry must be in the future")

        const big = Buffer.concat([PNG, Buffer.alloc(2 * 1024 * 1024 + 10)])
        const tooBig = await createLink(linkForm(MUG, { data: big, type: "image/png", name: "huge.png" }))
        expect(tooBig.status).toBe(400)
        expect(tooBig.body.message).toContain("at most 2.0 MB")

        const pdf = await createLink(linkForm(MUG, { data: Buffer.from("%PDF-1.4 not an image"), type: "application/pdf", name: "mug.pdf" }))
        expect(pdf.status).toBe(400)
        expect(pdf.body.message).toContain("must be a JPEG, PNG, WebP or GIF image (got application/pdf)")

        const disguised = await createLink(linkForm(MUG, { data: GIF, type: "image/png", name: "mug.png" }))
        expect(disguised.status).toBe(400)
        expect(disguised.body.message).toContain("declared as image/png but its content is image/gif")

        const unknownField = await createLink(linkForm({ ...MUG, payment_link_type: "1" }))
        expect(unknownField.status).toBe(400)
        expect(unknownField.body.message).toMatch(/payment_link_type/)

        const gif = await createLink(linkForm({ ...MUG, max_number_of_uses: "" }, { data: GIF, type: "image/gif", name: "mug.gif" }))
        expect(gif.status).toBe(201)
        expect(gif.body.payment_link.max_number_of_uses).toBe(0)

        expect((await get("/admin/sipay/payment-links")).data.count).toBe(before + 1)
      })

      it("passes the gateway's own errors through with its code, and records nothing", async () => {
        await fault("dpl", "http_500")
        const failed = await createLink(linkForm(MUG))
        expect(failed.status).toBe(400)
        expect(failed.body.message).toMatch(/^Sipay dpl\/create failed \[500\]: /)
        expect((await get("/admin/sipay/payment-links")).data.count).toBe(0)
      })

      it("lists with paging and search", async () => {
        for (const name of ["Blue vase", "Red vase", "Olive oil"]) {
          expect((await createLink(linkForm({ ...MUG, name_of_product: name }))).status).toBe(201)
        }
        const page1 = await get("/admin/sipay/payment-links?limit=2&offset=0")
        expect(page1.status).toBe(200)
        expect(page1.data).toMatchObject({ count: 3, limit: 2, offset: 0 })
        expect(page1.data.payment_links.map((link: any) => link.name_of_product)).toEqual(["Olive oil", "Red vase"])
        const page2 = await get("/admin/sipay/payment-links?limit=2&offset=2")
        expect(page2.data.payment_links.map((link: any) => link.name_of_product)).toEqual(["Blue vase"])

        const vases = await get("/admin/sipay/payment-links?q=vase")
        expect(vases.data.count).toBe(2)
        expect(vases.data.payment_links.every((link: any) => /vase/.test(link.name_of_product))).toBe(true)

        const badPaging = await get("/admin/sipay/payment-links?limit=1000")
        expect(badPaging.status).toBe(400)
        const missing = await get("/admin/sipay/payment-links/spl_missing")
        expect(missing.status).toBe(404)
      })

      it("e-mails a link to several addresses through the gateway: they reach the sandbox's outbox and the send is recorded", async () => {
        const link = (await createLink(linkForm(MUG))).body.payment_link
        const sent = await post(`/admin/sipay/payment-links/${link.id}/send`, { emails: ["ayse@example.com", " Mehmet@Example.com ", "ayse@example.com"] })
        expect(sent.status).toBe(200)
        expect(sent.data.send).toMatchObject({ outcome: "sent", recipients: ["ayse@example.com", "mehmet@example.com"] })
        expect(sent.data.payment_link).toMatchObject({
          is_email_send: 1,
          synced_from: "sendemail",
          link: `${stack.sandbox.link_base}/dplLink/${link.token}`,
          emailed: { count: 1, recipients: ["ayse@example.com", "mehmet@example.com"] },
        })
        const mails = await outbox(link.dpl_id)
        expect(mails.map((mail) => mail.to).sort()).toEqual(["ayse@example.com", "mehmet@example.com"])
        expect(mails.every((mail) => mail.link === link.link)).toBe(true)

        const invalid = await post(`/admin/sipay/payment-links/${link.id}/send`, { emails: ["ayse@example.com", "not-an-address"] })
        expect(invalid.status).toBe(400)
        expect(invalid.data.message).toContain('"not-an-address" is not an e-mail address')
        const empty = await post(`/admin/sipay/payment-links/${link.id}/send`, { emails: [] })
        expect(empty.status).toBe(400)
        expect(empty.data.message).toMatch(/emails/)
        const unknown = await post(`/admin/sipay/payment-links/spl_missing/send`, { emails: ["ayse@example.com"] })
        expect(unknown.status).toBe(404)
        expect(await outbox(link.dpl_id)).toHaveLength(2)
      })

      it("a send the gateway refuses answers 400 with the gateway's code and stays in the link's history as failed", async () => {
        const link = (await createLink(linkForm(MUG))).body.payment_link
        await fault("dpl", "http_502")
        const down = await post(`/admin/sipay/payment-links/${link.id}/send`, { emails: ["ayse@example.com"] })
        expect(down.status).toBe(400)
        expect(down.data.message).toMatch(/^Sipay dpl\/sendemail failed: HTTP 502 from the gateway: it is not known whether the link was e-mailed/)

        // A link this store knows whose id the gateway does not: the gateway's code 31.
        await sipay().updatePaymentLinks({ id: link.id, dpl_id: 999999 })
        const unknown = await post(`/admin/sipay/payment-links/${link.id}/send`, { emails: ["ayse@example.com"] })
        expect(unknown.status).toBe(400)
        expect(unknown.data.message).toMatch(/^Sipay dpl\/sendemail failed \[31\]: /)

        const stored = (await get(`/admin/sipay/payment-links/${link.id}`)).data.payment_link
        expect(stored.emails).toHaveLength(2)
        expect(stored.emails.map((send: any) => send.outcome)).toEqual(["failed", "failed"])
        expect(stored.emails[0].error_code).toBe("31")
        expect(stored.emails[1].error_message).toMatch(/HTTP 502/)
        expect(stored.emails[0].error_message).toBeTruthy()
        expect(stored.emailed.count).toBe(0)
        expect(await outbox(999999)).toHaveLength(0)
      })

      it("refresh counts the link's paid sales from the gateway: uses go up after a payer pays, USED at the maximum", async () => {
        const link = (await createLink(linkForm({ ...MUG, max_number_of_uses: "2" }))).body.payment_link
        const paid = await payAtGateway({ action: link.link, fields: {} }, PAYING_CARD)
        expect(paid.action).toBe(`${link.link}/result`)
        const once = await get(`/admin/sipay/payment-links/${link.id}?refresh=true`)
        expect(once.status).toBe(200)
        expect(once.data.payment_link).toMatchObject({ number_of_uses: 1, status: "ACTIVE", synced_from: "transactions" })

        const stale = await get(`/admin/sipay/payment-links/${link.id}`)
        expect(stale.data.payment_link.number_of_uses).toBe(1)

        await payAtGateway({ action: link.link, fields: {} }, PAYING_CARD)
        const twice = await get(`/admin/sipay/payment-links/${link.id}?refresh=true`)
        expect(twice.data.payment_link).toMatchObject({ number_of_uses: 2, status: "USED" })
        expect((await fetch(link.link)).status).toBe(410)

        await fault("getTransactions", "http_500")
        const failed = await get(`/admin/sipay/payment-links/${link.id}?refresh=true`)
        expect(failed.status).toBe(400)
        expect(failed.data.message).toMatch(/^Sipay getTransactions failed \[500\]: /)
        expect((await get(`/admin/sipay/payment-links/${link.id}`)).data.payment_link.number_of_uses).toBe(2)
      })
    })

    describe("settings", () => {
      it("shows the effective settings, the option defaults and the credentials masked, never the secret", async () => {
        const response = await get("/admin/sipay/settings")
        expect(response.status).toBe(200)
        expect(response.data.settings).toMatchObject({ capture: true, three_d_enabled: true, direct_payment_enabled: true, max_installments: 12, sale_webhook_key: "medusa-sale" })
        expect(response.data.defaults).toEqual(response.data.settings)
        expect(Object.values(response.data.stored).every((value) => value === null)).toBe(true)
        const { credentials } = response.data
        expect(credentials).toMatchObject({
          base_url: stack.sandbox.base_url,
          panel_base_url: stack.sandbox.panel_url,
          link_base_url: stack.sandbox.link_base,
          merchant_id: String(stack.sandbox.merchant.merchant_id),
          app_secret_configured: true,
        })
        expect(credentials.app_id).toMatch(/^sand•+tion$/)
        expect(credentials.merchant_key).not.toBe(stack.sandbox.merchant.merchant_key)
        const text = JSON.stringify(response.data)
        expect(text).not.toContain(stack.sandbox.merchant.app_secret)
        expect(text).not.toContain(stack.sandbox.merchant.merchant_key)
        expect(text).not.toContain(stack.sandbox.merchant.app_id)
      })

      it("validates a change, naming the field", async () => {
        const cases: [Record<string, unknown>, RegExp][] = [
          [{ max_installments: 13 }, /max_installments/],
          [{ storefront_url: "ftp://shop" }, /storefront_url/],
          [{ success_url: "order/{order_id}" }, /success_url/],
          [{ capture: "no" }, /capture/],
          [{ app_secret: "x" }, /app_secret/],
          [{ description_template: "" }, /description_template/],
          [{ three_d_enabled: false, direct_payment_enabled: false }, /At least one payment flow must stay on/],
        ]
        for (const [body, message] of cases) {
          const response = await post("/admin/sipay/settings", body)
          expect(response.status).toBe(400)
          expect(response.data.message).toMatch(message)
        }
        expect(Object.values((await get("/admin/sipay/settings")).data.stored).every((value) => value === null)).toBe(true)
      })

      it("a saved setting is used by the next checkout without a restart: capture off makes the next 3D form a PreAuth", async () => {
        const saved = await post("/admin/sipay/settings", { capture: false, max_installments: 6, description_template: "Sipariş {cart_id}", sale_webhook_key: "" })
        expect(saved.status).toBe(200)
        expect(saved.data.settings).toMatchObject({ capture: false, max_installments: 6, description_template: "Sipariş {cart_id}", sale_webhook_key: null })
        expect(saved.data.stored).toMatchObject({ capture: false, max_installments: 6, sale_webhook_key: "" })
        expect(saved.data.defaults).toMatchObject({ capture: true, max_installments: 12, sale_webhook_key: "medusa-sale" })

        const cart = await createCart(api, store)
        const { session } = await startPaymentSession(api, store, cart.id)
        const form = await issueThreeDForm(api, store, session.id)
        expect(form.fields.transaction_type).toBe("PreAuth")
        expect(form.fields.invoice_description).toBe(`Sipariş ${cart.id}`)
        expect(form.fields.sale_webhook_key).toBeUndefined()
        const tooMany = await api
          .post(`/store/sipay/payment-sessions/${session.id}/3d-form`, { installments_number: 9, cart_id: cart.id }, { headers: { "x-publishable-api-key": store.publishableKey } })
          .catch((error: any) => error.response)
        expect(tooMany.status).toBe(400)

        const reset = await post("/admin/sipay/settings", { capture: null, sale_webhook_key: null })
        expect(reset.data.settings).toMatchObject({ capture: true, sale_webhook_key: "medusa-sale", max_installments: 6 })
        const again = await issueThreeDForm(api, store, session.id)
        expect(again.fields.transaction_type ?? "Auth").toBe("Auth")
        expect(again.fields.sale_webhook_key).toBe("medusa-sale")
      })

      it("test connection gets a token and reports is_3d and what it means; a gateway failure answers 400 with its code", async () => {
        const ok = await post("/admin/sipay/settings/test-connection", {})
        expect(ok.status).toBe(200)
        expect(ok.data).toMatchObject({ ok: true, is_3d: 1, mode: "2d-or-3d", warnings: [], base_url: stack.sandbox.base_url })
        expect(ok.data.meaning).toMatch(/both direct and 3D Secure/)

        await fault("token", "http_500")
        const down = await post("/admin/sipay/settings/test-connection", {})
        expect(down.status).toBe(400)
        expect(down.data.message).toMatch(/^Sipay token failed \[500\]: /)
      })
    })
  },
})
