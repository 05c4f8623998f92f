import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { generateHashKey } from "../../src/lib/sipay"
import { seedStoreWithAdmin, SeededStore } from "../harness/seed"
import { useSipayStack } from "../harness/stack"
import { createCart, PAYING_CARD, payAtGateway, readForm, startPaymentSession, waitFor } from "../harness/shopper"
import syncSipayLedger from "../../src/jobs/sipay-sync-ledger"

jest.setTimeout(300 * 1000)

// Issue 17 point 3: a phone order's single-use payment link, made and e-mailed in one action, its state on the order; when paid,
// the draft becomes one order with one captured Sipay payment (exactly once), and a payment the order must not keep is given back.
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

    const form = (url: string, fields: Record<string, string>) =>
      fetch(url, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(fields).toString(), redirect: "manual" })

    /** A payer on the link's page: fills the card in and reaches the bank page (not yet confirmed). */
    async function reachBankPage(link: string) {
      const page = await form(link, { ...PAYING_CARD })
      const html = await page.text()
      expect(page.status).toBe(200)
      return readForm(html)
    }

    async function makeLink(orderId: string) {
      const made = await post(`/admin/sipay/draft-orders/${orderId}/payment-link`, {})
      expect(made.status).toBe(201)
      return made.data.order_payment_links[0] as { dpl_id: number; link: string; amount: string; payment_link_id: string }
    }

    /** The link's sales as the ledger has them (the webhook for an invoice the plugin did not issue syncs today's ledger). */
    async function linkSales(dplId: number, count: number) {
      const sipay = getContainer().resolve("sipay") as any
      return waitFor(async () => {
        const rows = await sipay.listLedgerSales({ dpl_id: dplId })
        return rows.length >= count ? rows : null
      }, 30000)
    }

    async function orderState(orderId: string) {
      const query = getContainer().resolve("query") as any
      const { data } = await query.graph({
        entity: "order",
        fields: ["id", "status", "is_draft_order", "total", "payment_collections.status", "payment_collections.payments.*", "payment_collections.payments.captures.*", "payment_collections.payments.refunds.*"],
        filters: { id: orderId },
      })
      const order = data[0]
      const payments = (order.payment_collections ?? []).flatMap((c: any) => c.payments ?? [])
      return { order, payments }
    }

    /** The order's link view (GET settles too), once the settlement has run. */
    async function settledView(orderId: string, until: (view: any) => boolean) {
      return waitFor(async () => {
        const view = (await get(`/admin/sipay/draft-orders/${orderId}/payment-link`)).data.order_payment_links[0]
        return until(view) ? view : null
      }, 30000)
    }

    const gatewaySale = (invoiceId: string) => (getContainer().resolve("sipay") as any).getClient().checkStatus(invoiceId)

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

    it("a draft order paid through its link becomes exactly one order with one captured Sipay payment for its total; settling again (job, sync now, webhook, view, at once) changes nothing; an admin refund reaches the gateway", async () => {
      const draft = await draftOrder("phone-paid@example.com")
      const link = await makeLink(draft.id)
      // The webhook comes late, so the first settlement is a race of every other path that can see the sale.
      const armed = await fetch(`${stack.sandbox.link_base}/__sandbox/faults`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ operation: "sale_webhook", kind: "delay", ms: 12000 }) })
      expect(armed.status).toBe(200)
      await payAtGateway({ action: link.link, fields: {} }, PAYING_CARD)
      await Promise.all([
        syncSipayLedger(getContainer()),
        post("/admin/sipay/transactions/sync", {}),
        get(`/admin/sipay/draft-orders/${draft.id}/payment-link`),
        get(`/admin/sipay/draft-orders/${draft.id}/payment-link`),
        syncSipayLedger(getContainer()),
      ])
      const [sale] = await linkSales(link.dpl_id, 1)

      const view = await settledView(draft.id, (v) => v.state === "paid")
      expect(view).toMatchObject({ state: "paid", settled_invoice_id: sale.invoice_id, converted_draft: true, refused_sales: [] })
      const once = await orderState(draft.id)
      expect(once.order).toMatchObject({ is_draft_order: false, status: "pending" })
      expect(once.payments).toHaveLength(1)
      const [payment] = once.payments
      expect(payment.id).toBe(view.payment_id)
      expect(payment.provider_id).toBe("pp_sipay_sipay")
      expect(Number(payment.amount)).toBe(Number(draft.total))
      expect(payment.data).toMatchObject({ invoice_id: sale.invoice_id, captured_amount: link.amount })
      expect(payment.captures.map((c: any) => Number(c.amount))).toEqual([Number(draft.total)])

      // The late webhook, the same webhook again, and every other path, at once and repeatedly.
      const webhook = await waitFor(async () => {
        const log: any[] = await (await fetch(`${stack.sandbox.link_base}/__sandbox/webhooks`)).json()
        return log.find((w) => w.kind === "sale" && w.body?.invoice_id === sale.invoice_id && w.status === 200)
      }, 30000)
      await Promise.all([
        syncSipayLedger(getContainer()),
        post("/admin/sipay/transactions/sync", {}),
        form(webhook.url, webhook.body),
        get(`/admin/sipay/draft-orders/${draft.id}/payment-link`),
        syncSipayLedger(getContainer()),
        get(`/admin/sipay/draft-orders/${draft.id}/payment-link`),
      ])
      await new Promise((resolve) => setTimeout(resolve, 7000)) // the webhook is processed after Medusa's 5 s delay
      await syncSipayLedger(getContainer())
      const again = await orderState(draft.id)
      expect(again.payments.map((p: any) => p.id)).toEqual([payment.id])
      expect(again.payments[0].captures).toHaveLength(1)
      const orders = await api.get(`/admin/orders?id=${draft.id}&fields=id`, admin)
      expect(orders.data.orders).toHaveLength(1)
      expect((await gatewaySale(sale.invoice_id)).totalRefundedAmount).toBe("0.00")

      // The Sales page and its CSV name the order this phone order's sale paid.
      const day = new Date(Date.now() + 3 * 3600 * 1000).toISOString().slice(0, 10)
      const lookup = await get(`/admin/sipay/transactions?date=${day}&invoice_id=${sale.invoice_id}`)
      expect(lookup.data.sales).toEqual([expect.objectContaining({ invoice_id: sale.invoice_id, medusa: expect.objectContaining({ order_id: draft.id, sale_kind: "payment", order_link_id: view.id }) })])

      // A refund from Medusa's admin reaches the gateway with the sale's invoice id.
      const refund = await post(`/admin/payments/${payment.id}/refund`, { amount: 100 })
      expect(refund.status).toBe(200)
      expect(Number((await gatewaySale(sale.invoice_id)).totalRefundedAmount)).toBe(100)

      // A refund of this sale made in the merchant panel is recorded on the order's payment (no refund sent), exactly once.
      const m = stack.sandbox.merchant
      const token = ((await (await fetch(`${stack.sandbox.base_url}/api/token`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ app_id: m.app_id, app_secret: m.app_secret }) })).json()) as any).data.token
      const panel = { invoice_id: sale.invoice_id, amount: "50", merchant_key: m.merchant_key, app_id: m.app_id, app_secret: m.app_secret, hash_key: generateHashKey(["50", sale.invoice_id, m.merchant_key], m.app_secret) }
      const refunded = await fetch(`${stack.sandbox.base_url}/api/refund`, { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${token}` }, body: JSON.stringify(panel) })
      expect(((await refunded.json()) as any).status_code).toBe(100)
      const refundCalls = async () => ((await (await fetch(`${stack.sandbox.link_base}/__sandbox/calls`)).json()) as any).refund ?? 0
      const before = await refundCalls()
      const synced = await post("/admin/sipay/transactions/sync", {})
      expect(synced.data.sync.actions.refunds_recorded).toEqual([{ invoice_id: sale.invoice_id, amount: "50.00" }])
      expect((await post("/admin/sipay/transactions/sync", {})).data.sync.actions.refunds_recorded).toEqual([])
      expect(await refundCalls()).toBe(before)
      const after = await orderState(draft.id)
      expect(after.payments[0].refunds.map((r: any) => Number(r.amount)).sort((a: number, b: number) => a - b)).toEqual([50, 100])
    })

    it("a link paid by two payers at once makes one paid order: the gateway refuses the second, nothing else is charged or recorded", async () => {
      const draft = await draftOrder("phone-twice@example.com")
      const link = await makeLink(draft.id)
      const [first, second] = await Promise.all([reachBankPage(link.link), reachBankPage(link.link)])
      const confirm = (bank: { action: string }) => form(bank.action, { sms_code: "283126", action: "confirm" })
      await confirm(first)
      await confirm(second)
      const sales = await linkSales(link.dpl_id, 2)
      const view = await settledView(draft.id, (v) => v.state === "paid")
      const paid = sales.find((s: any) => s.invoice_id === view.settled_invoice_id)
      const other = sales.find((s: any) => s.invoice_id !== view.settled_invoice_id)
      expect(paid).toBeDefined()
      expect((await gatewaySale(other.invoice_id)).status).toBe("Failed")
      await syncSipayLedger(getContainer())
      const { order, payments } = await orderState(draft.id)
      expect(order.is_draft_order).toBe(false)
      expect(payments).toHaveLength(1)
      expect(payments[0].data.invoice_id).toBe(paid.invoice_id)
      expect((await settledView(draft.id, () => true)).refused_sales).toEqual([])
    })

    it("a draft order edited after its link was made, then paid: not converted, the sale refunded at the gateway and shown on the order", async () => {
      const draft = await draftOrder("phone-changed@example.com")
      const link = await makeLink(draft.id)
      expect((await post(`/admin/draft-orders/${draft.id}/edit`, {})).status).toBe(200)
      expect((await post(`/admin/draft-orders/${draft.id}/edit/items`, { items: [{ variant_id: store.products[1].variantId, quantity: 1 }] })).status).toBe(200)
      expect((await post(`/admin/draft-orders/${draft.id}/edit/confirm`, {})).status).toBe(200)

      await payAtGateway({ action: link.link, fields: {} }, PAYING_CARD)
      const [sale] = await linkSales(link.dpl_id, 1)
      const view = await settledView(draft.id, (v) => v.state === "refunded")
      expect(view).toMatchObject({ state: "refunded", payment_id: null, order_total_changed: true })
      expect(view.refused_sales).toEqual([expect.objectContaining({ invoice_id: sale.invoice_id, reason: "order_changed", amount: link.amount, currency_code: "TRY", outcome: "refunded" })])
      expect((await gatewaySale(sale.invoice_id)).totalRefundedAmount).toBe(link.amount)
      await syncSipayLedger(getContainer())
      const { order, payments } = await orderState(draft.id)
      expect(order.is_draft_order).toBe(true)
      expect(payments).toEqual([])
      expect((await settledView(draft.id, () => true)).refused_sales).toHaveLength(1)
    })

    it("an unpaid order (not a draft) paid through its link gets the payment recorded on it, once; a cancelled order's payment is given back", async () => {
      const draft = await draftOrder("phone-unpaid@example.com")
      expect((await post(`/admin/draft-orders/${draft.id}/convert-to-order`, {})).status).toBe(200)
      const link = await makeLink(draft.id)
      await payAtGateway({ action: link.link, fields: {} }, PAYING_CARD)
      const [sale] = await linkSales(link.dpl_id, 1)
      const view = await settledView(draft.id, (v) => v.state === "paid")
      expect(view.converted_draft).toBe(false)
      await Promise.all([syncSipayLedger(getContainer()), get(`/admin/sipay/draft-orders/${draft.id}/payment-link`)])
      const { order, payments } = await orderState(draft.id)
      expect(order).toMatchObject({ is_draft_order: false, status: "pending" })
      expect(payments).toHaveLength(1)
      expect(payments[0]).toMatchObject({ id: view.payment_id, provider_id: "pp_sipay_sipay" })
      expect(payments[0].data.invoice_id).toBe(sale.invoice_id)
      expect(payments[0].captures).toHaveLength(1)

      const cancelled = await draftOrder("phone-cancelled@example.com")
      expect((await post(`/admin/draft-orders/${cancelled.id}/convert-to-order`, {})).status).toBe(200)
      const cancelledLink = await makeLink(cancelled.id)
      expect((await post(`/admin/orders/${cancelled.id}/cancel`, {})).status).toBe(200)
      await payAtGateway({ action: cancelledLink.link, fields: {} }, PAYING_CARD)
      const [late] = await linkSales(cancelledLink.dpl_id, 1)
      const refused = await settledView(cancelled.id, (v) => v.state === "refunded")
      expect(refused.refused_sales).toEqual([expect.objectContaining({ invoice_id: late.invoice_id, reason: "order_cancelled", outcome: "refunded" })])
      expect((await gatewaySale(late.invoice_id)).totalRefundedAmount).toBe(cancelledLink.amount)
      expect((await orderState(cancelled.id)).payments).toEqual([])
    })

    it("an order paid another way after its link was made: the link's payment is refunded at the gateway and shown, the order keeps its one payment", async () => {
      const draft = await draftOrder("phone-paid-otherwise@example.com")
      expect((await post(`/admin/draft-orders/${draft.id}/convert-to-order`, {})).status).toBe(200)
      const link = await makeLink(draft.id)
      const collection = await post("/admin/payment-collections", { order_id: draft.id, amount: Number(draft.total) })
      expect(collection.status).toBe(200)
      expect((await post(`/admin/payment-collections/${collection.data.payment_collection.id}/mark-as-paid`, { order_id: draft.id })).status).toBe(200)

      await payAtGateway({ action: link.link, fields: {} }, PAYING_CARD)
      const [sale] = await linkSales(link.dpl_id, 1)
      const view = await settledView(draft.id, (v) => v.state === "refunded")
      expect(view.refused_sales).toEqual([expect.objectContaining({ invoice_id: sale.invoice_id, reason: "already_paid", outcome: "refunded" })])
      expect((await gatewaySale(sale.invoice_id)).totalRefundedAmount).toBe(link.amount)
      const { payments } = await orderState(draft.id)
      expect(payments.map((p: any) => p.provider_id)).toEqual(["pp_system_default"])
    })

    it("a phone order's signed sale binding planted in a store payment session is dropped, and the cart cannot complete on it", async () => {
      const draft = await draftOrder("phone-planted@example.com")
      const link = await makeLink(draft.id)
      await payAtGateway({ action: link.link, fields: {} }, PAYING_CARD)
      const view = await settledView(draft.id, (v) => v.state === "paid")
      const [payment] = (await orderState(draft.id)).payments
      const binding = payment.data.phone_order_sale
      expect(binding).toMatchObject({ invoice_id: view.settled_invoice_id, session_id: payment.data.session_id })

      const headers = { headers: { "x-publishable-api-key": store.publishableKey } }
      const cart = await createCart(api, store, [1])
      const { session } = await startPaymentSession(api, store, cart.id, "pp_sipay_sipay", { phone_order_sale: binding, invoice_id: binding.invoice_id })
      expect(session.data.phone_order_sale ?? null).toBeNull()
      expect(session.data.invoice_id ?? null).toBeNull()
      const completed = await api.post(`/store/carts/${cart.id}/complete`, {}, headers).catch((error: any) => error.response)
      expect(completed.data.type).not.toBe("order")
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
