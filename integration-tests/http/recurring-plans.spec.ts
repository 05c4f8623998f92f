import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { addProducts, seedStoreWithAdmin, SeededStore } from "../harness/seed"
import { useSipayStack } from "../harness/stack"
import { PAYING_CARD, startPaymentSession, waitFor } from "../harness/shopper"
import { recordRecurringPlanWorkflow } from "../../src/workflows/recurring-plans"

jest.setTimeout(300 * 1000)

// One boot: recurring plans (issue 17 point 2) and the brand named by "test connection" (point 4),
// against the sandbox gateway reached through a baseUrl override of the vepara-test brand.
const stack = useSipayStack({ env: { SIPAY_CAPTURE: "true", SIPAY_BRAND: "vepara-test" } })

medusaIntegrationTestRunner({
  testSuite: ({ api, getContainer }) => {
    let admin: { headers: Record<string, string> }
    let store: SeededStore
    const sipay = () => getContainer().resolve("sipay") as any
    const control = (path: string, body?: unknown) =>
      fetch(`${stack.sandbox.link_base}/__sandbox/${path}`, body ? { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) } : {}).then((r) => r.json())

    beforeEach(async () => {
      ;({ store, admin } = await seedStoreWithAdmin(getContainer(), api))
    })

    /** A customer registered and signed in through the auth API; returns the store request headers. */
    async function signedInCustomer(email: string) {
      const credentials = { email, password: "customer-secret-123" }
      const registered = await api.post("/auth/customer/emailpass/register", credentials)
      const keyed = { "x-publishable-api-key": store.publishableKey }
      await api.post("/store/customers", { email, first_name: "Ayşe", last_name: "Yılmaz" }, { headers: { ...keyed, authorization: `Bearer ${registered.data.token}` } })
      const login = await api.post("/auth/customer/emailpass", credentials)
      return { headers: { ...keyed, authorization: `Bearer ${login.data.token}` } }
    }

    /** A monthly plan of three payments of 90 TRY, bought by the signed-in customer (2D, charged at once). */
    async function subscribe(customer: { headers: Record<string, string> }) {
      const [product] = await addProducts(getContainer(), store, [
        { title: "Aylık çay / Monthly tea", price: 90, metadata: { sipay_recurring: { cycle: "M", interval: 1, payment_number: 3 } } },
      ])
      const address = { first_name: "Ayşe", last_name: "Yılmaz", address_1: "İstiklal Cd. 1", city: "İstanbul", country_code: "tr", postal_code: "34430", phone: "5551234567" }
      const { data } = await api.post(
        "/store/carts",
        { region_id: store.regionId, items: [{ variant_id: product.variantId, quantity: 1 }], shipping_address: address, billing_address: address },
        customer
      )
      const { session } = await startPaymentSession(api, store, data.cart.id, "pp_sipay-2d_sipay")
      const paid = await api.post(
        `/store/sipay/payment-sessions/${session.id}/pay-2d`,
        { cart_id: data.cart.id, installments_number: 1, card: { holder_name: PAYING_CARD.cc_holder_name, number: PAYING_CARD.cc_no, expiry_month: PAYING_CARD.expiry_month, expiry_year: PAYING_CARD.expiry_year, cvv: PAYING_CARD.cvv } },
        customer
      )
      expect(paid.data.order_id).toBeTruthy()
      return paid.data.order_id as string
    }

    const listPlans = async (query: string) => (await api.get(`/admin/sipay/recurring-plans?${query}`, admin)).data
    const openPlan = async (id: string) => (await api.get(`/admin/sipay/recurring-plans/${id}`, admin)).data
    const change = (id: string, body: Record<string, unknown>) => api.post(`/admin/sipay/recurring-plans/${id}`, body, admin).catch((error) => error.response)

    /** Moves the sandbox clock just past the plan's next charge as the gateway dates it. */
    async function passNextChargeDate(nextActionDate: string) {
      const { now } = await control("clock")
      const seconds = Math.ceil((Date.parse(`${nextActionDate.replace(" ", "T")}+03:00`) - Date.parse(now)) / 1000) + 60
      await control("clock", { advance_seconds: seconds })
    }

    it("a plan bought at checkout is recorded once, listed with its charges after the clock passes a charge date, changed and stopped from the admin, and charged no more", async () => {
      const customer = await signedInCustomer("plan-owner@example.com")
      const orderId = await subscribe(customer)

      const listed = await waitFor(async () => (await listPlans(`order_id=${orderId}`)).recurring_plans[0])
      expect(listed).toMatchObject({ order_id: orderId, amount: "90.00", currency_code: "TRY", cycle: "M", interval: 1, payment_number: 3, charges_made: 1, status: "Active" })
      expect(listed.customer_id).toBeTruthy()
      expect(listed.next_action_date).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/)
      const [attempt] = await sipay().listPaymentAttempts({ invoice_id: listed.invoice_id })
      expect(listed.plan_code).toBe(attempt.gateway_order_no)

      // Exactly once: the order placed event again (a redelivery) records nothing new.
      await recordRecurringPlanWorkflow(getContainer()).run({ input: { order_id: orderId } })
      expect(await sipay().listRecurringPlanRecords({ invoice_id: listed.invoice_id })).toHaveLength(1)

      await passNextChargeDate(listed.next_action_date)
      const charged = await waitFor(async () => {
        const [plan] = (await listPlans(`order_id=${orderId}`)).recurring_plans
        return plan.charges_made === 2 ? plan : null
      })
      expect(charged.next_action_date).not.toBe(listed.next_action_date)
      const opened = await openPlan(listed.id)
      expect(opened.charges.map((c: any) => [c.recurringNumber, c.status, c.amount, c.attempts])).toEqual([
        [1, "Completed", "90.00", 1],
        [2, "Completed", "90.00", 1],
      ])

      // The customer sees the plan; nobody else does, and a guest is refused.
      const mine = await api.get("/store/customers/me/sipay-recurring-plans", customer)
      expect(mine.data.recurring_plans.map((p: any) => [p.id, p.status, p.charges_made])).toEqual([[listed.id, "Active", 2]])
      expect(mine.data.recurring_plans[0].history).toBeUndefined()
      const stranger = await signedInCustomer("someone-else@example.com")
      expect((await api.get("/store/customers/me/sipay-recurring-plans", stranger)).data.recurring_plans).toEqual([])
      const guest = await api.get("/store/customers/me/sipay-recurring-plans", { headers: { "x-publishable-api-key": store.publishableKey } }).catch((error) => error.response)
      expect(guest.status).toBe(401)

      const cheaper = await change(listed.id, { action: "change_amount", amount: "75.00" })
      expect(cheaper.status).toBe(200)
      expect(cheaper.data.recurring_plan).toMatchObject({ amount: "75.00", status: "Active" })
      const longer = await change(listed.id, { action: "change_payment_number", payment_number: 4 })
      expect(longer.data.recurring_plan).toMatchObject({ payment_number: 4 })
      const fewer = await change(listed.id, { action: "change_payment_number", payment_number: 1 })
      expect(fewer.status).toBe(400)
      expect(fewer.data.message).toMatch(/gateway refused.*recurring_payment_number/i)

      const stopped = await change(listed.id, { action: "stop" })
      expect(stopped.status).toBe(200)
      expect(stopped.data.recurring_plan).toMatchObject({ status: "Stopped", next_action_date: null })
      const again = await change(listed.id, { action: "stop" })
      expect(again.status).toBe(400)
      expect(again.data.message).toMatch(/gateway refused to stop.*stopped/i)
      expect(stopped.data.recurring_plan.history).toBeDefined()
      const [record] = await sipay().listRecurringPlanRecords({ id: listed.id })
      expect(record.history.entries.map((e: any) => [e.action, e.value, e.outcome])).toEqual([
        ["change_amount", "75.00", "done"],
        ["change_payment_number", 4, "done"],
        ["change_payment_number", 1, "refused"],
        ["stop", null, "done"],
        ["stop", null, "refused"],
      ])
      expect(record.history.entries.every((e: any) => typeof e.actor === "string" && e.actor.length > 0)).toBe(true)

      // Months pass at the gateway: no later charge (the query below also runs the sandbox's charging sweep).
      await control("clock", { advance_seconds: 92 * 86400 })
      const after = await openPlan(listed.id)
      expect(after.charges).toHaveLength(2)
      expect(after.recurring_plan).toMatchObject({ status: "Stopped", charges_made: 2 })
      expect(await sipay().listRecurringCharges({ plan_code: listed.plan_code })).toHaveLength(1)
    })

    it("a plan bought while the store captures later is recorded when its pre-authorization is captured from the admin", async () => {
      expect((await api.post("/admin/sipay/settings", { capture: false }, admin)).status).toBe(200)
      try {
        const customer = await signedInCustomer("later@example.com")
        const orderId = await subscribe(customer)
        const { data } = await api.get(`/admin/orders/${orderId}?fields=*payment_collections.payments`, admin)
        const payment = data.order.payment_collections[0].payments[0]
        expect(payment.data).toMatchObject({ status: "authorized" })
        // Nothing taken yet, so the gateway has no plan and none is recorded.
        expect((await listPlans(`order_id=${orderId}`)).count).toBe(0)

        expect((await api.post(`/admin/payments/${payment.id}/capture`, {}, admin)).status).toBe(200)
        const plan = await waitFor(async () => (await listPlans(`order_id=${orderId}`)).recurring_plans[0])
        expect(plan).toMatchObject({ order_id: orderId, invoice_id: payment.data.invoice_id, amount: "90.00", payment_number: 3, charges_made: 1 })
        const [attempt] = await sipay().listPaymentAttempts({ invoice_id: payment.data.invoice_id })
        expect(attempt).toMatchObject({ status: "paid", order_id: orderId })
      } finally {
        await api.post("/admin/sipay/settings", { capture: null }, admin)
      }
    })

    it("an order without a recurring product records no plan", async () => {
      const customer = await signedInCustomer("one-off@example.com")
      const [product] = await addProducts(getContainer(), store, [{ title: "Tek çay / One tea", price: 40 }])
      const { data } = await api.post("/store/carts", { region_id: store.regionId, items: [{ variant_id: product.variantId, quantity: 1 }] }, customer)
      const { session } = await startPaymentSession(api, store, data.cart.id, "pp_sipay-2d_sipay")
      const paid = await api.post(
        `/store/sipay/payment-sessions/${session.id}/pay-2d`,
        { cart_id: data.cart.id, installments_number: 1, card: { holder_name: PAYING_CARD.cc_holder_name, number: PAYING_CARD.cc_no, expiry_month: PAYING_CARD.expiry_month, expiry_year: PAYING_CARD.expiry_year, cvv: PAYING_CARD.cvv } },
        customer
      )
      const { result } = await recordRecurringPlanWorkflow(getContainer()).run({ input: { order_id: paid.data.order_id } })
      expect(result.plan).toBeNull()
      expect((await listPlans(`order_id=${paid.data.order_id}`)).count).toBe(0)
    })

    it("test connection names the brand it reached (vepara-test through a baseUrl override to the sandbox)", async () => {
      const { data } = await api.post("/admin/sipay/settings/test-connection", {}, admin)
      expect(data).toMatchObject({ ok: true, brand: "vepara-test", brand_name: "Vepara (test)", base_url: stack.sandbox.base_url, checks: { token: "ok", merchant_key: "ok" } })
    })

    // Issue 27 part 1: configuration problems reach the merchant, not the shopper.
    const sipayAlerts = async () =>
      (await api.get("/admin/notifications?channel=feed&limit=100", admin)).data.notifications.filter((n: any) => n.template === "admin-ui" && n.data?.sipay_cause)
    const gatewayCalls = () => control("calls") as Promise<Record<string, number>>
    const clearCalls = () => fetch(`${stack.sandbox.link_base}/__sandbox/calls`, { method: "DELETE" })

    it("a wrong merchant key: test connection says so in words, the shopper reads 'card payments are unavailable', the merchant gets one alert per hour", async () => {
      const configuredKey = stack.sandbox.merchant.merchant_key
      // The merchant regenerates its key on the merchant panel; the store still sends the old one.
      await control("merchant", { merchant_key: configuredKey, new_merchant_key: "$2y$10$regeneratedOnThePanel000000000000000000000000000" })
      try {
        const tested = await api.post("/admin/sipay/settings/test-connection", {}, admin)
        expect(tested.status).toBe(200)
        expect(tested.data).toMatchObject({ ok: false, checks: { token: "ok", merchant_key: "merchant_key_unknown" }, problem_code: "merchant_key_unknown" })
        expect(tested.data.problem).toMatch(/does not know the merchant key/)
        expect(JSON.stringify(tested.data)).not.toContain(configuredKey)

        // The storefront's installment look-up (getpos) meets "Merchant not found": a neutral text, no card blamed.
        const keyed = { headers: { "x-publishable-api-key": store.publishableKey, "accept-language": "tr-TR,tr;q=0.9" } }
        for (const amount of ["101.00", "102.00"]) {
          const refused = await api.get(`/store/sipay/installments?bin=450803&amount=${amount}&currency_code=TRY`, keyed).catch((error) => error.response)
          expect(refused.status).toBe(503)
          expect(refused.data).toMatchObject({ type: "payments_unavailable", code: "payments_unavailable", message: "Kartla ödeme şu anda kullanılamıyor. Lütfen daha sonra tekrar deneyin; sepetiniz saklanıyor." })
        }
        // Twice refused, one alert (at most one per cause per hour), read back through Medusa's admin notifications API.
        const alerts = await sipayAlerts()
        expect(alerts.map((n: any) => n.data.sipay_cause)).toEqual(["merchant_not_found"])
        expect(alerts[0].data.description).toMatch(/Merchant not found/)
        expect(JSON.stringify(alerts)).not.toContain(configuredKey)
        const settings = await api.get("/admin/sipay/settings", admin)
        expect(settings.data.configuration_problems).toEqual([expect.objectContaining({ code: "merchant_not_found", count: 2 })])
      } finally {
        await control("merchant", { merchant_key: "$2y$10$regeneratedOnThePanel000000000000000000000000000", new_merchant_key: configuredKey })
      }
      const fixed = await api.post("/admin/sipay/settings/test-connection", {}, admin)
      expect(fixed.data).toMatchObject({ ok: true, checks: { merchant_key: "ok" } })
    })

    it("a recurring product without a recurring webhook key: refused before the gateway, a neutral text with the cart kept, one admin alert, a start-up warning", async () => {
      expect((await api.post("/admin/sipay/settings", { recurring_webhook_key: "" }, admin)).status).toBe(200)
      try {
        const [product] = await addProducts(getContainer(), store, [
          { title: "Aylık kahve / Monthly coffee", price: 900, metadata: { sipay_recurring: { cycle: "M", interval: 1, payment_number: 12 } } },
        ])
        const keyed = { headers: { "x-publishable-api-key": store.publishableKey } }
        const { data } = await api.post("/store/carts", { region_id: store.regionId, items: [{ variant_id: product.variantId, quantity: 1 }] }, keyed)
        const { session } = await startPaymentSession(api, store, data.cart.id, "pp_sipay_sipay")
        const settings = await api.get("/admin/sipay/settings", admin)
        expect(settings.data.setup_warnings.map((w: any) => w.code)).toContain("recurring_without_webhook_key")

        await clearCalls()
        for (const locale of ["en", "tr"]) {
          const refused = await api.post(`/store/sipay/payment-sessions/${session.id}/3d-form`, { cart_id: data.cart.id, installments_number: 1, locale }, keyed).catch((error) => error.response)
          expect(refused.status).toBe(503)
          expect(refused.data).toEqual({
            type: "payments_unavailable",
            code: "payments_unavailable",
            message: locale === "en" ? "Card payments are unavailable right now. Please try again later; your cart is kept." : "Kartla ödeme şu anda kullanılamıyor. Lütfen daha sonra tekrar deneyin; sepetiniz saklanıyor.",
            cart_id: data.cart.id,
          })
        }
        // Nothing was sent to the gateway, and no attempt was recorded.
        expect(await gatewayCalls()).toEqual({})
        expect(await sipay().listPaymentAttempts({ session_id: session.id })).toEqual([])
        const alerts = await sipayAlerts()
        expect(alerts.map((n: any) => n.data.sipay_cause)).toEqual(["recurring_webhook_key_missing"])
        expect(alerts[0].data.title).toMatch(/card payments refused/)
      } finally {
        await api.post("/admin/sipay/settings", { recurring_webhook_key: null }, admin)
      }
    })
  },
})
