import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { addProducts, seedStore, SeededStore } from "../harness/seed"
import { createCart, PAYING_CARD, startPaymentSession, storeHeaders, waitFor } from "../harness/shopper"
import { allOf, attack, AttackContext, Expectation, nothingChanged, refusedWith, reported, send, useSecurityStack } from "./attack"
import { logMark, logSince } from "./log-watch"

jest.setTimeout(300 * 1000)

/**
 * Issue 12 point 2: the recurring webhook is a trigger, nothing more. Its merchant_key is public (it
 * is in every 3D form), so whatever it claims, the plugin records only what recurringPlan/query's
 * history entry says, for a plan the store opened, bound to that plan's own order.
 * (security-review.md F2, attacks 1.16-1.18.)
 */

const { stack, gatewayCalls } = useSecurityStack({ env: { SIPAY_CAPTURE: "true" } })
const ROW = { point: "12.2", status: "closed" as const }
/** Declines each later charge once, approves the retry a day later (sandbox test card). */
const DECLINES_ONCE = "4155140000000009"
let plans = 0

medusaIntegrationTestRunner({
  testSuite: ({ api, getContainer }) => {
    let store: SeededStore
    const ctx = (): AttackContext => ({ file: __filename, stack, getContainer, gatewayCalls })
    const sipay = () => getContainer().resolve("sipay") as any
    const clock = () => `${stack.sandbox.link_base}/__sandbox/clock`
    const hook = () => `${stack.backendUrl}/sipay/hooks/recurring`

    beforeEach(async () => {
      store = await seedStore(getContainer())
    })

    async function advanceSeconds(seconds: number) {
      await send(clock(), { json: { advance_seconds: seconds } })
    }

    /** A monthly plan of three payments bought through the plugin (2D, captured at once). */
    async function subscribe(cardNumber = PAYING_CARD.cc_no) {
      const [plan] = await addProducts(getContainer(), store, [
        { title: `Aylık çay / Monthly tea ${++plans}`, price: 90, metadata: { sipay_recurring: { cycle: "M", interval: 1, payment_number: 3 } } },
      ])
      const cart = await createCart(api, { ...store, products: [plan] }, [1])
      const { session } = await startPaymentSession(api, store, cart.id, "pp_sipay-2d_sipay")
      const paid = await api.post(
        `/store/sipay/payment-sessions/${session.id}/pay-2d`,
        { cart_id: cart.id, installments_number: 1, card: { holder_name: PAYING_CARD.cc_holder_name, number: cardNumber, expiry_month: PAYING_CARD.expiry_month, expiry_year: PAYING_CARD.expiry_year, cvv: PAYING_CARD.cvv } },
        storeHeaders(store)
      )
      const [attempt] = await sipay().listPaymentAttempts({ order_id: paid.data.order_id })
      expect(attempt.gateway_order_no).toBeTruthy()
      return { orderId: paid.data.order_id as string, invoiceId: attempt.invoice_id as string, planCode: attempt.gateway_order_no as string }
    }

    /** Moves the sandbox clock just past the plan's next charge (as the gateway dates it) and waits for charge `number`'s record. */
    async function nextCharge(planCode: string, number: number) {
      const { nextActionDate } = await sipay().getClient().queryRecurringPlan(planCode)
      const { json } = await send(clock())
      await advanceSeconds(Math.ceil((Date.parse(`${String(nextActionDate).replace(" ", "T")}+03:00`) - Date.parse(json.now)) / 1000) + 60)
      return waitFor(async () => (await sipay().listRecurringCharges({ plan_code: planCode, recurring_number: number }))[0], 20000)
    }

    /** The recurring webhook as the gateway sends it (form-encoded), with the attacker's fields. */
    function forge(fields: Record<string, string>) {
      return send(hook(), { body: new URLSearchParams({ merchant_key: stack.sandbox.merchant.merchant_key, ...fields }) })
    }

    /** The charge record of the plan and number is exactly what the gateway's history says. */
    function recordIsGatewayFacts(planCode: string, number: number, facts: { status: string; attempts: number }): Expectation {
      return {
        text: `the forged webhook is refused; charge ${number} ends as the gateway reports it (${facts.status}, ${facts.attempts} attempts)`,
        check: (_before, _after, extra) => {
          const record = (extra.records as any[]).find((r) => r.plan_code === planCode && r.recurring_number === number)
          if (!record) return [`no record of charge ${number}`]
          const problems: string[] = []
          if (extra.frozenStatus !== 400) problems.push(`the forged webhook was answered ${extra.frozenStatus}, not refused`)
          if (record.status !== facts.status || record.attempts !== facts.attempts) problems.push(`record says ${record.status}/${record.attempts}`)
          if (record.gateway_order_id !== extra.gatewayOrderId) problems.push(`record's gateway order ${record.gateway_order_id} is not the gateway's ${extra.gatewayOrderId}`)
          return problems
        },
      }
    }

    it("a recurring webhook claiming 99 attempts, another order id and date does not rewrite a recorded charge", async () => {
      const { planCode, invoiceId } = await subscribe()
      const recorded = await nextCharge(planCode, 2)
      expect(recorded).toMatchObject({ status: "Completed", attempts: 1 })
      await attack(ctx(), { attack: "recurring webhook rewrites a recorded charge (attempts 99, foreign order id, 1999 date)", ...ROW }, allOf(nothingChanged(), refusedWith(400)), async () => {
        const answer = await forge({
          plan_code: planCode, recurring_number: "2", invoice_id: invoiceId, order_id: "ATTACKER-ORDER", product_price: "90",
          status: "Completed", attempts: "99", action_date: "1999-01-01 00:00:00",
        })
        return { status: answer.status }
      })
    })

    it("a recurring webhook with the gateway's attempts but a forged status, order id and date records only the gateway's facts", async () => {
      const { planCode, invoiceId } = await subscribe()
      const recorded = await nextCharge(planCode, 2)
      await attack(ctx(), { attack: "recurring webhook forges status, order id and date within the gateway's attempts", ...ROW }, nothingChanged(), async () => {
        const answer = await forge({
          plan_code: planCode, recurring_number: "2", invoice_id: invoiceId, order_id: "ATTACKER-ORDER", product_price: "1",
          status: "Failed", attempts: "1", action_date: "1999-01-01 00:00:00",
        })
        return { status: answer.status }
      })
      const [after] = await sipay().listRecurringCharges({ id: recorded.id })
      expect(after).toMatchObject({ status: "Completed", attempts: 1, gateway_order_id: recorded.gateway_order_id, action_date: recorded.action_date })
    })

    it("freezing a declined charge with a forged high attempts count does not hide the gateway's successful retry", async () => {
      const { planCode, invoiceId } = await subscribe(DECLINES_ONCE)
      const declined = await nextCharge(planCode, 2)
      expect(declined).toMatchObject({ status: "Failed", attempts: 1 })
      const client = sipay().getClient()
      await attack(
        ctx(),
        { attack: "recurring webhook freezes a declined charge before the gateway's successful retry", ...ROW },
        recordIsGatewayFacts(planCode, 2, { status: "Completed", attempts: 2 }),
        async () => {
          const frozen = await forge({ plan_code: planCode, recurring_number: "2", invoice_id: invoiceId, order_id: declined.gateway_order_id, product_price: "90", status: "Failed", attempts: "99" })
          await advanceSeconds(24 * 3600 + 60)
          client.invalidateToken()
          await waitFor(async () => (await sipay().listRecurringCharges({ id: declined.id }))[0].status === "Completed", 20000).catch(() => undefined)
          const plan = await client.queryRecurringPlan(planCode, 2)
          return { frozenStatus: frozen.status, records: await sipay().listRecurringCharges({ plan_code: planCode }), gatewayOrderId: plan.charges[0]?.orderId }
        }
      )
    })

    it("a recurring webhook naming another shopper's invoice cannot bind a charge record to that shopper's order", async () => {
      const victim = await subscribe()
      const attacker = await subscribe()
      await attack(ctx(), { attack: "recurring webhook binds a new charge record to another shopper's order", ...ROW }, allOf(nothingChanged(), refusedWith(400)), async () => {
        const answer = await forge({
          plan_code: attacker.planCode, recurring_number: "1", invoice_id: victim.invoiceId, order_id: "X", product_price: "90", status: "Completed", attempts: "1",
        })
        return { status: answer.status }
      })
    })

    it("a recurring webhook for a plan the store did not open records nothing", async () => {
      // A plan opened at the gateway by someone else (their own invoice id, not one of the plugin's attempts).
      const client = sipay().getClient()
      const foreignInvoice = `foreign_${Date.now()}`
      const payment = await client.paySmart2D(
        {
          invoiceId: foreignInvoice, invoiceDescription: "Not this store's", total: "12", currencyCode: "TRY", installmentsNumber: 1, name: "Eve", surname: "Attacker",
          items: [{ name: "Plan", price: "12", quantity: 1, description: "" }], recurring: { paymentNumber: 2, cycle: "D", interval: 1, webhookKey: "medusa-recurring" },
        },
        { holderName: "Eve Attacker", number: PAYING_CARD.cc_no, expiryMonth: PAYING_CARD.expiry_month, expiryYear: PAYING_CARD.expiry_year, cvv: PAYING_CARD.cvv }
      )
      expect(payment.success).toBe(true)
      await attack(ctx(), { attack: "recurring webhook for a plan the store did not open", ...ROW }, allOf(nothingChanged(), refusedWith(400)), async () => {
        const answer = await forge({ plan_code: payment.orderNo!, recurring_number: "1", invoice_id: foreignInvoice, order_id: payment.orderNo!, product_price: "12", status: "Completed", attempts: "1" })
        return { status: answer.status }
      })
    })

    it("a recurring webhook with a status word outside the vocabulary records nothing", async () => {
      const { planCode, invoiceId } = await subscribe()
      await attack(ctx(), { attack: "recurring webhook with an unknown status word", ...ROW }, allOf(nothingChanged(), refusedWith(400)), async () => {
        const answer = await forge({ plan_code: planCode, recurring_number: "1", invoice_id: invoiceId, product_price: "90", status: "Paid", attempts: "1" })
        return { status: answer.status }
      })
    })

    it("a recurring webhook for a plan the gateway does not know answers 400 and logs one line without a stack", async () => {
      // Another paying test card: this file's earlier plans used up the per-card limit of the first.
      const { invoiceId } = await subscribe("5406675406675403")
      await attack(
        ctx(),
        { attack: "recurring webhook for a plan the gateway does not know: 400, one log line, no stack", point: "N9", status: "closed" },
        allOf(nothingChanged(), refusedWith(400), reported("one refusal logged, no stack trace", { refusalsLogged: 1, stackLogged: false })),
        async () => {
          const mark = logMark()
          const answer = await forge({ plan_code: "99999999999999999999999", recurring_number: "1", invoice_id: invoiceId, product_price: "90", status: "Completed", attempts: "1" })
          const log = await logSince(mark)
          return {
            status: answer.status,
            // Entries of the app's logger (tapped: one line each, where it writes them may vary between files).
            refusalsLogged: log.match(/^(\w*Error: )?(Recurring webhook refused|Sipay recurringPlan\/query failed)/gm)?.length ?? 0,
            // A stack in a JSON log line ("stack": [...]), in the logger's formatted error (stack: '...') or as frames.
            stackLogged: /"stack":|\bstack:\s|\bat \S+ \(\/\S+:\d+:\d+\)/.test(log),
          }
        }
      )
    })
  },
})
