import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { gatewayDay } from "../../src/lib/sales-report"
import { seedStore, seedStoreWithAdmin, SeededStore } from "../harness/seed"
import { clearSandboxFaults, useSipayStack } from "../harness/stack"
import { createCart, DECLINING_CARD, issueThreeDForm, PAYING_CARD, payAtGateway, readForm, returnToStore, startPaymentSession } from "../harness/shopper"
import { SMS_TEST_CODE } from "../../src/sandbox"
import { generateHashKey } from "../../src/lib/sipay/hash"
import syncSipayLedger from "../../src/jobs/sipay-sync-ledger"

jest.setTimeout(300 * 1000)

// Pre-authorization mode: every sale starts reserved (state 6); captures and refunds go through the admin API.
const stack = useSipayStack({ env: { SIPAY_CAPTURE: "false" } })

const DAY_MS = 24 * 3600 * 1000
// A 1x1 PNG: the payment link's product photo.
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64")

medusaIntegrationTestRunner({
  testSuite: ({ api, getContainer }) => {
    let store: SeededStore
    let admin: { headers: Record<string, string> }

    beforeEach(async () => {
      ;({ store, admin } = await seedStoreWithAdmin(getContainer(), api))
    })
    afterEach(() => clearSandboxFaults(stack))

    const today = () => gatewayDay(new Date())
    const failed = (promise: Promise<unknown>) => promise.then(() => { throw new Error("expected an error answer") }, (e: any) => e.response)

    async function sandbox(path: string, body: unknown) {
      const response = await fetch(`${stack.sandbox.link_base}/__sandbox/${path}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      })
      expect(response.status).toBeLessThan(300)
      return response.json()
    }

    const sipay = () => getContainer().resolve("sipay") as any

    async function orderOfCart(cartId: string) {
      const { data } = await getContainer().resolve(ContainerRegistrationKeys.QUERY).graph({
        entity: "cart",
        fields: ["order.id", "order.payment_collections.payments.id"],
        filters: { id: cartId },
      })
      return (data[0] as any).order as { id: string; payment_collections: { payments: { id: string }[] }[] }
    }

    /** A 3D purchase (reserved, as the store is in PreAuth mode); `declineFirst` makes attempt 1 a declined card. */
    async function purchase(options: { shop?: SeededStore; quantities?: number[]; installments?: number; declineFirst?: boolean } = {}) {
      const shop = options.shop ?? store
      const cart = await createCart(api, shop, options.quantities)
      const { session } = await startPaymentSession(api, shop, cart.id)
      const invoiceIds: string[] = []
      if (options.declineFirst) {
        const form = await issueThreeDForm(api, shop, session.id)
        invoiceIds.push(form.invoice_id)
        expect((await returnToStore(await payAtGateway(form, DECLINING_CARD))).searchParams.get("error")).toBeTruthy()
      }
      const form = await issueThreeDForm(api, shop, session.id, { installments_number: options.installments ?? 1 })
      invoiceIds.push(form.invoice_id)
      expect((await returnToStore(await payAtGateway(form))).pathname).toMatch(/order_/)
      const order = await orderOfCart(cart.id)
      return { cart, sessionId: session.id, invoiceId: form.invoice_id, invoiceIds, order, paymentId: order.payment_collections[0].payments[0].id }
    }

    /** "Sync now" of a day into the ledger (the admin's button). */
    async function syncDay(date = today()) {
      const { status, data } = await api.post(`/admin/sipay/transactions/sync`, { date }, admin)
      expect(status).toBe(200)
      return data.sync
    }

    async function lookup(params: Record<string, string | number>) {
      const query = new URLSearchParams(Object.entries({ date: today(), ...params }).map(([k, v]) => [k, String(v)]))
      const { status, data } = await api.get(`/admin/sipay/transactions?${query}`, admin)
      expect(status).toBe(200)
      return data
    }

    /** "Look up now": the gateway's answer for the day, a POST (it makes a gateway call). */
    async function lookupAtGateway(filters: Record<string, string | number>) {
      const { status, data } = await api.post(`/admin/sipay/transactions/lookup`, { date: today(), ...filters }, admin)
      expect(status).toBe(200)
      return data
    }

    /** The day's sales as the ledger has them just after a sync, all on one page. */
    async function sales(params: Record<string, string | number>) {
      await syncDay(String(params.date ?? today()))
      const data = await lookup({ limit: 500, ...params })
      expect(data).toMatchObject({ source: "ledger", offset: 0 })
      expect(data.count).toBe(data.sales.length)
      return data.sales as any[]
    }

    /** A refund made in the merchant panel: the gateway's refund API called by someone else than the plugin. */
    async function refundInPanel(invoiceId: string, amount: string) {
      const m = stack.sandbox.merchant
      const token = await fetch(`${stack.sandbox.base_url}/api/token`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ app_id: m.app_id, app_secret: m.app_secret }) })
      const bearer = ((await token.json()) as any).data.token
      const body = { invoice_id: invoiceId, amount, merchant_key: m.merchant_key, app_id: m.app_id, app_secret: m.app_secret, hash_key: generateHashKey([amount, invoiceId, m.merchant_key], m.app_secret) }
      const answer = await fetch(`${stack.sandbox.base_url}/api/refund`, { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${bearer}` }, body: JSON.stringify(body) })
      expect(((await answer.json()) as any).status_code).toBe(100)
    }

    async function gatewayCalls(): Promise<Record<string, number>> {
      return (await fetch(`${stack.sandbox.link_base}/__sandbox/calls`)).json() as any
    }
    const invoicesOf = async (params: Record<string, string | number>) => (await sales(params)).map((s) => s.invoice_id)

    async function orderPayment(orderId: string, refresh = false) {
      const { status, data } = refresh
        ? await api.post(`/admin/sipay/orders/${orderId}/payment/refresh`, {}, admin)
        : await api.get(`/admin/sipay/orders/${orderId}/payment`, admin)
      expect(status).toBe(200)
      return data.payment
    }

    it("every filter of the sales lookup narrows the day's sales as the gateway does, each sale with its Medusa order", async () => {
      const usdStore = await seedStore(getContainer(), { currencyCode: "usd", products: [{ title: "Mug (USD)", price: 149.9 }, { title: "Olive oil (USD)", price: 420 }] })
      const cup = await purchase({ quantities: [1, 0] }) // 149.90 TRY
      const retried = await purchase({ quantities: [2, 1], declineFirst: true }) // 719.80 TRY, attempt 1 declined
      const dollars = await purchase({ shop: usdStore, quantities: [0, 1] }) // 420.00 USD
      const [declinedInvoice, paidInvoice] = retried.invoiceIds
      const ours = [cup.invoiceId, declinedInvoice, paidInvoice, dollars.invoiceId]
      const onlyOurs = (ids: string[]) => ids.filter((id) => ours.includes(id)).sort()

      const day = await sales({})
      expect(onlyOurs(day.map((s) => s.invoice_id))).toEqual([...ours].sort())
      const cupSale = day.find((s) => s.invoice_id === cup.invoiceId)
      expect(cupSale).toMatchObject({
        transaction_state_id: 6,
        transaction_state_label: "Pre-Authorized",
        currency_code: "TRY",
        gross: 149.9,
        net: 0,
        merchant_commission: 0,
        total_refunded_amount: 0,
        installment: 1,
        credit_card_no: "450803****4509",
        dpl_id: 0,
        medusa: { order_id: cup.order.id, sale_kind: "payment", related_order_id: null, payment_session_id: cup.invoiceId.replace(/_1$/, ""), attempt_number: 1, payment_link_id: null },
      })
      expect(cupSale.settlement_date_bank).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)
      expect(cupSale.sale_billing).toMatchObject({ sale_id: cupSale.id, card_holder_name: "Ay** Yı****" })
      expect(cupSale.merchant_sale).toMatchObject({ merchant_commission_percentage: 2.5 })
      expect(cupSale.sale_integrator.integratordata).toMatchObject({ integrator_name: "Sipay Sandbox" })
      // The declined attempt paid no order: its cart's order (paid by the retry) is shown as related, never as the sale's.
      expect(day.find((s) => s.invoice_id === declinedInvoice)).toMatchObject({
        transaction_state_id: 2,
        medusa: { order_id: null, related_order_id: retried.order.id, sale_kind: "attempt", attempt_number: 1 },
      })
      expect(day.find((s) => s.invoice_id === paidInvoice).medusa).toMatchObject({ order_id: retried.order.id, sale_kind: "payment", attempt_number: 2 })

      expect(onlyOurs(await invoicesOf({ date: gatewayDay(new Date(Date.now() - DAY_MS)) }))).toEqual([])
      expect(await invoicesOf({ invoice_id: cup.invoiceId })).toEqual([cup.invoiceId])
      expect(await invoicesOf({ invoice_id: "not_one_of_ours_1" })).toEqual([])
      expect(onlyOurs(await invoicesOf({ currency_id: 2 }))).toEqual([dollars.invoiceId])
      expect(onlyOurs(await invoicesOf({ currency_id: 1 }))).toEqual([cup.invoiceId, declinedInvoice, paidInvoice].sort())
      expect(onlyOurs(await invoicesOf({ payment_method_id: 1 }))).toEqual([...ours].sort())
      expect(await invoicesOf({ payment_method_id: 2 })).toEqual([])
      expect(onlyOurs(await invoicesOf({ min_amount: "149.90", max_amount: "149.90" }))).toEqual([cup.invoiceId])
      expect(onlyOurs(await invoicesOf({ min_amount: "149.91" }))).toEqual([declinedInvoice, paidInvoice, dollars.invoiceId].sort())
      expect(onlyOurs(await invoicesOf({ max_amount: "420" }))).toEqual([cup.invoiceId, dollars.invoiceId].sort())
      expect(onlyOurs(await invoicesOf({ transaction_state: 2 }))).toEqual([declinedInvoice])
      expect(onlyOurs(await invoicesOf({ transaction_state: 6 }))).toEqual([cup.invoiceId, paidInvoice, dollars.invoiceId].sort())
      expect(await invoicesOf({ invoice_id: cup.invoiceId, transaction_state: 2 })).toEqual([])
      expect(await invoicesOf({ invoice_id: dollars.invoiceId, currency_id: 2, payment_method_id: 1, min_amount: 420, max_amount: 420, transaction_state: 6 })).toEqual([dollars.invoiceId])
    })

    it("the sale after pre-authorization, capture, refund and chargeback, as the lookup and the order's payment route show it", async () => {
      const { order, paymentId, invoiceId, cart } = await purchase({ quantities: [1, 1], installments: 3 }) // 569.90 TRY
      const total = Number(cart.total)
      const record = async () => (await sales({ invoice_id: invoiceId }))[0]

      expect(await record()).toMatchObject({ transaction_state_id: 6, gross: total, net: 0, merchant_commission: 0, installment: 3 })
      const reserved = await orderPayment(order.id)
      expect(reserved).toMatchObject({
        order_id: order.id,
        invoice_id: invoiceId,
        masked_card: "450803****4509",
        installments: 3,
        transaction_type: "Pre-Authorization",
        status: "Completed",
        refunded_amount: "0.00",
        chargeback: false,
        gateway_error: null,
        payment: { id: paymentId, amount: "569.90", captured_amount: "0.00", captured_at: null },
      })
      expect(reserved.gateway_order_no).toBeTruthy()
      expect(reserved.pre_authorization.days_left).toBe(20)
      expect(new Date(reserved.pre_authorization.deadline).getTime() - Date.now()).toBeGreaterThan(19.9 * DAY_MS)
      expect(reserved.attempts).toEqual([expect.objectContaining({ invoice_id: invoiceId, attempt_number: 1, status: "authorized", transaction_type: "PreAuth", flow: "3d", installments: 3 })])

      await api.post(`/admin/payments/${paymentId}/capture`, {}, admin)
      expect(await record()).toMatchObject({ transaction_state_id: 1, transaction_state_label: "Completed", gross: total, merchant_commission: 14.25, net: 555.65 })
      const captured = await orderPayment(order.id)
      expect(captured.pre_authorization).toBeNull()
      expect(captured.payment).toMatchObject({ captured_amount: "569.90" })

      await api.post(`/admin/payments/${paymentId}/refund`, { amount: 100 }, admin)
      expect(await record()).toMatchObject({ transaction_state_id: 5, transaction_state_label: "Partially Refunded", total_refunded_amount: 100, gross: total, net: 555.65 })
      expect((await record()).refund_history).toEqual([expect.objectContaining({ amount: 100 })])

      // The refund changed the payment: the next GET asks the gateway again (the panel is current), later ones reuse that answer.
      const afterRefund = await orderPayment(order.id)
      expect(afterRefund.refunded_amount).toBe("100.00")
      expect(new Date(afterRefund.checked_at).getTime()).toBeGreaterThan(new Date(reserved.checked_at).getTime())
      await sandbox("chargeback", { invoice_id: invoiceId })
      // GET serves the ledger (not yet synced since the chargeback) and a checkstatus of the last minutes; refresh asks again.
      const cachedView = await orderPayment(order.id)
      expect(cachedView.checked_at).toBe(afterRefund.checked_at)
      expect(cachedView.chargeback).toBe(false)
      expect(cachedView.sale).toMatchObject({ invoice_id: invoiceId, transaction_state_id: 5 })
      expect(new Date(cachedView.ledger_synced_at).getTime()).toBeGreaterThan(0)
      const refreshed = await orderPayment(order.id, true)
      expect(refreshed).toMatchObject({ chargeback: true, status: "Completed", transaction_type: "Auth", refunded_amount: "100.00", pre_authorization: null })
      expect(refreshed.sale).toMatchObject({ invoice_id: invoiceId, transaction_state_id: 11, total_refunded_amount: 100 })
      expect(new Date(refreshed.checked_at).getTime()).toBeGreaterThan(new Date(reserved.checked_at).getTime())
      expect((await orderPayment(order.id)).chargeback).toBe(true)

      expect(await record()).toMatchObject({ transaction_state_id: 11, transaction_state_label: "Chargebacked" })
      expect(onlyState(await sales({ transaction_state: 11 }), invoiceId)).toBe(true)
      // The sync acted on it once: the plugin's chargeback record on the order, shown by the order's view.
      const chargebacks = await getContainer().resolve("sipay").listChargebacks({ invoice_id: invoiceId })
      expect(chargebacks).toEqual([expect.objectContaining({ order_id: order.id, payment_id: paymentId, currency_code: "TRY" })])
      expect(Number(chargebacks[0].amount)).toBe(total)
      await syncDay()
      expect(await getContainer().resolve("sipay").listChargebacks({ invoice_id: invoiceId })).toHaveLength(1)
      expect((await orderPayment(order.id)).chargebacks).toEqual([expect.objectContaining({ invoice_id: invoiceId, amount: total.toFixed(2), currency_code: "TRY" })])
    })

    it("a refund made in the merchant panel is recorded in Medusa once; a later refund from the admin still reaches the gateway", async () => {
      const { order, paymentId, invoiceId } = await purchase({ quantities: [1, 1] }) // 569.90 TRY
      await api.post(`/admin/payments/${paymentId}/capture`, {}, admin)
      const refundsAtGateway = async () => (await gatewayCalls()).refund ?? 0
      const before = await refundsAtGateway()

      await refundInPanel(invoiceId, "50")
      const first = await syncDay()
      expect(first.actions.refunds_recorded).toEqual([{ invoice_id: invoiceId, amount: "50.00" }])
      const paymentModule = getContainer().resolve("payment")
      const refunds = async () => ((await paymentModule.retrievePayment(paymentId, { relations: ["refunds"] })) as any).refunds
      expect(await refunds()).toEqual([expect.objectContaining({ note: expect.stringMatching(/merchant panel/) })])
      expect(Number((await refunds())[0].amount)).toBe(50)
      expect((await syncDay()).actions.refunds_recorded).toEqual([])
      expect(await refunds()).toHaveLength(1)
      expect(await refundsAtGateway()).toBe(before + 1)

      await api.post(`/admin/payments/${paymentId}/refund`, { amount: 50 }, admin)
      expect(await refundsAtGateway()).toBe(before + 2)
      const [sale] = await sales({ invoice_id: invoiceId })
      expect(sale).toMatchObject({ total_refunded_amount: 100, transaction_state_id: 5 })
      expect((await refunds()).map((r: any) => Number(r.amount)).sort()).toEqual([50, 50])
      expect((await syncDay()).actions.refunds_recorded).toEqual([])
      expect((await orderPayment(order.id, true)).refunded_amount).toBe("100.00")
    })

    it("a refund asked for in the admin after one made in the panel still reaches the gateway; the sync then records the panel's and sends nothing", async () => {
      const { paymentId, invoiceId } = await purchase({ quantities: [1, 0] }) // 149.90 TRY
      await api.post(`/admin/payments/${paymentId}/capture`, {}, admin)
      const refundsAtGateway = async () => (await gatewayCalls()).refund ?? 0
      await refundInPanel(invoiceId, "50")
      const before = await refundsAtGateway()
      // Not yet synced: the plugin does not know of the panel's 50, and must not take the admin's 30 for it.
      await api.post(`/admin/payments/${paymentId}/refund`, { amount: 30 }, admin)
      expect(await refundsAtGateway()).toBe(before + 1)
      expect(Number((await sipay().getClient().checkStatus(invoiceId)).totalRefundedAmount)).toBe(80)
      const synced = await syncDay()
      expect(synced.actions.refunds_recorded).toEqual([{ invoice_id: invoiceId, amount: "50.00" }])
      expect(await refundsAtGateway()).toBe(before + 1)
      const payment = (await getContainer().resolve("payment").retrievePayment(paymentId, { relations: ["refunds"] })) as any
      expect(payment.refunds.map((r: any) => Number(r.amount)).sort((a: number, b: number) => a - b)).toEqual([30, 50])
    })

    it("an order cancelled after a partial panel refund gives back the rest once: the card gets the whole amount back, the sync records nothing more", async () => {
      const { order, paymentId, invoiceId } = await purchase({ quantities: [1, 0] }) // 149.90 TRY
      await api.post(`/admin/payments/${paymentId}/capture`, {}, admin)
      await refundInPanel(invoiceId, "40")
      const cancelled = await api.post(`/admin/orders/${order.id}/cancel`, {}, admin).catch((error: any) => error.response)
      expect(cancelled.status).toBe(200)
      const gateway = await sipay().getClient().checkStatus(invoiceId)
      expect(Number(gateway.totalRefundedAmount)).toBe(149.9)
      const refunds = async () => ((await getContainer().resolve("payment").retrievePayment(paymentId, { relations: ["refunds"] })) as any).refunds.map((r: any) => Number(r.amount))
      expect(await refunds()).toEqual([149.9])
      expect((await syncDay()).actions.refunds_recorded).toEqual([])
      expect(await refunds()).toEqual([149.9])
    })

    it("the order's Sipay panel is current after a capture and a refund made in the admin: one gateway check after each change, none for the views in between", async () => {
      const { order, paymentId } = await purchase({ quantities: [1, 0] }) // 149.90 TRY, reserved
      const checks = async () => (await gatewayCalls()).checkstatus ?? 0
      expect((await orderPayment(order.id)).status).toBe("Completed")
      let before = await checks()
      expect((await orderPayment(order.id)).refunded_amount).toBe("0.00")
      expect(await checks()).toBe(before)

      await api.post(`/admin/payments/${paymentId}/capture`, {}, admin)
      before = await checks()
      const captured = await orderPayment(order.id)
      expect(captured).toMatchObject({ transaction_type: "Auth", pre_authorization: null, payment: { captured_amount: "149.90" } })
      expect(await checks()).toBe(before + 1)

      await api.post(`/admin/payments/${paymentId}/refund`, { amount: 40 }, admin)
      before = await checks()
      const refunded = await orderPayment(order.id)
      expect(refunded).toMatchObject({ refunded_amount: "40.00", payment: { refunded_amount: "40.00" } })
      expect(await orderPayment(order.id)).toMatchObject({ refunded_amount: "40.00" })
      expect(await checks()).toBe(before + 1)
    })

    it("a refund retried after its answer was lost is not sent twice: the gateway refuses the reused refund id and its refunded total confirms the first", async () => {
      const { paymentId, invoiceId } = await purchase({ quantities: [1, 0] })
      await api.post(`/admin/payments/${paymentId}/capture`, {}, admin)
      // The refund goes through, its answer is lost, and the check after it fails too: Medusa deletes the refund and the admin tries again.
      await fetch(`${stack.sandbox.link_base}/__sandbox/faults`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ operation: "refund", kind: "charge_then_drop", times: 1 }) })
      const lost = await api.post(`/admin/payments/${paymentId}/refund`, { amount: 30 }, admin).catch((error: any) => error.response)
      const refunded = async () => Number((await sipay().getClient().checkStatus(invoiceId)).totalRefundedAmount)
      expect(await refunded()).toBe(30)
      const payment = async () => (await getContainer().resolve("payment").retrievePayment(paymentId, { relations: ["refunds"] })) as any
      if (lost.status === 200) {
        // The check after the lost answer saw the refund: recorded once, nothing to retry.
        expect((await payment()).refunds.map((r: any) => Number(r.amount))).toEqual([30])
        return
      }
      expect((await payment()).refunds).toEqual([])
      const retried = await api.post(`/admin/payments/${paymentId}/refund`, { amount: 30 }, admin)
      expect(retried.status).toBe(200)
      expect(await refunded()).toBe(30)
      expect((await payment()).refunds.map((r: any) => Number(r.amount))).toEqual([30])
    })

    it("a busy day (6,000 sales, over 10 MB) is synced by the job, then paged, sorted, summed and exported from the ledger", async () => {
      const yesterday = gatewayDay(new Date(Date.now() - DAY_MS))
      const seeded = await sandbox("seed-sales", { count: 6000, date: yesterday, amount: 149.9 })
      await fetch(`${stack.sandbox.link_base}/__sandbox/calls`, { method: "DELETE" })
      const job = await syncSipayLedger(getContainer())
      expect(job.ran).toBe(true)
      expect(job.days.map((d: any) => d.day)).toContain(today())
      expect(job.days.find((d: any) => d.day === yesterday)).toMatchObject({ sales: 6000, inserted: 6000, updated: 0 })
      expect(job.days.every((d: any) => !d.error)).toBe(true)
      expect((await gatewayCalls()).getTransactions).toBe(job.days.length)

      const first = await lookup({ date: yesterday, limit: 100, order: "created_at" })
      expect(first).toMatchObject({ source: "ledger", count: 6000, limit: 100, offset: 0, order: "created_at" })
      expect(first.sales).toHaveLength(100)
      expect(first.sales[0]).toMatchObject({ invoice_id: seeded.first_invoice_id, gross: 149.9, medusa: { order_id: null } })
      expect(first.totals).toEqual([{ currency_code: "TRY", count: 6000, gross: "899400.00", net: expect.any(String), commission: expect.any(String), refunded: "0.00" }])
      expect(first.ledger).toMatchObject({ sale_count: 6000, last_error: null })
      expect(new Date(first.ledger.last_synced_at).getTime()).toBeGreaterThan(Date.now() - 10 * 60 * 1000)
      const last = await lookup({ date: yesterday, limit: 100, offset: 5900, order: "created_at" })
      expect(last.sales.at(-1).invoice_id).toBe(seeded.last_invoice_id)
      const newest = await lookup({ date: yesterday, limit: 1, order: "-created_at" })
      expect(newest.sales[0].invoice_id).toBe(seeded.last_invoice_id)
      expect((await lookup({ date: yesterday, invoice_id: seeded.last_invoice_id })).count).toBe(1)
      expect((await lookup({ date: yesterday, min_amount: "150" })).count).toBe(0)

      const csv = await fetch(`${String(api.defaults.baseURL).replace(/\/+$/, "")}/admin/sipay/transactions/export?date=${yesterday}`, { headers: admin.headers })
      expect(csv.status).toBe(200)
      expect(csv.headers.get("content-type")).toMatch(/^text\/csv/)
      const bytes = Buffer.from(await csv.arrayBuffer())
      expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]) // the BOM: spreadsheets read Turkish text as UTF-8
      const lines = bytes.subarray(3).toString("utf8").split("\r\n")
      expect(lines[0]).toMatch(/^created_at,invoice_id,/)
      expect(lines).toHaveLength(6002)
      expect(lines[1]).toContain(`,${seeded.first_invoice_id},`)
      expect(lines[6000]).toContain(`,${seeded.last_invoice_id},`)

      // Unchanged sales are left alone on the next sync; the gateway lookup of that one day still works.
      expect((await syncDay(yesterday)).days[0]).toMatchObject({ sales: 6000, inserted: 0, updated: 0 })
      expect(await lookupAtGateway({ date: yesterday, invoice_id: seeded.first_invoice_id })).toMatchObject({ source: "gateway", count: 1 })
    })

    function onlyState(list: any[], invoiceId: string) {
      return list.some((s) => s.invoice_id === invoiceId) && list.every((s) => s.transaction_state_id === 11)
    }

    it("a partial capture of a pre-authorization shows the captured amount as gross; the order's attempts list the declined one first", async () => {
      const { order, paymentId, invoiceId, invoiceIds, sessionId } = await purchase({ declineFirst: true })
      const view = await orderPayment(order.id)
      expect(view.invoice_id).toBe(invoiceId)
      expect(view.attempts.map((a: any) => [a.invoice_id, a.attempt_number, a.status])).toEqual([
        [invoiceIds[0], 1, "failed"],
        [invoiceIds[1], 2, "authorized"],
      ])
      expect(view.attempts[0].error_message).toBeTruthy()
      expect(invoiceIds.every((id) => id.startsWith(`${sessionId}_`))).toBe(true)

      await api.post(`/admin/sipay/payments/${paymentId}/capture`, { amount: "200.00" }, admin)
      const [sale] = await sales({ invoice_id: invoiceId })
      expect(sale).toMatchObject({ transaction_state_id: 1, gross: 200, merchant_commission: 5, net: 195, product_price: 719.8 })
      const refreshed = await orderPayment(order.id, true)
      expect(refreshed).toMatchObject({ transaction_type: "Auth", pre_authorization: null, payment: { captured_amount: "200.00" } })
    })

    it("a sale through a payment link carries the plugin's record of that link, and no order", async () => {
      const form = new FormData()
      const fields = { amount: "250.50", currency_code: "TRY", is_amount_set_by_user: "false", name_of_product: "Ceramic mug", description: "Hand-made", expire_date: gatewayDay(new Date(Date.now() + 10 * DAY_MS)), max_number_of_uses: "2" }
      Object.entries(fields).forEach(([name, value]) => form.append(name, value))
      form.append("product_photo", new Blob([new Uint8Array(PNG)], { type: "image/png" }), "mug.png")
      const created = await fetch(`${String(api.defaults.baseURL).replace(/\/+$/, "")}/admin/sipay/payment-links`, { method: "POST", headers: admin.headers, body: form })
      expect(created.status).toBe(201)
      const { payment_link: link } = (await created.json()) as any

      const { cc_holder_name, cc_no, expiry_month, expiry_year, cvv } = PAYING_CARD
      const post = (url: string, body: Record<string, string>) =>
        fetch(url, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(body).toString(), redirect: "manual" })
      const bank = await post(link.link, { cc_holder_name, cc_no, expiry_month, expiry_year, cvv, bill_email: "ayse@example.com" })
      expect(bank.status).toBe(200)
      expect((await post(readForm(await bank.text()).action, { sms_code: SMS_TEST_CODE, action: "confirm" })).status).toBe(303)

      const [sale] = (await sales({})).filter((s) => s.dpl_id === link.dpl_id)
      expect(sale).toMatchObject({ transaction_state_id: 1, gross: 250.5, payment_source: 3, medusa: { payment_link_id: link.id, order_id: null } })
      expect((await sales({ invoice_id: sale.invoice_id }))[0].medusa.payment_link_id).toBe(link.id)
    })

    it("refuses a bad query with 400 and reports the gateway's failures readably; unknown orders are 404", async () => {
      for (const query of ["", "?date=", "?date=22-11-2026", "?date=2026-02-30", `?date=${today()}&min_amount=abc`, `?date=${today()}&max_amount=-1`, `?date=${today()}&currency_id=1.5`, `?date=${today()}&transaction_state=x`, `?date=${today()}&invoiceid=x`]) {
        const answer = await failed(api.get(`/admin/sipay/transactions${query}`, admin))
        expect([query, answer.status]).toEqual([query, 400])
        expect(answer.data.message).toBeTruthy()
      }
      expect((await failed(api.get(`/admin/sipay/transactions?date=2026-02-30`, admin))).data.message).toMatch(/calendar day/)
      expect((await failed(api.get(`/admin/sipay/transactions?date=${today()}&min_amount=abc`, admin))).data.message).toMatch(/min_amount/)

      await sandbox("faults", { operation: "getTransactions", kind: "http_500", times: 1 })
      const down = await failed(api.post(`/admin/sipay/transactions/lookup`, { date: today() }, admin))
      expect(down.status).toBe(400)
      expect(down.data.message).toMatch(/^Sipay getTransactions failed \[500\]: /)
      // A day no other test syncs: a previous test's late sale webhook may still sync today's ledger.
      const quietDay = gatewayDay(new Date(Date.now() - 20 * 86400_000))
      await sandbox("faults", { operation: "getTransactions", kind: "http_500", times: 1 })
      const syncDown = await failed(api.post(`/admin/sipay/transactions/sync`, { date: quietDay }, admin))
      expect(syncDown.status).toBe(400)
      expect(syncDown.data.message).toMatch(new RegExp(`^Syncing ${quietDay} failed: Sipay getTransactions failed: \\[500\\]`))
      const afterFailure = await lookup({ date: quietDay })
      expect(afterFailure.ledger).toMatchObject({ last_synced_at: null, last_error: expect.stringMatching(/getTransactions/) })
      // The gateway look-up is a POST: a GET asking for it is refused, and makes no gateway call.
      const viaGet = await failed(api.get(`/admin/sipay/transactions?date=${today()}&source=gateway`, admin))
      expect(viaGet.status).toBe(400)
      expect(viaGet.data.message).toMatch(/POST \/admin\/sipay\/transactions\/lookup/)
      for (const body of [{}, { date: "2026-02-30" }, { date: today(), min_amount: "abc" }, { date: today(), limit: 5 }]) {
        expect([body, (await failed(api.post(`/admin/sipay/transactions/lookup`, body, admin))).status]).toEqual([body, 400])
      }
      for (const query of ["&source=elsewhere", "&limit=0", "&limit=501", "&offset=-1", "&order=price"]) {
        expect([query, (await failed(api.get(`/admin/sipay/transactions?date=${today()}${query}`, admin))).status]).toEqual([query, 400])
      }
      expect((await failed(api.post(`/admin/sipay/transactions/sync`, { date: "2999-01-01" }, admin))).status).toBe(400)

      expect((await failed(api.get(`/admin/sipay/orders/order_unknown/payment`, admin))).status).toBe(404)
      expect((await failed(api.post(`/admin/sipay/orders/order_unknown/payment/refresh`, {}, admin))).status).toBe(404)
      expect((await failed(api.get(`/admin/sipay/transactions?date=${today()}`, {}))).status).toBe(401)

      const { order } = await purchase({ quantities: [1, 0] })
      await sandbox("faults", { operation: "checkstatus", kind: "http_500", times: 1 })
      const degraded = await orderPayment(order.id)
      expect(degraded).toMatchObject({ status: null, chargeback: false, invoice_id: expect.stringMatching(/_1$/) })
      expect(degraded.gateway_error).toMatch(/^Sipay checkstatus failed \[500\]: /)
      expect(degraded.attempts).toHaveLength(1)
      await sandbox("faults", { operation: "checkstatus", kind: "http_500", times: 1 })
      const refused = await failed(api.post(`/admin/sipay/orders/${order.id}/payment/refresh`, {}, admin))
      expect(refused.status).toBe(400)
      expect(refused.data.message).toMatch(/^Sipay checkstatus failed \[500\]: /)
      await clearSandboxFaults(stack)
      expect((await orderPayment(order.id, true)).status).toBe("Completed")
    })
  },
})
