import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { updateCheckoutSettingsWorkflow } from "../../src/workflows/steps/save-checkout-settings"
import { createPaymentSessionsWorkflow, refundPaymentsWorkflow, updateRegionsWorkflow } from "@medusajs/medusa/core-flows"
import { addProducts, createAdminUser, seedShipping, seedStore, SeededStore } from "../harness/seed"
import { useSipayStack } from "../harness/stack"
import { SHOPPER_MESSAGES } from "../../src/lib/shopper-messages"
import { captureProcessOutput, tablesContaining } from "../harness/secrets"
import {
  postForm,
  readForm,
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
// The fee tests pay directly with the Mastercard test card: the file's other direct payments use the Visa one up to its per-card limit (5 in 10 minutes).
const FEE_CARD = { ...CARD, cc_no: "5406675406675403" }

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

      it("a merchant the gateway does not allow 3D: its refusal comes back through the browser, the shopper reads 'card payments are unavailable' with the cart kept, the merchant gets one alert", async () => {
        const { cart, form } = await paidCart()
        const panel = (body: Record<string, unknown>) =>
          fetch(`${stack.sandbox.link_base}/__sandbox/merchant`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })
        await panel({ is_3d: 0 })
        try {
          const refused = await postForm(form.action, { ...form.fields, ...CARD })
          // The gateway's own refusal (34), unsigned, as the browser carries it back (a redirect, or a self-posting form).
          const result =
            refused.status === 303
              ? (() => {
                  const location = new URL(refused.headers.get("location")!)
                  return { action: `${location.origin}${location.pathname}`, fields: Object.fromEntries(location.searchParams) }
                })()
              : readForm(await refused.text())
          expect(result.fields.error_code).toBe("34")
          expect(result.fields.hash_key ?? "").toBe("")
          const landing = await returnToStore(result)
          expect(landing.searchParams.get("error")).toBe(SHOPPER_MESSAGES.payments_unavailable.en)
          expect(landing.searchParams.get("cart_id")).toBe(cart.id)
          const notifications = await getContainer().resolve(Modules.NOTIFICATION).listNotifications({ channel: "feed" })
          expect(notifications.map((n: any) => n.data?.sipay_cause)).toEqual(["integration_not_allowed"])
          // A forged copy of that refusal for an invoice that is not a pending attempt alerts nobody and names no cart.
          const forged = await returnToStore({ action: result.action, fields: { ...result.fields, error_code: "14", status_code: "14", invoice_id: `${form.invoice_id}9` } })
          expect(forged.searchParams.get("error")).toBe(SHOPPER_MESSAGES.payments_unavailable.en)
          expect(forged.searchParams.get("cart_id")).toBe("")
          expect((await getContainer().resolve(Modules.NOTIFICATION).listNotifications({ channel: "feed" })).length).toBe(1)

          // Now 3D only: a direct payment is refused by the gateway (34), the same neutral text with the cart
          // kept, and no second alert for the same cause within the hour.
          await panel({ is_3d: 2 })
          const direct = await createCart(api, store)
          const { session: directSession } = await startPaymentSession(api, store, direct.id, "pp_sipay-2d_sipay")
          const refusedDirect = await api
            .post(
              `/store/sipay/payment-sessions/${directSession.id}/pay-2d`,
              { cart_id: direct.id, installments_number: 1, card: { holder_name: CARD.cc_holder_name, number: CARD.cc_no, expiry_month: CARD.expiry_month, expiry_year: CARD.expiry_year, cvv: CARD.cvv } },
              storeHeaders(store)
            )
            .catch((error: any) => error.response)
          expect(refusedDirect.status).toBe(402)
          expect(refusedDirect.data).toMatchObject({ code: "payments_unavailable", message: SHOPPER_MESSAGES.payments_unavailable.en, cart_id: direct.id })
          expect((await getContainer().resolve(Modules.NOTIFICATION).listNotifications({ channel: "feed" })).length).toBe(1)
        } finally {
          await panel({ is_3d: 1 })
        }
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

    describe("installment fee (vade farkı) passed on to the shopper", () => {
      const minor = (amount: unknown) => Math.round(Number(amount) * 100)
      const setFees = (installment_fees: Record<string, unknown>) =>
        updateCheckoutSettingsWorkflow(getContainer()).run({ input: { changes: { installment_fees } as never } })

      async function cartWithLines(cartId: string) {
        const { data } = await query().graph({ entity: "cart", fields: ["id", "total", "items.*", "order.id", "order.total", "order.items.*", "order.payment_collections.payments.*"], filters: { id: cartId } })
        return data[0] as any
      }
      const feeLines = (items: any[]) => items.filter((item) => item.metadata?.sipay_installment_fee)

      it("3 installments at the gateway's rate: the fee is a cart line, and the amount charged, the order total and the gateway's record agree to the kuruş", async () => {
        await setFees({ "3": { mode: "gateway" } })
        const cart = await createCart(api, store)
        const base = minor(cart.total)
        const { session } = await startPaymentSession(api, store, cart.id, "pp_sipay-2d_sipay")
        const client = (getContainer().resolve("sipay") as any).getClient()
        const pos = await client.getPos({ bin: FEE_CARD.cc_no.slice(0, 6), amount: (base / 100).toFixed(2), currencyCode: "TRY" })
        const payable = minor(pos.find((option: any) => option.installmentsNumber === 3).payableAmount)
        expect(payable).toBeGreaterThan(base)

        const response = await api
          .post(
            `/store/sipay/payment-sessions/${session.id}/pay-2d`,
            { cart_id: cart.id, installments_number: 3, card: { holder_name: CARD.cc_holder_name, number: FEE_CARD.cc_no, expiry_month: CARD.expiry_month, expiry_year: CARD.expiry_year, cvv: CARD.cvv } },
            storeHeaders(store)
          )
          .catch((error: any) => error.response)
        expect(response.status).toBe(200)
        expect(response.data).toMatchObject({ status: "paid", installment_fee: ((payable - base) / 100).toFixed(2) })
        // The fee changed the total: Medusa deleted the session, the plugin paid on a new one.
        expect(response.data.session_id).not.toBe(session.id)

        const paid = await cartWithLines(cart.id)
        const [line] = feeLines(paid.order.items)
        expect(Number(line.quantity)).toBe(1)
        expect(line).toMatchObject({ title: "Vade farkı (3 taksit)", is_discountable: false, requires_shipping: false, is_tax_inclusive: true, variant_id: null })
        expect(minor(line.unit_price)).toBe(payable - base)
        expect(minor(paid.order.total)).toBe(payable)
        const payment = paid.order.payment_collections[0].payments[0]
        expect(minor(payment.amount)).toBe(payable)
        expect(payment.data.installments).toBe(3)
        const record = await client.checkStatus(response.data.invoice_id)
        expect(minor(record.transactionAmount)).toBe(payable)
        expect(record.installment).toBe(3)
        // The items sent to the gateway carry the fee line and sum to the total.
        const [attemptRow] = await (getContainer().resolve("sipay") as any).listPaymentAttempts({ invoice_id: response.data.invoice_id })
        expect(attemptRow.items.some((item: any) => item.name === "Vade farkı (3 taksit)" && minor(item.price) === payable - base)).toBe(true)
        expect(attemptRow.items.reduce((sum: number, item: any) => sum + minor(item.price) * item.quantity, 0)).toBe(payable)
      })

      /** A direct payment in 3 installments at the merchant's own 3.07 % (setFees first): the fee, the order it made and the answer. */
      async function payInThreeAtOwnRate(cartId: string, base: number) {
        const fee = Math.floor((base * 307 + 5000) / 10000)
        const { session } = await startPaymentSession(api, store, cartId, "pp_sipay-2d_sipay")
        const paid = await api.post(
          `/store/sipay/payment-sessions/${session.id}/pay-2d`,
          { cart_id: cartId, installments_number: 3, card: { holder_name: CARD.cc_holder_name, number: FEE_CARD.cc_no, expiry_month: CARD.expiry_month, expiry_year: CARD.expiry_year, cvv: CARD.cvv } },
          storeHeaders(store)
        )
        expect(paid.data).toMatchObject({ status: "paid", installment_fee: (fee / 100).toFixed(2) })
        const order = (await cartWithLines(cartId)).order
        expect(minor(order.total)).toBe(base + fee)
        return { fee, order, paid }
      }

      it("the merchant refunds the fee by its amount: the gateway gives back exactly the fee line, the rest stays paid", async () => {
        await setFees({ "3": { mode: "own", percentage: 3.07, fixed: 0 } })
        const cart = await createCart(api, store)
        const base = minor(cart.total)
        const { fee, order, paid } = await payInThreeAtOwnRate(cart.id, base)
        const [feeLine] = feeLines(order.items)
        const payment = order.payment_collections[0].payments[0]
        await refundPaymentsWorkflow(getContainer()).run({ input: [{ payment_id: payment.id, amount: minor(feeLine.total) / 100 }] })
        const record = await (getContainer().resolve("sipay") as any).getClient().checkStatus(paid.data.invoice_id)
        expect(minor(record.totalRefundedAmount)).toBe(fee)
        expect(minor(record.transactionAmount)).toBe(base + fee)
      })

      it("a partial return of a 3-installment order with the fee passed on: Medusa's return refunds the returned item only, the fee line stays, and the gateway's record shows exactly that refund", async () => {
        const shipping = await seedShipping(getContainer(), store)
        const admin = await createAdminUser(getContainer(), api)
        await setFees({ "3": { mode: "own", percentage: 3.07, fixed: 0 } })
        const cart = await createCart(api, store, [2, 1])
        await api.post(`/store/carts/${cart.id}/shipping-methods`, { option_id: shipping.shippingOptionId }, storeHeaders(store))
        const base = minor((await cartWithLines(cart.id)).total)
        const { fee, order, paid } = await payInThreeAtOwnRate(cart.id, base)
        const productLines = order.items.filter((item: any) => item.variant_id)
        await api.post(`/admin/orders/${order.id}/fulfillments`, { location_id: shipping.locationId, items: productLines.map((item: any) => ({ id: item.id, quantity: Number(item.quantity) })) }, admin)

        // One of the two cups comes back: Medusa's return, requested and received in the admin.
        const cup = productLines.find((item: any) => item.variant_id === store.products[0].variantId)
        const returned = (await api.post("/admin/returns", { order_id: order.id, location_id: shipping.locationId }, admin)).data.return
        await api.post(`/admin/returns/${returned.id}/request-items`, { items: [{ id: cup.id, quantity: 1 }] }, admin)
        await api.post(`/admin/returns/${returned.id}/request`, {}, admin)
        await api.post(`/admin/returns/${returned.id}/receive`, {}, admin)
        await api.post(`/admin/returns/${returned.id}/receive-items`, { items: [{ id: cup.id, quantity: 1 }] }, admin)
        await api.post(`/admin/returns/${returned.id}/receive/confirm`, {}, admin)

        // What Medusa owes back is the cup alone: refunded through the provider.
        const cupAmount = minor(cup.unit_price)
        const owed = (await api.get(`/admin/orders/${order.id}?fields=id,summary.*`, admin)).data.order.summary
        expect(-minor(owed.pending_difference)).toBe(cupAmount)
        const payment = order.payment_collections[0].payments[0]
        await api.post(`/admin/payments/${payment.id}/refund`, { amount: cupAmount / 100 }, admin)

        const after = (await api.get(`/admin/orders/${order.id}?fields=id,total,summary.*,items.*`, admin)).data.order
        expect(minor(after.summary.pending_difference)).toBe(0)
        expect(feeLines(after.items).map((item: any) => [minor(item.unit_price), Number(item.quantity), Number(item.detail?.return_received_quantity ?? 0)])).toEqual([[fee, 1, 0]])
        const record = await (getContainer().resolve("sipay") as any).getClient().checkStatus(paid.data.invoice_id)
        expect(minor(record.transactionAmount)).toBe(base + fee)
        expect(minor(record.totalRefundedAmount)).toBe(cupAmount)
      })

      it("the product page's installment table: per card family, computed from the commission table as getpos charges it", async () => {
        await setFees({ "3": { mode: "gateway" }, "6": { mode: "own", percentage: 10, fixed: 0 } })
        const { data } = await api.get("/store/sipay/installment-table?amount=325.40&currency_code=TRY", storeHeaders(store))
        const bonus = data.table.find((row: any) => row.card_program === "BONUS")
        expect(bonus.title).toBe("Bonus")
        const byCount = Object.fromEntries(bonus.options.map((option: any) => [option.installments, option]))
        expect(byCount[1]).toEqual({ installments: 1, fee: "0.00", total: "325.40", per_installment: "325.40" })
        // The gateway's rate: what getpos asks of a BONUS card (MasterCard test card) for 3 installments.
        const pos = await (getContainer().resolve("sipay") as any).getClient().getPos({ bin: "540667", amount: "325.40", currencyCode: "TRY" })
        expect(byCount[3].total).toBe(pos.find((option: any) => option.installmentsNumber === 3).payableAmount)
        expect(byCount[6]).toEqual({ installments: 6, fee: "32.54", total: "357.94", per_installment: "59.66" })
        // 2 installments are absorbed (no rule): the total does not change.
        expect(byCount[2]).toMatchObject({ fee: "0.00", total: "325.40" })
        const refused = await api.get("/store/sipay/installment-table?amount=abc", storeHeaders(store)).catch((error: any) => error.response)
        expect(refused.status).toBe(400)
      })

      it("back to one installment removes the fee line; each change of the total moves the 3D form to a new session", async () => {
        await setFees({ "3": { mode: "own", percentage: 2.5, fixed: 0.5 }, "6": { mode: "gateway" } })
        const cart = await createCart(api, store)
        const base = minor(cart.total)
        const fee = Math.floor((base * 250 + 5000) / 10000) + 50
        const { session } = await startPaymentSession(api, store, cart.id)
        const form = (sessionId: string, body: Record<string, unknown>) =>
          api.post(`/store/sipay/payment-sessions/${sessionId}/3d-form`, { cart_id: cart.id, ...body }, storeHeaders(store)).catch((error: any) => error.response)

        // The gateway's rate needs the card's BIN.
        const noBin = await form(session.id, { installments_number: 6 })
        expect(noBin.status).toBe(400)
        expect(noBin.data.message).toBe(SHOPPER_MESSAGES.installment_fee_needs_card.tr)

        const three = await form(session.id, { installments_number: 3 })
        expect(three.status).toBe(200)
        expect(three.data.session_id).not.toBe(session.id)
        expect(three.data.installment_fee).toBe((fee / 100).toFixed(2))
        expect(minor(three.data.fields.total)).toBe(base + fee)
        let state = await cartWithLines(cart.id)
        expect(minor(state.total)).toBe(base + fee)
        expect(feeLines(state.items).map((item: any) => minor(item.unit_price))).toEqual([fee])

        // The store's installment options for this cart, asked with the total that now holds the fee: with the cart,
        // each count is priced on the cart without its fee line (the fee is not counted twice); without it, on the amount given.
        const optionsFor = async (query: string) =>
          (await api.get(`/store/sipay/installments?bin=${FEE_CARD.cc_no.slice(0, 6)}&amount=${(minor(state.total) / 100).toFixed(2)}&currency_code=TRY${query}`, storeHeaders(store))).data.installments
        const threeOf = (options: any[]) => options.find((option: any) => option.installments_number === 3)
        expect(minor(threeOf(await optionsFor(`&cart_id=${cart.id}`)).amount_to_be_paid)).toBe(base + fee)
        expect(minor(threeOf(await optionsFor("")).amount_to_be_paid)).toBeGreaterThan(base + fee)

        // The same choice again: same fee, same session.
        const again = await form(three.data.session_id, { installments_number: 3 })
        expect(again.data.session_id).toBe(three.data.session_id)

        const one = await form(three.data.session_id, { installments_number: 1 })
        expect(one.status).toBe(200)
        expect(one.data.session_id).not.toBe(three.data.session_id)
        expect(one.data.installment_fee).toBe("0.00")
        state = await cartWithLines(cart.id)
        expect(feeLines(state.items)).toEqual([])
        expect(minor(state.total)).toBe(base)
        const [gone] = await getContainer().resolve(Modules.PAYMENT).listPaymentSessions({ id: three.data.session_id })
        expect(gone).toBeUndefined()

        // The form issued before the total moved back cannot place the order; the last one does, at the base amount.
        const landing = await returnToStore(await payAtGateway(one.data))
        expect(landing.pathname).toMatch(/order_/)
        const paid = await cartWithLines(cart.id)
        expect(minor(paid.order.total)).toBe(base)
        expect(feeLines(paid.order.items)).toEqual([])
      })

      it("a fee change closes the old session's forms: one paid at the bank anyway is given back with no order, and the new session's form makes the order", async () => {
        await setFees({ "3": { mode: "own", percentage: 2.5, fixed: 0 } })
        const cart = await createCart(api, store)
        const base = minor(cart.total)
        const fee = Math.floor((base * 250 + 5000) / 10000)
        const { session } = await startPaymentSession(api, store, cart.id)
        const oldForm = await issueThreeDForm(api, store, session.id, { installments_number: 1 })
        const three = await api.post(`/store/sipay/payment-sessions/${session.id}/3d-form`, { cart_id: cart.id, installments_number: 3 }, storeHeaders(store))
        expect(three.data.session_id).not.toBe(session.id)
        expect(await attempt(oldForm.invoice_id)).toMatchObject({ status: "pending", metadata: { closed: { reason: "installment_fee_changed", replaced_by: three.data.session_id } } })
        expect((await attempt(three.data.invoice_id)).metadata?.closed).toBeUndefined()

        // The old form (1 installment, the total without the fee) paid at the bank: given back, no order.
        const oldLanding = await returnToStore(await payAtGateway(oldForm, CARD))
        expect(oldLanding.searchParams.get("error")).toMatch(/returned to your card/)
        expect(await orderCount()).toBe(0)
        expect(await attempt(oldForm.invoice_id)).toMatchObject({ status: "reversed", error_message: expect.stringMatching(/installment choice changed/) })
        const oldRecord = await gatewayStatus(oldForm.invoice_id)
        expect(minor(oldRecord.totalRefundedAmount)).toBe(base)

        // The new session's form: the order, at the total with the fee.
        const landing = await returnToStore(await payAtGateway(three.data, CARD))
        expect(landing.pathname).toMatch(/order_/)
        const paid = await cartWithLines(cart.id)
        expect(minor(paid.order.total)).toBe(base + fee)
        expect(minor(paid.order.payment_collections[0].payments[0].amount)).toBe(base + fee)
        expect(minor((await gatewayStatus(three.data.invoice_id)).totalRefundedAmount)).toBe(0)
      })

      it("a cart changed after its fee line: the next choice prices the fee on the new total; another provider's session takes the fee line out, and complete-cart refuses a fee line paid otherwise", async () => {
        await setFees({ "3": { mode: "own", percentage: 2.5, fixed: 0 } })
        const rate = (amount: number) => Math.floor((amount * 250 + 5000) / 10000)
        const cart = await createCart(api, store)
        const { session } = await startPaymentSession(api, store, cart.id)
        const form = (sessionId: string, body: Record<string, unknown>) =>
          api.post(`/store/sipay/payment-sessions/${sessionId}/3d-form`, { cart_id: cart.id, ...body }, storeHeaders(store)).catch((error: any) => error.response)
        const first = await form(session.id, { installments_number: 3 })
        expect(first.data.installment_fee).toBe((rate(minor(cart.total)) / 100).toFixed(2))

        // The shopper changes a quantity and adds an item: Medusa deletes the session; the next choice recomputes the fee.
        let state = await cartWithLines(cart.id)
        const productLine = state.items.find((item: any) => item.variant_id === store.products[0].variantId)
        await api.post(`/store/carts/${cart.id}/line-items/${productLine.id}`, { quantity: 3 }, storeHeaders(store))
        await api.post(`/store/carts/${cart.id}/line-items`, { variant_id: store.products[2].variantId, quantity: 1 }, storeHeaders(store))
        state = await cartWithLines(cart.id)
        const newBase = minor(state.total) - minor(feeLines(state.items)[0].total)
        expect(newBase).toBeGreaterThan(minor(cart.total))
        const { session: next } = await startPaymentSession(api, store, cart.id)
        const again = await form(next.id, { installments_number: 3 })
        expect(again.status).toBe(200)
        expect(again.data.installment_fee).toBe((rate(newBase) / 100).toFixed(2))
        expect(minor(again.data.fields.total)).toBe(newBase + rate(newBase))
        state = await cartWithLines(cart.id)
        expect(feeLines(state.items).map((item: any) => minor(item.unit_price))).toEqual([rate(newBase)])
        expect(minor(state.total)).toBe(newBase + rate(newBase))

        // Another provider: a session made past the store route (a custom flow) leaves the line, and complete-cart refuses it.
        await updateRegionsWorkflow(getContainer()).run({ input: { selector: { id: store.regionId }, update: { payment_providers: ["pp_sipay_sipay", "pp_sipay-2d_sipay", "pp_system_default"] } } })
        const { data: collections } = await query().graph({ entity: "cart", fields: ["payment_collection.id"], filters: { id: cart.id } })
        const collectionId = (collections[0] as any).payment_collection.id
        await createPaymentSessionsWorkflow(getContainer()).run({ input: { payment_collection_id: collectionId, provider_id: "pp_system_default" } })
        const refused = await api.post(`/store/carts/${cart.id}/complete`, {}, storeHeaders(store)).catch((error: any) => error.response)
        expect(JSON.stringify(refused.data)).toMatch(/installment fee/)
        expect(await orderCount()).toBe(0)

        // Through the store route the line leaves the cart first: the order is the cart without the fee.
        await api.post(`/store/payment-collections/${collectionId}/payment-sessions`, { provider_id: "pp_system_default" }, storeHeaders(store))
        state = await cartWithLines(cart.id)
        expect(feeLines(state.items)).toEqual([])
        expect(minor(state.total)).toBe(newBase)
        const completed = await api.post(`/store/carts/${cart.id}/complete`, {}, storeHeaders(store))
        expect(completed.data.type).toBe("order")
        expect(minor(completed.data.order.total)).toBe(newBase)
        expect(feeLines(completed.data.order.items)).toEqual([])
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
        // In the shopper's words (shopper-messages), not a developer's.
        expect(refused.data).toEqual({ type: "invalid_data", code: "recurring_no_installments", message: SHOPPER_MESSAGES.recurring_no_installments.en })
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
