import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { Modules, PaymentWebhookEvents } from "@medusajs/framework/utils"
import { seedStore, SeededStore } from "../harness/seed"
import { useSipayStack } from "../harness/stack"
import {
  callHostedPage,
  createCart,
  hostedPageUrl,
  issueThreeDForm,
  PAYING_CARD,
  payAtGateway,
  returnToStore,
  startPaymentSession,
  storeHeaders,
  waitFor,
} from "../harness/shopper"
import { signConfirmation } from "../../src/lib/checkout/confirmation"

jest.setTimeout(300 * 1000)

/**
 * Issue 16, point 2: one gateway confirmation per fact. The server's calls to the gateway are
 * counted by the sandbox (GET __sandbox/calls, token fetches left out): 2D checkout 1 (the payment,
 * whose conclusive answer settles it: issue 30), 2 when its answer is ambiguous, 3D return 1, the later sale webhook at most 1 more, and the hosted page's
 * installment options asked once per card BIN, not per page view.
 */
const stack = useSipayStack({ env: { SIPAY_AGRICULTURAL_INSTALLMENTS: "true" } })

/** Webhooks are processed by Medusa 5 s after they arrive (medusa-notes): budget for it. */
const WEBHOOK_SETTLE_MS = 8000

medusaIntegrationTestRunner({
  testSuite: ({ api, getContainer }) => {
    let store: SeededStore

    beforeEach(async () => {
      store = await seedStore(getContainer())
    })

    const link = () => stack.sandbox.link_base

    /** The merchant API calls the sandbox received since the last clear, token fetches left out. */
    async function calls(): Promise<Record<string, number>> {
      const body = (await (await fetch(`${link()}/__sandbox/calls`)).json()) as Record<string, number>
      delete body.token
      return body
    }

    async function clearCalls(): Promise<void> {
      expect((await fetch(`${link()}/__sandbox/calls`, { method: "DELETE" })).status).toBe(200)
    }

    async function deliveredWebhook(invoiceId: string) {
      return waitFor(async () => {
        const delivered = (await (await fetch(`${link()}/__sandbox/webhooks`)).json()) as any[]
        return delivered.find((w) => w.body.invoice_id === invoiceId && w.status === 200)
      }, 30000)
    }

    /**
     * After the sale webhook was delivered and Medusa handed it to its subscribers (5 s later): the
     * calls counted once they had time to make any.
     */
    async function callsAfterWebhook(invoiceId: string) {
      const handedOver = new Promise<void>((resolve) => {
        const seen = async (event: { data?: { payload?: { data?: Record<string, unknown> } } }) => {
          if (event.data?.payload?.data?.invoice_id === invoiceId) resolve()
        }
        getContainer().resolve(Modules.EVENT_BUS).subscribe(PaymentWebhookEvents.WebhookReceived, seen as never)
      })
      await deliveredWebhook(invoiceId)
      await handedOver
      await new Promise((resolve) => setTimeout(resolve, WEBHOOK_SETTLE_MS))
      return calls()
    }

    async function attemptOfOrder(orderId: string) {
      const [attempt] = await (getContainer().resolve("sipay") as any).listPaymentAttempts({ order_id: orderId })
      return attempt
    }

    async function payDirect(sessionId: string, cartId: string) {
      return api.post(
        `/store/sipay/payment-sessions/${sessionId}/pay-2d`,
        {
          cart_id: cartId,
          installments_number: 1,
          card: { holder_name: PAYING_CARD.cc_holder_name, number: PAYING_CARD.cc_no, expiry_month: PAYING_CARD.expiry_month, expiry_year: PAYING_CARD.expiry_year, cvv: PAYING_CARD.cvv },
        },
        storeHeaders(store)
      )
    }

    it("2D checkout: one gateway call (the payment's conclusive answer settles it); the later webhook of the paid order none", async () => {
      const cart = await createCart(api, store)
      const { session } = await startPaymentSession(api, store, cart.id, "pp_sipay-2d_sipay")
      await clearCalls()
      const paid = await payDirect(session.id, cart.id)
      expect(paid.data.order_id).toMatch(/^order_/)
      expect(await calls()).toEqual({ paySmart2D: 1 })

      const attempt = await attemptOfOrder(paid.data.order_id)
      expect(attempt).toMatchObject({ status: "paid", masked_card: expect.stringMatching(/^\d{6}\*+\d{4}$/) })
      // The direct attempt entered the session data once, when it was settled, with its capture mode.
      const [paidSession] = await getContainer().resolve(Modules.PAYMENT).listPaymentSessions({ id: session.id })
      expect(paidSession.data).toMatchObject({ invoice_ids: [attempt.invoice_id], intended_transaction_type: "Auth", invoice_id: attempt.invoice_id, status: "captured", gateway_confirmation: null })
      // What the order's payment recorded from the answer is what the gateway holds.
      const [payment] = await getContainer().resolve(Modules.PAYMENT).listPayments({ payment_session_id: session.id })
      const gateway = await (getContainer().resolve("sipay") as any).getClient().checkStatus(attempt.invoice_id)
      expect(gateway).toMatchObject({ status: "Completed", transactionType: "Auth" })
      expect(payment.data).toMatchObject({ invoice_id: attempt.invoice_id, status: "captured", captured_amount: gateway.transactionAmount, gateway_order_no: gateway.orderId, installments: gateway.installment })
      expect(attempt.gateway_order_no).toBe(gateway.orderId)
      // This test's own checkstatus; the webhook adds none.
      expect(await callsAfterWebhook(attempt.invoice_id)).toEqual({ paySmart2D: 1, checkstatus: 1 })
    })

    it("2D checkout whose answer is ambiguous (its result hash does not decrypt): checkstatus decides, one order", async () => {
      const cart = await createCart(api, store)
      const { session } = await startPaymentSession(api, store, cart.id, "pp_sipay-2d_sipay")
      const armed = await fetch(`${link()}/__sandbox/faults`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ operation: "paySmart2D", kind: "bad_result_hash", times: 1 }) })
      expect(armed.status).toBe(200)
      await clearCalls()
      const paid = await payDirect(session.id, cart.id)
      expect(paid.data.order_id).toMatch(/^order_/)
      expect(await calls()).toEqual({ paySmart2D: 1, checkstatus: 1 })
      expect(await attemptOfOrder(paid.data.order_id)).toMatchObject({ status: "paid" })
    })

    it("3D checkout: the return costs one confirmation; the later webhook of the paid order none; the payment is recorded as before", async () => {
      const cart = await createCart(api, store)
      const { session } = await startPaymentSession(api, store, cart.id)
      const form = await issueThreeDForm(api, store, session.id)
      const result = await payAtGateway(form, PAYING_CARD)
      await clearCalls()
      const landing = await returnToStore(result)
      const orderId = landing.pathname.split("/").pop()!
      expect(orderId).toMatch(/^order_/)
      expect(await calls()).toEqual({ checkstatus: 1 })

      // What authorizePayment recorded without asking again is what the gateway holds.
      const [payment] = await getContainer().resolve(Modules.PAYMENT).listPayments({ payment_session_id: session.id })
      expect(payment.data).toMatchObject({ invoice_id: form.invoice_id, transaction_type: "Auth", status: "captured", captured_amount: Number(cart.total).toFixed(2), gateway_confirmation: null })
      const gateway = await (getContainer().resolve("sipay") as any).getClient().checkStatus(form.invoice_id)
      expect(payment.data).toMatchObject({ gateway_order_no: gateway.orderId, installments: gateway.installment ?? null })

      // The return's confirmation and this test's own checkstatus; the webhook adds none.
      expect(await callsAfterWebhook(form.invoice_id)).toEqual({ checkstatus: 2 })
    })

    it("hosted page: getpos and installments are asked on the first view of a card BIN, not on the next page views", async () => {
      const views: { sessionId: string; url: URL }[] = []
      for (let i = 0; i < 3; i++) {
        const cart = await createCart(api, store)
        const { session } = await startPaymentSession(api, store, cart.id)
        views.push({ sessionId: session.id, url: new URL(await hostedPageUrl(api, store, session.id)) })
      }
      await clearCalls()
      for (const [index, view] of views.entries()) {
        const page = await fetch(view.url)
        expect(page.status).toBe(200)
        expect((await callHostedPage(view.url.href, "content", { lang: "tr" })).status).toBe(200)
        const offer = await callHostedPage(view.url.href, "installments", { bin: "450803" })
        expect(offer.status).toBe(200)
        expect((await offer.json()).installments.length).toBeGreaterThan(0)
        // Counted since the first view: the later views add nothing.
        expect({ view: index + 1, calls: await calls() }).toEqual({ view: index + 1, calls: { getpos: 1, installments: 1 } })
      }
      // Another card is asked once too.
      const other = views[0]
      expect((await callHostedPage(other.url.href, "installments", { bin: "540667" })).status).toBe(200)
      expect(await calls()).toEqual({ getpos: 2, installments: 2 })
    })

    it("a gateway confirmation is kept only when the server signed it: a planted one is dropped at initiate and at update", async () => {
      const cart = await createCart(api, store)
      const invoiceId = "payses_01PLANTED000000000000000000_1"
      const fields = {
        invoice_id: invoiceId,
        status: "captured" as const,
        amount: Number(cart.total).toFixed(2),
        captured_amount: Number(cart.total).toFixed(2),
        currency_code: "TRY",
        transaction_type: "Auth",
        gateway_order_no: "1",
        installments: 1,
      }
      const forged = signConfirmation("not-the-app-secret", fields)
      const { session } = await startPaymentSession(api, store, cart.id, "pp_sipay_sipay", { gateway_confirmation: forged, settling_invoice_id: invoiceId })
      const payments = getContainer().resolve(Modules.PAYMENT)
      const [stored] = await payments.listPaymentSessions({ id: session.id })
      expect(stored.data).toMatchObject({ gateway_confirmation: null, settling_invoice_id: null })

      const update = (data: Record<string, unknown>) =>
        payments.updatePaymentSession({ id: session.id, amount: stored.amount, currency_code: stored.currency_code, data: { ...stored.data, ...data } })
      // A marker whose fields were changed after signing (the amount lowered) does not verify either.
      const signed = signConfirmation(stack.sandbox.merchant.app_secret, fields)
      for (const planted of [forged, { ...signed, amount: "1.00" }, { ...signed, expires_at: signed.expires_at + 3600_000 }, "x"]) {
        expect((await update({ gateway_confirmation: planted })).data.gateway_confirmation).toBeNull()
      }
      // The settle workflow's own update (signed with the app secret) keeps it.
      expect((await update({ gateway_confirmation: signed })).data.gateway_confirmation).toEqual(signed)
    })
  },
})
