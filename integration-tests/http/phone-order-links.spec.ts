import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { seedStoreWithAdmin, SeededStore } from "../harness/seed"
import { useSipayStack } from "../harness/stack"
import { PAYING_CARD, payAtGateway, waitFor } from "../harness/shopper"

jest.setTimeout(300 * 1000)

// Issue 17 point 3 (first half): a phone order's single-use payment link, made and e-mailed in one action, its state on the order.
const stack = useSipayStack()

medusaIntegrationTestRunner({
  testSuite: ({ api, getContainer }) => {
    let admin: { headers: Record<string, string> }
    let store: SeededStore

    beforeEach(async () => {
      ;({ store, admin } = await seedStoreWithAdmin(getContainer(), api))
    })

    const post = (path: string, body: unknown) => api.post(path, body, admin).catch((error) => error.response)
    const get = (path: string) => api.get(path, admin).catch((error) => error.response)

    async function draftOrder(email: string) {
      const address = { first_name: "Mehmet", last_name: "Kaya", address_1: "Bağdat Cd. 5", city: "İstanbul", country_code: "tr", postal_code: "34728", phone: "5559876543" }
      const created = await post("/admin/draft-orders", {
        email,
        region_id: store.regionId,
        sales_channel_id: store.salesChannelId,
        items: [{ variant_id: store.products[0].variantId, quantity: 2 }],
        shipping_address: address,
        billing_address: address,
      })
      expect(created.status).toBe(200)
      return created.data.draft_order as { id: string; total: number; email: string }
    }

    it("a draft order taken by phone gets a single-use link for its total, e-mailed in the same action; paid once, the order shows it used", async () => {
      const draft = await draftOrder("phone-buyer@example.com")
      const made = await post(`/admin/sipay/draft-orders/${draft.id}/payment-link`, {})
      expect(made.status).toBe(201)
      const [link] = made.data.order_payment_links
      expect(link).toMatchObject({ amount: Number(draft.total).toFixed(2), currency_code: "TRY", email: "phone-buyer@example.com", email_outcome: "sent", status: "ACTIVE", number_of_uses: 0, order_total_changed: false })
      expect(link.link).toMatch(new RegExp(`^${stack.sandbox.link_base}/dplLink/`))

      // One action: the gateway e-mailed it to the customer.
      const mails = (await (await fetch(`${stack.sandbox.link_base}/__sandbox/outbox`)).json()).filter((m: any) => m.dpl_id === link.dpl_id)
      expect(mails.map((m: any) => [m.to, m.link])).toEqual([["phone-buyer@example.com", link.link]])
      const stored = await get(`/admin/sipay/payment-links/${link.payment_link_id}`)
      expect(stored.data.payment_link).toMatchObject({ max_number_of_uses: 1, is_amount_set_by_user: false })

      // One active link per order.
      const again = await post(`/admin/sipay/draft-orders/${draft.id}/payment-link`, {})
      expect(again.status).toBe(400)
      expect(again.data.message).toMatch(/already has an active payment link/)

      const paid = await payAtGateway({ action: link.link, fields: {} }, PAYING_CARD)
      expect(paid.action).toBe(`${link.link}/result`)
      // The gateway's sale webhook for an invoice the plugin did not issue syncs today's ledger at once: the sale is there without the ledger job or a refresh.
      const sipay = getContainer().resolve("sipay") as any
      const [sale] = await waitFor(async () => {
        const rows = await sipay.listLedgerSales({ dpl_id: link.dpl_id })
        return rows.length ? rows : null
      }, 30000)
      expect(Number(sale.dpl_id)).toBe(link.dpl_id)
      const seen = await get(`/admin/sipay/draft-orders/${draft.id}/payment-link`)
      expect(seen.data.order_payment_links).toHaveLength(1)
      expect(seen.data.order_payment_links[0]).toMatchObject({ status: "USED", number_of_uses: 1, order_total_changed: false })
      // Single use: the payer page refuses a second payment.
      expect((await fetch(link.link)).status).toBe(410)
    })

    it("refuses a header-injecting address and an unknown order", async () => {
      const draft = await draftOrder("someone@example.com")
      const injected = await post(`/admin/sipay/draft-orders/${draft.id}/payment-link`, { email: "a@example.com\r\nBcc: x@example.com" })
      expect(injected.status).toBe(400)
      const unknown = await post(`/admin/sipay/draft-orders/order_missing/payment-link`, {})
      expect(unknown.status).toBe(404)
      expect((await get(`/admin/sipay/draft-orders/${draft.id}/payment-link`)).data.order_payment_links).toEqual([])
    })
  },
})
