import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { WorkflowManager } from "@medusajs/framework/orchestration"
import { addProducts, seedStoreWithAdmin, SeededStore } from "../harness/seed"
import { clearSandboxFaults, useSipayStack } from "../harness/stack"
import { cartIdOfSession, createCart, DECLINING_CARD, issueThreeDForm, PAYING_CARD, payAtGateway, returnToStore, startPaymentSession, storeHeaders, waitFor } from "../harness/shopper"
import reconcileSipayAttempts from "../../src/jobs/sipay-reconcile-attempts"
import watchSipayPreAuthorizations from "../../src/jobs/sipay-pre-authorizations"
import { recordOutcome } from "../harness/reliability"
import { SHOPPER_MESSAGES } from "../../src/lib/shopper-messages"
import { RECURRING_CHARGE_RECORDED_EVENT } from "../../src/workflows/record-recurring-charge"

jest.setTimeout(300 * 1000)

// Pre-authorization mode, reconciliation of anything pending, a short gateway timeout for the timeout case.
const stack = useSipayStack({ env: { SIPAY_CAPTURE: "false", SIPAY_RECONCILE_AFTER_SECONDS: "0", SIPAY_TIMEOUT_MS: "2500" } })

medusaIntegrationTestRunner({
  testSuite: ({ api, getContainer }) => {
    let store: SeededStore
    let admin: { headers: Record<string, string> }

    beforeEach(async () => {
      ;({ store, admin } = await seedStoreWithAdmin(getContainer(), api))
    })
    afterEach(() => clearSandboxFaults(stack))

    const sipay = () => getContainer().resolve("sipay") as any
    const query = () => getContainer().resolve(ContainerRegistrationKeys.QUERY)
    const today = () => new Date(Date.now() + 3 * 3600 * 1000).toISOString().slice(0, 10)

    async function fault(operation: string, kind: string, times = 1, ms?: number) {
      const response = await fetch(`${stack.sandbox.link_base}/__sandbox/faults`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ operation, kind, times, ...(ms ? { ms } : {}) }),
      })
      expect(response.status).toBeLessThan(300)
    }

    async function orderOfCart(cartId: string) {
      const { data } = await query().graph({
        entity: "cart",
        fields: ["completed_at", "order.id", "order.total", "order.payment_collections.payments.*", "order.payment_collections.payments.captures.*", "order.payment_collections.payments.refunds.*"],
        filters: { id: cartId },
      })
      return (data[0] as any)?.order ?? null
    }

    async function orderCount(): Promise<number> {
      return (await query().graph({ entity: "order", fields: ["id"] })).data.length
    }

    async function preAuthorizedOrder() {
      const cart = await createCart(api, store)
      const { session } = await startPaymentSession(api, store, cart.id)
      const form = await issueThreeDForm(api, store, session.id)
      expect(form.fields.transaction_type).toBe("PreAuth")
      const landing = await returnToStore(await payAtGateway(form))
      expect(landing.pathname).toMatch(/order_/)
      const order = await orderOfCart(cart.id)
      return { cart, order, payment: order.payment_collections[0].payments[0], invoiceId: form.invoice_id }
    }

    async function saleRecord(invoiceId: string) {
      const [record] = await sipay().getClient().getTransactions({ date: today(), invoiceId })
      return record
    }

    it("with the job schedules off, Medusa schedules neither job: this suite runs them when a scenario needs them", () => {
      expect(process.env.SIPAY_RECONCILE_SCHEDULE).toBe("off")
      expect(WorkflowManager.getWorkflow("job-sipay-reconcile-attempts")).toBeUndefined()
      expect(WorkflowManager.getWorkflow("job-sipay-pre-authorizations")).toBeUndefined()
    })

    it("3D PreAuth ends in an order with an authorized payment, nothing captured", async () => {
      const { payment, invoiceId } = await preAuthorizedOrder()
      expect(payment.captured_at).toBeFalsy()
      expect(payment.data).toMatchObject({ invoice_id: invoiceId, transaction_type: "Pre-Authorization" })
      const gateway = await sipay().getClient().checkStatus(invoiceId)
      expect(gateway).toMatchObject({ status: "Completed", transactionType: "Pre-Authorization" })
    })

    it("PreAuth, full capture from the admin API, then a partial and a full refund, the sandbox's records matching Medusa's; a refund beyond what is left is refused", async () => {
      const { cart, payment, invoiceId } = await preAuthorizedOrder()
      const total = Number(cart.total).toFixed(2)
      const captured = await api.post(`/admin/payments/${payment.id}/capture`, {}, admin)
      expect(captured.data.payment.captured_at).toBeTruthy()
      await waitFor(async () => (await sipay().listPaymentAttempts({ invoice_id: invoiceId }))[0].status === "paid", 10000)
      expect(await sipay().getClient().checkStatus(invoiceId)).toMatchObject({ status: "Completed", transactionType: "Auth", transactionAmount: total })

      await api.post(`/admin/payments/${payment.id}/refund`, { amount: 100 }, admin)
      let record = await saleRecord(invoiceId)
      expect(Number(record.total_refunded_amount)).toBe(100)
      expect(record.refund_history).toHaveLength(1)

      await fault("refund", "http_500")
      const refused = await api.post(`/admin/payments/${payment.id}/refund`, { amount: 10 }, admin).catch((e: any) => e.response)
      expect(refused.status).toBe(400)
      expect(refused.data.message).toMatch(/^Sipay refund failed \[500\]: /)
      expect((await saleRecord(invoiceId)).refund_history).toHaveLength(1)

      const beyond = await api.post(`/admin/payments/${payment.id}/refund`, { amount: Number(total) }, admin).catch((e: any) => e.response)
      expect(beyond.status).toBe(400)
      expect((await saleRecord(invoiceId)).refund_history).toHaveLength(1)

      const rest = (Math.round(Number(total) * 100) - 10000) / 100
      await api.post(`/admin/payments/${payment.id}/refund`, { amount: rest }, admin)
      record = await saleRecord(invoiceId)
      expect(Number(record.total_refunded_amount)).toBe(Number(total))
      expect(record.refund_history).toHaveLength(2)
      const order = await orderOfCart(cart.id)
      const refunds = order.payment_collections[0].payments[0].refunds
      expect(refunds.map((r: any) => Number(r.amount)).sort((a: number, b: number) => a - b)).toEqual([100, rest].sort((a, b) => a - b))
    })

    it("partial capture through the plugin's route takes that amount at the gateway and releases the rest", async () => {
      const { payment, invoiceId } = await preAuthorizedOrder()
      const response = await api.post(`/admin/sipay/payments/${payment.id}/capture`, { amount: "200.00" }, admin)
      expect(response.status).toBe(200)
      expect(await sipay().getClient().checkStatus(invoiceId)).toMatchObject({ status: "Completed", transactionType: "Auth", transactionAmount: "200.00" })
      const [medusaPayment] = await getContainer().resolve(Modules.PAYMENT).listPayments({ id: payment.id }, { relations: ["captures"] })
      expect(medusaPayment.captures.map((c: any) => Number(c.amount))).toEqual([200])
      const more = await api.post(`/admin/payments/${payment.id}/capture`, { amount: 10 }, admin).catch((e: any) => e.response)
      expect(more.status).toBeGreaterThanOrEqual(400)
      expect(JSON.stringify(more.data)).toMatch(/already captured at the gateway/)
      const tooMuch = await api.post(`/admin/sipay/payments/${payment.id}/capture`, { amount: "5.00" }, admin).catch((e: any) => e.response)
      expect(tooMuch.status).toBeGreaterThanOrEqual(400)
    })

    it("a partial capture from Medusa's own route takes exactly that amount at the gateway (not the whole reservation) and releases the rest", async () => {
      const { payment, invoiceId } = await preAuthorizedOrder()
      const response = await api.post(`/admin/payments/${payment.id}/capture`, { amount: 120 }, admin)
      expect(response.status).toBe(200)
      expect(await sipay().getClient().checkStatus(invoiceId)).toMatchObject({ status: "Completed", transactionType: "Auth", transactionAmount: "120.00" })
      const [medusaPayment] = await getContainer().resolve(Modules.PAYMENT).listPayments({ id: payment.id }, { relations: ["captures"] })
      expect(medusaPayment.captures.map((c: any) => Number(c.amount))).toEqual([120])
      // The rest was released at the gateway: a second capture from Medusa is refused and records nothing.
      const more = await api.post(`/admin/payments/${payment.id}/capture`, { amount: 10 }, admin).catch((e: any) => e.response)
      expect(more.status).toBeGreaterThanOrEqual(400)
      expect(JSON.stringify(more.data)).toMatch(/already captured at the gateway \(120\.00 TRY\)/)
      const [after] = await getContainer().resolve(Modules.PAYMENT).listPayments({ id: payment.id }, { relations: ["captures"] })
      expect(after.captures.map((c: any) => Number(c.amount))).toEqual([120])
    })

    it("the same refund retried after a dropped response refunds once", async () => {
      const { payment, invoiceId } = await preAuthorizedOrder()
      await api.post(`/admin/payments/${payment.id}/capture`, {}, admin)
      await fault("refund", "charge_then_drop")
      const first = await api.post(`/admin/payments/${payment.id}/refund`, { amount: 50 }, admin)
      expect(first.status).toBe(200)
      expect((await saleRecord(invoiceId)).refund_history).toHaveLength(1)

      // Had the provider failed, Medusa would have deleted its refund row and retried with a new id:
      // that state, replayed, must not refund twice.
      const paymentModule = getContainer().resolve(Modules.PAYMENT)
      const [withRefunds] = await paymentModule.listPayments({ id: payment.id }, { relations: ["refunds"] })
      await paymentModule.deleteRefunds(withRefunds.refunds.map((r: any) => r.id))
      await paymentModule.updatePayment({ id: payment.id, data: { ...withRefunds.data, refunded_amount: null } } as never)
      const retried = await api.post(`/admin/payments/${payment.id}/refund`, { amount: 50 }, admin)
      expect(retried.status).toBe(200)
      const record = await saleRecord(invoiceId)
      expect(record.refund_history).toHaveLength(1)
      expect(Number(record.total_refunded_amount)).toBe(50)
      recordOutcome("charge_then_drop", "refund", "one refund at the gateway; a retry is recognised, not sent")
    })

    it("cancelling the order cancels its pre-authorization", async () => {
      const { order, payment, invoiceId } = await preAuthorizedOrder()
      await api.post(`/admin/orders/${order.id}/cancel`, {}, admin)
      expect(await sipay().getClient().checkStatus(invoiceId)).toMatchObject({ status: "Failed", transactionType: "Pre-Authorization" })
      const [canceled] = await getContainer().resolve(Modules.PAYMENT).listPayments({ id: payment.id })
      expect(canceled.canceled_at).toBeTruthy()
    })

    it("a failed cancel is retried by the pre-authorization job", async () => {
      const { order, payment, invoiceId } = await preAuthorizedOrder()
      await fault("confirmPayment", "http_500", 1)
      await api.post(`/admin/orders/${order.id}/cancel`, {}, admin)
      expect(await sipay().getClient().checkStatus(invoiceId)).toMatchObject({ status: "Completed", transactionType: "Pre-Authorization" })
      const report = await watchSipayPreAuthorizations(getContainer())
      expect(report.cancelled.map((c) => c.invoice_id)).toEqual([invoiceId])
      expect(await sipay().getClient().checkStatus(invoiceId)).toMatchObject({ status: "Failed" })
      const [canceled] = await getContainer().resolve(Modules.PAYMENT).listPayments({ id: payment.id })
      expect(canceled.canceled_at).toBeTruthy()
      recordOutcome("http_500 on confirmPayment", "order cancel", "cancel logged by Medusa, retried by the job: pre-authorization cancelled")
    })

    it("pre-authorizations near the 20-day deadline are reported, and the gateway's cancellation after it is recorded", async () => {
      const { payment, invoiceId } = await preAuthorizedOrder()
      const [attempt] = await sipay().listPaymentAttempts({ invoice_id: invoiceId })
      expect(attempt.status).toBe("authorized")
      await sipay().updatePaymentAttempts({ id: attempt.id, completed_at: new Date(Date.now() - 18 * 24 * 3600 * 1000) })
      const near = await watchSipayPreAuthorizations(getContainer())
      expect(near.expiring).toEqual([expect.objectContaining({ invoice_id: invoiceId, days_left: 2 })])

      await fetch(`${stack.sandbox.link_base}/__sandbox/clock`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ advance_seconds: 21 * 24 * 3600 }) })
      const after = await watchSipayPreAuthorizations(getContainer())
      expect(after.cancelled).toEqual([expect.objectContaining({ invoice_id: invoiceId })])
      expect((await sipay().listPaymentAttempts({ invoice_id: invoiceId }))[0].status).toBe("cancelled")
      const [canceled] = await getContainer().resolve(Modules.PAYMENT).listPayments({ id: payment.id })
      expect(canceled.canceled_at).toBeTruthy()
      recordOutcome("20 days pass", "pre-authorization", "gateway cancels; the job records it and cancels the Medusa payment")
    })

    /** A monthly subscription of three payments bought by 2D with `cardNumber`, its plan opened; `charges` lists what the plugin recorded. */
    async function subscription(cardNumber = PAYING_CARD.cc_no) {
      const [plan] = await addProducts(getContainer(), store, [
        { title: "Aylık kahve / Monthly coffee", price: 120, metadata: { sipay_recurring: { cycle: "M", interval: 1, payment_number: 3 } } },
      ])
      const cart = await createCart(api, { ...store, products: [plan] }, [1])
      const { session } = await startPaymentSession(api, store, cart.id, "pp_sipay-2d_sipay")
      const paid = await api.post(
        `/store/sipay/payment-sessions/${session.id}/pay-2d`,
        { cart_id: cart.id, installments_number: 1, card: { holder_name: PAYING_CARD.cc_holder_name, number: cardNumber, expiry_month: PAYING_CARD.expiry_month, expiry_year: PAYING_CARD.expiry_year, cvv: PAYING_CARD.cvv } },
        storeHeaders(store)
      )
      const order = await orderOfCart(cart.id)
      // A recurring plan opens once money is taken: the pre-authorization is captured first.
      await api.post(`/admin/payments/${order.payment_collections[0].payments[0].id}/capture`, {}, admin)
      const clock = `${stack.sandbox.link_base}/__sandbox/clock`
      const advanceSeconds = (seconds: number) =>
        fetch(clock, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ advance_seconds: seconds }) })
      const [attempt] = await sipay().listPaymentAttempts({ order_id: paid.data.order_id })
      return {
        advance: (days: number) => advanceSeconds(days * 24 * 3600),
        /** Just past the plan's next charge date, as the gateway gives it (months differ in length). */
        advanceToNextCharge: async () => {
          const { plan } = await sipay().getClient().queryRecurringPlan(attempt.gateway_order_no)
          const next = Date.parse(`${String(plan!.next_action_date).replace(" ", "T")}+03:00`)
          const { now } = await (await fetch(clock)).json()
          await advanceSeconds(Math.ceil((next - Date.parse(now)) / 1000) + 60)
        },
        charges: () => sipay().listRecurringCharges({ order_id: paid.data.order_id }, { order: { recurring_number: "ASC" } }),
      }
    }

    it("recurring charges, as the sandbox clock passes their dates, are each recorded once after the gateway confirms them", async () => {
      const { advance, charges } = await subscription()

      await advance(32)
      await waitFor(async () => (await charges()).length === 1, 15000)
      await advance(31)
      await waitFor(async () => (await charges()).length === 2, 15000)
      const recorded = await charges()
      expect(recorded.map((c: any) => [c.recurring_number, Number(c.amount), c.status])).toEqual([
        [2, 120, "Completed"],
        [3, 120, "Completed"],
      ])

      // The same notification again, and one with a wrong merchant key, change nothing.
      const log: any[] = await (await fetch(`${stack.sandbox.link_base}/__sandbox/webhooks`)).json()
      const delivered = log.find((w) => w.kind === "recurring" && w.status === 200)
      const again = await fetch(delivered.url, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(delivered.body).toString() })
      expect(again.status).toBe(200)
      const forged = await fetch(delivered.url, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ ...delivered.body, merchant_key: "not-the-key", recurring_number: "4" }).toString(),
      })
      expect(forged.status).toBeGreaterThanOrEqual(400)
      expect(await charges()).toHaveLength(2)
      recordOutcome("duplicate and forged", "recurring webhook", "each charge recorded once; a wrong merchant key is refused")
    })

    it("a declined recurring charge is recorded as failed, then, when the gateway's retry succeeds, the same record becomes completed; each change is announced", async () => {
      const announced: any[] = []
      getContainer().resolve(Modules.EVENT_BUS).subscribe(RECURRING_CHARGE_RECORDED_EVENT, async (event: any) => {
        announced.push(event.data)
      })
      const { advance, advanceToNextCharge, charges } = await subscription("4155140000000009")
      await advanceToNextCharge()
      await waitFor(async () => (await charges()).length === 1, 15000)
      const [declined] = await charges()
      expect(declined).toMatchObject({ recurring_number: 2, status: "Failed", attempts: 1 })

      await advance(1)
      await waitFor(async () => (await charges())[0].status === "Completed", 15000)
      const [retried] = await charges()
      expect(retried).toMatchObject({ id: declined.id, recurring_number: 2, status: "Completed", attempts: 2 })
      expect(retried.gateway_order_id).not.toBe(declined.gateway_order_id)
      await waitFor(async () => announced.length === 2, 5000)
      expect(announced.map((event) => [event.id, event.recurring_number, event.status, event.attempts])).toEqual([
        [declined.id, 2, "Failed", 1],
        [declined.id, 2, "Completed", 2],
      ])

      // The first try's webhook, delivered late, does not turn the charge back.
      const log: any[] = await (await fetch(`${stack.sandbox.link_base}/__sandbox/webhooks`)).json()
      const first = log.find((w) => w.kind === "recurring" && w.body.status === "Failed" && w.status === 200)
      await fetch(first.url, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(first.body).toString() })
      expect((await charges())[0]).toMatchObject({ status: "Completed", attempts: 2 })
      recordOutcome("declined, then retried", "recurring charge", "one record per charge: failed, then completed when the retry succeeds")
    })

    describe("faults", () => {
      async function directSession() {
        const cart = await createCart(api, store)
        const { session } = await startPaymentSession(api, store, cart.id, "pp_sipay-2d_sipay")
        return { cart, session }
      }
      function payDirect(sessionId: string) {
        return api
          .post(
            `/store/sipay/payment-sessions/${sessionId}/pay-2d`,
            { cart_id: cartIdOfSession(sessionId), installments_number: 1, card: { holder_name: PAYING_CARD.cc_holder_name, number: PAYING_CARD.cc_no, expiry_month: PAYING_CARD.expiry_month, expiry_year: PAYING_CARD.expiry_year, cvv: PAYING_CARD.cvv } },
            storeHeaders(store)
          )
          .catch((error: any) => error.response)
      }

      function paymentStatus(sessionId: string, cartId: string) {
        return api.post(`/store/sipay/payment-sessions/${sessionId}/status`, { cart_id: cartId }, { headers: { ...storeHeaders(store).headers, "accept-language": "en" } }).catch((error: any) => error.response)
      }
      async function checkstatusCalls(): Promise<number> {
        return ((await (await fetch(`${stack.sandbox.link_base}/__sandbox/calls`)).json()) as Record<string, number>).checkstatus ?? 0
      }

      it("'charge then drop the response' on 2D ends, after reconciliation, in exactly one order", async () => {
        const { cart, session } = await directSession()
        await fault("paySmart2D", "charge_then_drop")
        const response = await payDirect(session.id)
        expect(response.status).toBe(200)
        expect(response.data.status).toBe("authorized")
        await reconcileSipayAttempts(getContainer())
        expect(await orderCount()).toBe(1)
        expect((await orderOfCart(cart.id)).id).toBe(response.data.order_id)
        recordOutcome("charge_then_drop", "2D payment", "answer lost; checkstatus finds the charge: exactly one order")
      })

      it("a lost 3D redirect ends, after reconciliation, in exactly one order", async () => {
        const cart = await createCart(api, store)
        const { session } = await startPaymentSession(api, store, cart.id)
        const form = await issueThreeDForm(api, store, session.id)
        await fault("sale_webhook", "delay", 1, 120000)
        const lost = await payAtGateway(form)
        expect(await orderOfCart(cart.id)).toBeNull()
        const run = await reconcileSipayAttempts(getContainer())
        expect(run.statuses.authorized).toBe(1)
        expect(await orderCount()).toBe(1)
        const late = await returnToStore(lost)
        expect(late.pathname.split("/").pop()).toBe((await orderOfCart(cart.id)).id)
        expect(await orderCount()).toBe(1)
        recordOutcome("redirect lost, webhook delayed", "3D payment", "reconciliation job completes the cart: exactly one order; the late redirect lands on it")
      })

      it("HTTP 500s and timeouts give clear errors and no order", async () => {
        const { cart, session } = await directSession()
        await fault("paySmart2D", "http_500")
        const failed = await payDirect(session.id)
        expect(failed.status).toBe(402)
        // The gateway decided nothing: "try later", never its error text.
        expect(failed.data).toMatchObject({ code: "try_later", message: SHOPPER_MESSAGES.try_later.en })
        expect(await orderOfCart(cart.id)).toBeNull()
        recordOutcome("http_500", "2D payment", "clear error (402), no charge, no order")

        await fault("checkstatus", "http_500", 4)
        const form = await issueThreeDForm(api, store, (await startPaymentSession(api, store, (await createCart(api, store)).id)).session.id)
        const landing = await returnToStore(await payAtGateway(form))
        expect(landing.searchParams.get("error")).toMatch(/could not be confirmed yet/)
        expect(await orderCount()).toBe(0)
        recordOutcome("http_500 on checkstatus", "3D return", "the shopper is told the payment is not confirmed yet; no order until the gateway answers")
        await clearSandboxFaults(stack)

        const timed = await directSession()
        await fault("paySmart2D", "latency", 1, 4000)
        const slow = await payDirect(timed.session.id)
        // The answer timed out: "confirming your payment" (202), never a failure.
        expect(slow.status).toBe(202)
        expect(slow.data).toMatchObject({ status: "confirming", order_id: null, code: "payment_confirming", message: SHOPPER_MESSAGES.payment_confirming.en })
        expect(slow.data.invoice_id).toMatch(new RegExp(`^${timed.session.id}_`))
        expect(await orderOfCart(timed.cart.id)).toBeNull()
        // The shopper's page asks the status route until the late charge is found there: exactly one order.
        const outcome = await waitFor(async () => {
          const answer = await paymentStatus(timed.session.id, timed.cart.id)
          expect(answer.status).toBe(200)
          expect(["confirming", "paid"]).toContain(answer.data.status)
          return answer.data.status === "paid" ? answer.data : null
        }, 40000, 1000)
        expect(outcome.order_id).toBe((await orderOfCart(timed.cart.id))?.id)
        expect(outcome.order_id).toMatch(/^order_/)
        recordOutcome("timeout (latency > client timeout)", "2D payment", "202 confirming, no failure shown; the status route finds the late charge: one order")
      })

      it("the status route: only the cart's holder asks; a 3D payment whose return and webhook were lost is settled on the spot when the shopper reopens the hosted page, one gateway check per attempt per 10 s", async () => {
        const cart = await createCart(api, store)
        const { session } = await startPaymentSession(api, store, cart.id)
        const other = await createCart(api, store)
        // No proof, or another cart's: the answer of an unknown session.
        expect((await paymentStatus(session.id, other.id)).status).toBe(404)
        expect((await api.post(`/store/sipay/payment-sessions/${session.id}/status`, {}, storeHeaders(store)).catch((error: any) => error.response)).status).toBe(400)
        expect((await paymentStatus(session.id, cart.id)).data).toEqual({ status: "none", order_id: null, code: null, message: null })

        const form = await issueThreeDForm(api, store, session.id)
        // A form issued, not posted: the gateway knows nothing, the shopper may pay.
        expect((await paymentStatus(session.id, cart.id)).data).toMatchObject({ status: "none", order_id: null })
        const firstCheckAt = Date.now()
        await fault("sale_webhook", "drop")
        await payAtGateway(form) // paid at the bank page; the browser never comes back, the webhook is lost
        expect(await orderOfCart(cart.id)).toBeNull()

        // Asked again within 10 s: no gateway call, "confirming" (never "pay again").
        const before = await checkstatusCalls()
        const limited = await paymentStatus(session.id, cart.id)
        expect(limited.data).toEqual({ status: "confirming", order_id: null, code: "payment_confirming", message: SHOPPER_MESSAGES.payment_confirming.en })
        expect(await checkstatusCalls()).toBe(before)

        // Past the 10 s the shopper reopens the hosted page: one check settles it on the spot, the page says it is paid.
        const { data: hosted } = await api.post(`/store/sipay/payment-sessions/${session.id}/hosted-page`, { cart_id: cart.id }, storeHeaders(store))
        const token = new URLSearchParams(new URL(hosted.url).hash.replace(/^#/, "")).get("token")
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, firstCheckAt + 10500 - Date.now())))
        const page = await api.post(`/sipay/checkout/${session.id}/content`, { token, lang: "en" })
        expect(page.data.html).toContain('id="paid"')
        expect(await orderCount()).toBe(1)
        // The status route answers from the record now: the order, no gateway call.
        const settledAt = await checkstatusCalls()
        const paid = await paymentStatus(session.id, cart.id)
        expect(paid.data).toMatchObject({ status: "paid", code: null })
        expect(paid.data.order_id).toBe((await orderOfCart(cart.id)).id)
        expect(await checkstatusCalls()).toBe(settledAt)
        recordOutcome("return and webhook lost", "3D payment", "the shopper who comes back (hosted page, status route) gets the order on the spot")

        // Declined at the bank page, return and webhook lost: the shopper whose look settles it, and one asking
        // at the same moment, read the card's decline (never "try later"), and may pay again.
        const declinedCart = await createCart(api, store)
        const declinedSession = (await startPaymentSession(api, store, declinedCart.id)).session
        const declinedForm = await issueThreeDForm(api, store, declinedSession.id)
        await fault("sale_webhook", "drop")
        await payAtGateway(declinedForm, DECLINING_CARD)
        const looks = await Promise.all([paymentStatus(declinedSession.id, declinedCart.id), paymentStatus(declinedSession.id, declinedCart.id)])
        const settledLook = looks.find((look) => look.data.status === "failed")
        expect(settledLook?.data).toEqual({ status: "failed", order_id: null, code: "card_declined", message: SHOPPER_MESSAGES.card_declined.en })
        for (const look of looks) expect(look.data.code === "card_declined" || look.data.code === "payment_confirming").toBe(true)
        expect((await paymentStatus(declinedSession.id, declinedCart.id)).data).toMatchObject({ status: "failed", code: "card_declined" })
        expect(await orderOfCart(declinedCart.id)).toBeNull()
      })

      it("a duplicate and a delayed webhook change nothing", async () => {
        const cart = await createCart(api, store)
        const { session } = await startPaymentSession(api, store, cart.id)
        const form = await issueThreeDForm(api, store, session.id)
        await fault("sale_webhook", "duplicate")
        const landing = await returnToStore(await payAtGateway(form))
        const orderId = landing.pathname.split("/").pop()
        await waitFor(async () => {
          const log: any[] = await (await fetch(`${stack.sandbox.link_base}/__sandbox/webhooks`)).json()
          return log.filter((w) => w.body.invoice_id === form.invoice_id && w.status === 200).length >= 2
        }, 15000)
        await new Promise((resolve) => setTimeout(resolve, 8000))
        expect(await orderCount()).toBe(1)
        expect((await orderOfCart(cart.id)).id).toBe(orderId)
        recordOutcome("duplicate", "sale webhook", "one order")

        const second = await createCart(api, store)
        const { session: secondSession } = await startPaymentSession(api, store, second.id)
        const secondForm = await issueThreeDForm(api, store, secondSession.id)
        await fault("sale_webhook", "delay", 1, 3000)
        await returnToStore(await payAtGateway(secondForm))
        await new Promise((resolve) => setTimeout(resolve, 3000 + 8000))
        expect(await orderCount()).toBe(2)
        recordOutcome("delay", "sale webhook", "one order (the redirect made it; the late webhook changes nothing)")
      })

      it("a webhook whose payment session is gone (the cart changed) is given back, and never places another shopper's order", async () => {
        // Shopper B, first in the tables: paid (reserved) at the gateway; B's webhook is late and
        // B's browser has not come back yet, so B's cart must stay open until one of them arrives.
        const cartB = await createCart(api, store)
        const { session: sessionB } = await startPaymentSession(api, store, cartB.id)
        const formB = await issueThreeDForm(api, store, sessionB.id)
        await fault("sale_webhook", "delay", 1, 60000)
        const resultB = await payAtGateway(formB)
        const sessionBefore = await getContainer().resolve(Modules.PAYMENT).retrievePaymentSession(sessionB.id)

        // Shopper A pays, then changes the cart before Medusa handles the webhook (5 s later):
        // Medusa deletes A's payment session, so the webhook names a session that no longer exists.
        const cartA = await createCart(api, store, [1, 0])
        const { session: sessionA } = await startPaymentSession(api, store, cartA.id)
        const formA = await issueThreeDForm(api, store, sessionA.id)
        await payAtGateway(formA)
        await api.post(`/store/carts/${cartA.id}/line-items`, { variant_id: store.products[1].variantId, quantity: 1 }, storeHeaders(store))
        expect(await getContainer().resolve(Modules.PAYMENT).listPaymentSessions({ id: sessionA.id })).toEqual([])

        await waitFor(async () => (await sipay().listPaymentAttempts({ invoice_id: formA.invoice_id }))[0]?.status === "reversed", 20000)
        await new Promise((resolve) => setTimeout(resolve, 3000))
        expect(await orderCount()).toBe(0)
        expect((await orderOfCart(cartB.id))?.id).toBeUndefined()
        const sessionAfter = await getContainer().resolve(Modules.PAYMENT).retrievePaymentSession(sessionB.id)
        expect({ status: sessionAfter.status, data: sessionAfter.data }).toEqual({ status: sessionBefore.status, data: sessionBefore.data })
        // A's reservation was cancelled at the gateway.
        expect(await sipay().getClient().checkStatus(formA.invoice_id)).toMatchObject({ status: "Failed" })

        // B's own return places B's order.
        expect((await returnToStore(resultB)).pathname).toMatch(/order_/)
        expect(await orderCount()).toBe(1)
        recordOutcome("webhook for a deleted session", "sale webhook", "payment given back; no other cart touched")
      })
    })
  },
})
