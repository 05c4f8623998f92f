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
      expect(data).toMatchObject({ ok: true, brand: "vepara-test", brand_name: "Vepara (test)", base_url: stack.sandbox.base_url })
    })
  },
})
