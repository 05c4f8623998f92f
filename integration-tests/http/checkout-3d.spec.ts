import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { addProducts, seedStore, SeededStore } from "../harness/seed"
import { useSipayStack } from "../harness/stack"
import { SHOPPER_MESSAGES } from "../../src/lib/shopper-messages"
import { captureProcessOutput, tablesContaining } from "../harness/secrets"
import {
  cartIdOfSession,
  createCart,
  DECLINING_CARD,
  issueThreeDForm,
  PAYING_CARD,
  payAtGateway,
  returnToStore,
  startPaymentSession,
  storeHeaders,
  waitFor,
} from "../harness/shopper"

jest.setTimeout(300 * 1000)

const stack = useSipayStack({ env: { SIPAY_AGRICULTURAL_INSTALLMENTS: "true" } })
const output = captureProcessOutput()
const CVV = "739"
const CARD = { ...PAYING_CARD, cvv: CVV }

/** Webhooks are processed by Medusa 5 s after they arrive (medusa-notes): budget for it. */
const WEBHOOK_SETTLE_MS = 8000

medusaIntegrationTestRunner({
  testSuite: ({ api, getContainer, dbConnection }) => {
    let store: SeededStore

    beforeEach(async () => {
      store = await seedStore(getContainer())
    })

    afterEach(async () => {
      // Each test's rows, before the runner restores the database for the next one.
      const secrets = [PAYING_CARD.cc_no, DECLINING_CARD.cc_no, "5456160000000000", stack.sandbox.merchant.app_secret, stack.sandbox.merchant.merchant_key, `"cvv":"${CVV}"`, `cvv=${CVV}`]
      expect(await tablesContaining(dbConnection, secrets)).toEqual([])
    })

    beforeAll(() => output.tapLogger(getContainer().resolve("logger")))
    afterAll(() => output.stop())

    const query = () => getContainer().resolve(ContainerRegistrationKeys.QUERY)

    async function cartState(cartId: string) {
      const { data } = await query().graph({
        entity: "cart",
        fields: ["id", "completed_at", "order.id", "order.payment_collections.payments.*", "order.payment_collections.payments.captures.*"],
        filters: { id: cartId },
      })
      return data[0] as any
    }

    async function orderCount(): Promise<number> {
      const { data } = await query().graph({ entity: "order", fields: ["id"] })
      return data.length
    }

    async function attempt(invoiceId: string) {
      const [found] = await (getContainer().resolve("sipay") as any).listPaymentAttempts({ invoice_id: invoiceId })
      return found
    }

    async function gatewayStatus(invoiceId: string) {
      const { body } = await sandboxCheckStatus(invoiceId)
      return body
    }

    async function sandboxCheckStatus(invoiceId: string) {
      const client = getContainer().resolve("sipay") as any
      return { body: await client.getClient().checkStatus(invoiceId) }
    }

    async function sandboxWebhooks(): Promise<any[]> {
      return (await fetch(`${stack.sandbox.link_base}/__sandbox/webhooks`)).json()
    }

    async function paidCart() {
      const cart = await createCart(api, store)
      const { session } = await startPaymentSession(api, store, cart.id)
      const form = await issueThreeDForm(api, store, session.id)
      return { cart, session, form }
    }

    describe("3D checkout through the store API", () => {
      it("3D Auth checkout (form post, bank page, code, redirect) ends in an order with a captured payment", async () => {
        const { cart, session, form } = await paidCart()
        expect(form.invoice_id).toBe(`${session.id}_1`)
        expect(form.fields.total).toBe(Number(cart.total).toFixed(2))
        expect(form.fields.transaction_type).toBe("Auth")
        expect(form.fields).not.toHaveProperty("cc_no")

        const landing = await returnToStore(await payAtGateway(form, CARD))
        expect(landing.origin).toBe(stack.storefrontUrl)
        const orderId = landing.pathname.split("/").pop()!
        expect(orderId).toMatch(/^order_/)

        const paid = await cartState(cart.id)
        expect(paid.order.id).toBe(orderId)
        const payment = paid.order.payment_collections[0].payments[0]
        expect(payment.provider_id).toBe("pp_sipay_sipay")
        expect(payment.captured_at).toBeTruthy()
        expect(payment.data).toMatchObject({ invoice_id: form.invoice_id, transaction_type: "Auth" })
        expect(await attempt(form.invoice_id)).toMatchObject({ status: "paid", order_id: orderId, masked_card: expect.stringMatching(/^450803\*+4509$/) })
      })

      it("3D decline and a wrong SMS code bring the shopper back with the error, the cart stays open, and a new attempt then succeeds", async () => {
        const { cart, session, form } = await paidCart()
        const declined = await returnToStore(await payAtGateway(form, { ...DECLINING_CARD, cvv: CVV }))
        // The class's text only, never the gateway's reason (one text per card state would be an oracle).
        expect(declined.searchParams.get("error")).toBe(SHOPPER_MESSAGES.card_declined.en)
        expect(declined.searchParams.get("cart_id")).toBe(cart.id)
        expect((await cartState(cart.id)).completed_at).toBeFalsy()
        expect(await attempt(form.invoice_id)).toMatchObject({ status: "failed" })

        const wrongCode = await returnToStore(await payAtGateway(await issueThreeDForm(api, store, session.id), CARD, { smsCode: "000000" }))
        expect(wrongCode.searchParams.get("error")).toBe(SHOPPER_MESSAGES.card_declined.en)
        expect((await cartState(cart.id)).completed_at).toBeFalsy()

        const third = await issueThreeDForm(api, store, session.id)
        expect(third.invoice_id).toBe(`${session.id}_3`)
        const landing = await returnToStore(await payAtGateway(third, CARD))
        expect(landing.pathname).toMatch(/order_/)
        expect(await orderCount()).toBe(1)
      })

      it("two attempts open in two tabs, the first one paid: one order, and the second tab's payment is given back", async () => {
        const { cart, session, form: firstTab } = await paidCart()
        const secondTab = await issueThreeDForm(api, store, session.id)
        const first = await returnToStore(await payAtGateway(firstTab, CARD))
        expect(first.pathname).toMatch(/order_/)
        const second = await returnToStore(await payAtGateway(secondTab, CARD))
        expect(second.searchParams.get("error")).toMatch(/returned to your card/)
        expect(await orderCount()).toBe(1)
        expect(await attempt(secondTab.invoice_id)).toMatchObject({ status: "reversed" })
        const refunded = await gatewayStatus(secondTab.invoice_id)
        expect(refunded.totalRefundedAmount).toBe(Number(cart.total).toFixed(2))
        expect((await gatewayStatus(firstTab.invoice_id)).totalRefundedAmount).toBe("0.00")
      })

      it("webhook before redirect gives exactly one order, and the late redirect lands on it", async () => {
        const { cart, form } = await paidCart()
        const result = await payAtGateway(form, CARD)
        const completed = await waitFor(async () => (await cartState(cart.id)).completed_at && (await cartState(cart.id)), 30000)
        const landing = await returnToStore(result)
        expect(landing.pathname.split("/").pop()).toBe(completed.order.id)
        expect(await orderCount()).toBe(1)
      })

      it("redirect before webhook, then the same webhook three times: one order, captured once", async () => {
        const { cart, form } = await paidCart()
        const landing = await returnToStore(await payAtGateway(form, CARD))
        expect(landing.pathname).toMatch(/order_/)
        const delivered = await waitFor(async () => (await sandboxWebhooks()).find((w) => w.body.invoice_id === form.invoice_id && w.status === 200), 15000)
        for (let i = 0; i < 2; i++) {
          const again = await fetch(delivered.url, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(delivered.body).toString() })
          expect(again.status).toBe(200)
        }
        await new Promise((resolve) => setTimeout(resolve, WEBHOOK_SETTLE_MS))
        expect(await orderCount()).toBe(1)
        const payment = (await cartState(cart.id)).order.payment_collections[0].payments[0]
        expect(payment.captures).toHaveLength(1)
      })

      it("a shopper who closes the tab after paying still gets an order, from the webhook", async () => {
        const { cart, form } = await paidCart()
        await payAtGateway(form, CARD) // the result is never delivered
        const completed = await waitFor(async () => (await cartState(cart.id)).completed_at && (await cartState(cart.id)), 30000)
        expect(completed.order.id).toMatch(/^order_/)
        // The plugin's webhook subscriber placed the order and recorded the attempt.
        const recorded = await waitFor(async () => {
          const found = await attempt(form.invoice_id)
          return found.status === "paid" && found
        }, 15000)
        expect(recorded.order_id).toBe(completed.order.id)
      })

      it("a tampered redirect and a tampered webhook change nothing", async () => {
        const { cart, form } = await paidCart()
        await fetch(`${stack.sandbox.link_base}/__sandbox/faults`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ operation: "sale_webhook", kind: "bad_result_hash", times: 1 }),
        })
        const result = await payAtGateway(form, CARD)
        const forged = { ...result, fields: { ...result.fields, hash_key: result.fields.hash_key.replace(/.{8}$/, "AAAAAAA=") } }
        const landing = await returnToStore(forged)
        expect(landing.searchParams.get("error")).toMatch(/could not be verified/)
        // An unverified redirect learns nothing, not even the cart id.
        expect(landing.searchParams.get("cart_id")).toBe("")
        await waitFor(async () => (await sandboxWebhooks()).find((w) => w.body.invoice_id === form.invoice_id), 15000)
        await new Promise((resolve) => setTimeout(resolve, WEBHOOK_SETTLE_MS))
        expect((await cartState(cart.id)).completed_at).toBeFalsy()
        expect(await attempt(form.invoice_id)).toMatchObject({ status: "pending" })
        // The genuine redirect still works afterwards.
        expect((await returnToStore(result)).pathname).toMatch(/order_/)
      })

      it("storefront-supplied session data and form fields cannot change the amount, items or capture mode", async () => {
        const cart = await createCart(api, store)
        const planted = { amount: "1.00", currency_code: "USD", invoice_ids: ["payses_01AAAAAAAAAAAAAAAAAAAAAAAA_1"], invoice_id: "x", status: "authorized", transaction_type: "PreAuth", captured_amount: "1.00" }
        const { session } = await startPaymentSession(api, store, cart.id, "pp_sipay_sipay", planted)
        expect(session.data).toMatchObject({ amount: Number(cart.total).toFixed(2), currency_code: "TRY", invoice_ids: [], status: "pending", invoice_id: null, captured_amount: null })
        const refused = await api
          .post(`/store/sipay/payment-sessions/${session.id}/3d-form`, { installments_number: 1, total: "1.00", transaction_type: "PreAuth" }, storeHeaders(store))
          .catch((error: any) => error.response)
        expect(refused.status).toBe(400)
        const form = await issueThreeDForm(api, store, session.id)
        expect(form.fields.total).toBe(Number(cart.total).toFixed(2))
        expect(form.fields.transaction_type).toBe("Auth")
        const items = JSON.parse(form.fields.items) as { price: string; quantity: number }[]
        const sum = items.reduce((acc, item) => acc + Math.round(Number(item.price) * 100) * item.quantity, 0)
        expect(sum).toBe(Math.round(Number(cart.total) * 100))
      })

      it("a payment made on a form issued before the cart's total changed does not become an order: it is refunded and recorded", async () => {
        const { cart, form } = await paidCart()
        await api.post(`/store/carts/${cart.id}/line-items`, { variant_id: store.products[2].variantId, quantity: 1 }, storeHeaders(store))
        const landing = await returnToStore(await payAtGateway(form, CARD))
        expect(landing.searchParams.get("error")).toMatch(/returned to your card/)
        expect((await cartState(cart.id)).completed_at).toBeFalsy()
        expect(await attempt(form.invoice_id)).toMatchObject({ status: "reversed" })
        expect((await gatewayStatus(form.invoice_id)).totalRefundedAmount).toBe(Number(cart.total).toFixed(2))
      })
    })

    describe("direct (2D) checkout through the store API", () => {
      async function payDirect(sessionId: string, card = CARD, extra: Record<string, unknown> = {}) {
        return api
          .post(
            `/store/sipay/payment-sessions/${sessionId}/pay-2d`,
            { cart_id: cartIdOfSession(sessionId), installments_number: 1, card: { holder_name: card.cc_holder_name, number: card.cc_no, expiry_month: card.expiry_month, expiry_year: card.expiry_year, cvv: card.cvv }, ...extra },
            storeHeaders(store)
          )
          .catch((error: any) => error.response)
      }

      it("2D success ends in an order with a captured payment", async () => {
        const cart = await createCart(api, store)
        const { session } = await startPaymentSession(api, store, cart.id, "pp_sipay-2d_sipay")
        const response = await payDirect(session.id, CARD, { installments_number: 3 })
        expect(response.status).toBe(200)
        expect(response.data).toMatchObject({ status: "paid", cart_id: cart.id })
        const paid = await cartState(cart.id)
        expect(paid.order.id).toBe(response.data.order_id)
        const payment = paid.order.payment_collections[0].payments[0]
        expect(payment.provider_id).toBe("pp_sipay-2d_sipay")
        expect(payment.captured_at).toBeTruthy()
        expect(payment.data.installments).toBe(3)
      })

      it("2D decline answers a clear error and leaves the cart open", async () => {
        const cart = await createCart(api, store)
        const { session } = await startPaymentSession(api, store, cart.id, "pp_sipay-2d_sipay")
        const response = await payDirect(session.id, { ...DECLINING_CARD, cvv: CVV })
        expect(response.status).toBe(402)
        expect(response.data.status).toBe("failed")
        expect(response.data).toMatchObject({ code: "card_declined", message: SHOPPER_MESSAGES.card_declined.en })
        expect(JSON.stringify(response.data)).not.toContain(DECLINING_CARD.cc_no)
        expect(response.data.cart_id).toBeUndefined()
        expect((await cartState(cart.id)).completed_at).toBeFalsy()
        const retry = await payDirect(session.id)
        expect(retry.status).toBe(200)
      })

      it("limits direct payment tries per payment session against card testing", async () => {
        const cart = await createCart(api, store)
        const { session } = await startPaymentSession(api, store, cart.id, "pp_sipay-2d_sipay")
        // A card no other test of this file uses: the per-card limit counts across the whole run.
        const BLOCKED_CARD = { ...DECLINING_CARD, cc_no: "5456160000000000", cvv: CVV }
        const answers: number[] = []
        for (let i = 0; i < 6; i++) {
          answers.push((await payDirect(session.id, BLOCKED_CARD)).status)
        }
        expect(answers.slice(0, 5)).toEqual([402, 402, 402, 402, 402])
        const limited = await payDirect(session.id, BLOCKED_CARD)
        expect(limited.status).toBe(429)
        expect(limited.data).toMatchObject({ code: "card_limit", message: SHOPPER_MESSAGES.card_limit.en })
        const [attempts] = [await (getContainer().resolve("sipay") as any).listPaymentAttempts({ session_id: session.id })]
        expect(attempts).toHaveLength(5)
      })

      it("refuses malformed card data without echoing it", async () => {
        const cart = await createCart(api, store)
        const { session } = await startPaymentSession(api, store, cart.id, "pp_sipay-2d_sipay")
        const response = await payDirect(session.id, { ...CARD, cc_no: "4508x34508034509", cvv: "12" })
        expect(response.status).toBe(400)
        expect(JSON.stringify(response.data)).not.toContain("4508x34508034509")
      })
    })

    describe("recurring and agricultural payments", () => {
      const AGRICULTURAL_CARD = { ...CARD, cc_no: "9792090000000004" }

      it("a product sold by subscription makes a recurring payment in both operations, never in installments", async () => {
        const [plan] = await addProducts(getContainer(), store, [
          { title: "Kahve aboneliği / Coffee subscription", price: 99.9, metadata: { sipay_recurring: { cycle: "M", interval: 1, payment_number: 6 } } },
        ])
        const subscription = { ...store, products: [plan] }
        const cart = await createCart(api, subscription, [1])
        const { session } = await startPaymentSession(api, subscription, cart.id)
        const refused = await api
          .post(`/store/sipay/payment-sessions/${session.id}/3d-form`, { installments_number: 3, cart_id: cart.id }, storeHeaders(subscription))
          .catch((error: any) => error.response)
        expect(refused.status).toBe(400)
        expect(refused.data.message).toMatch(/recurring payment cannot be paid in installments/)
        const form = await issueThreeDForm(api, subscription, session.id)
        expect(form.fields).toMatchObject({ order_type: "1", recurring_payment_number: "6", recurring_payment_cycle: "M", recurring_payment_interval: "1", recurring_web_hook_key: "medusa-recurring" })
        expect((await returnToStore(await payAtGateway(form, CARD))).pathname).toMatch(/order_/)

        const direct = await createCart(api, subscription, [1])
        const { session: directSession } = await startPaymentSession(api, subscription, direct.id, "pp_sipay-2d_sipay")
        const paid = await api.post(
          `/store/sipay/payment-sessions/${directSession.id}/pay-2d`,
          { cart_id: direct.id, installments_number: 1, card: { holder_name: CARD.cc_holder_name, number: CARD.cc_no, expiry_month: CARD.expiry_month, expiry_year: CARD.expiry_year, cvv: CARD.cvv } },
          storeHeaders(subscription)
        )
        expect(paid.data.status).toBe("paid")
      })

      it("an agricultural card gets its maturity and frequency terms, which both operations carry", async () => {
        const cart = await createCart(api, store)
        const offer = await api.get(`/store/sipay/installments?bin=979209&amount=${Number(cart.total).toFixed(2)}&currency_code=TRY`, storeHeaders(store))
        expect(offer.data.agricultural).toEqual({ maturity_periods: [3, 6, 9, 12], payment_frequencies: [1, 3, 6] })
        const plain = await api.get(`/store/sipay/installments?bin=450803&amount=${Number(cart.total).toFixed(2)}&currency_code=TRY`, storeHeaders(store))
        expect(plain.data.agricultural).toBeNull()
        expect(plain.data.installments.map((i: any) => i.installments_number)).toEqual([1, 2, 3, 6, 9, 12])

        const { session } = await startPaymentSession(api, store, cart.id)
        const form = await issueThreeDForm(api, store, session.id, { installments_number: 1, maturity_period: 6, payment_frequency: 3 })
        expect(form.fields).toMatchObject({ maturity_period: "6", payment_frequency: "3" })
        expect((await returnToStore(await payAtGateway(form, AGRICULTURAL_CARD))).pathname).toMatch(/order_/)

        const direct = await createCart(api, store)
        const { session: directSession } = await startPaymentSession(api, store, direct.id, "pp_sipay-2d_sipay")
        const paid = await api.post(
          `/store/sipay/payment-sessions/${directSession.id}/pay-2d`,
          { cart_id: direct.id, installments_number: 1, maturity_period: 3, payment_frequency: 1, card: { holder_name: CARD.cc_holder_name, number: AGRICULTURAL_CARD.cc_no, expiry_month: CARD.expiry_month, expiry_year: CARD.expiry_year, cvv: CARD.cvv } },
          storeHeaders(store)
        )
        expect(paid.data.status).toBe("paid")
      })
    })

    describe("secrets", () => {
      // Runs last: every scenario above has logged by now.
      it("no card number or secret appears in any log line of the whole run", () => {
        const logged = output.text()
        // The capture sees the app's log lines (the tampered webhook test makes this one).
        expect(logged).toContain("Sipay sale webhook ignored")
        for (const secret of [PAYING_CARD.cc_no, DECLINING_CARD.cc_no, "9792090000000004", "5456160000000000", stack.sandbox.merchant.app_secret, stack.sandbox.merchant.merchant_key, `"cvv":"${CVV}"`, `cvv=${CVV}`]) {
          expect(logged.includes(secret)).toBe(false)
        }
      })
    })
  },
})
