import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { SHOPPER_MESSAGES } from "../../src/lib/shopper-messages"
import { seedStore, SeededStore } from "../harness/seed"
import { useSipayStack } from "../harness/stack"
import { createCart, DECLINING_CARD, issueThreeDForm, PAYING_CARD, payAtGateway, readForm, returnToStore, startPaymentSession, waitFor } from "../harness/shopper"

jest.setTimeout(300 * 1000)

/**
 * The checkout's redirect scenarios (a representative subset of checkout-3d.spec.ts) against the
 * sandbox in its other conventions (issue 18): the 3D redirect named as the live gateway does
 * (`sipay_status`, `sipay_payment_method`: 2021 docs 05.3D, the official WooCommerce module), and
 * checkstatus answered as the reference has it (31 for an unknown invoice, 100 + Failed for a failed
 * sale) inside a one-element array. checkout-3d.spec.ts runs the same scenarios under the defaults.
 */
const stack = useSipayStack({ sandbox: { redirectNames: "sipay", checkstatusCodes: "reference", checkstatusArray: true } })
const POS_NOT_DEFINED_CARD = { ...PAYING_CARD, cc_no: "4090700000000008" }

medusaIntegrationTestRunner({
  testSuite: ({ api, getContainer }) => {
    let store: SeededStore

    beforeEach(async () => {
      store = await seedStore(getContainer())
    })

    const sipay = () => getContainer().resolve("sipay") as any
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
      return (await query().graph({ entity: "order", fields: ["id"] })).data.length
    }

    async function attempt(invoiceId: string) {
      const [found] = await sipay().listPaymentAttempts({ invoice_id: invoiceId })
      return found
    }

    async function paidCart() {
      const cart = await createCart(api, store)
      const { session } = await startPaymentSession(api, store, cart.id)
      const form = await issueThreeDForm(api, store, session.id)
      return { cart, session, form }
    }

    it("3D Auth checkout with the live redirect names ends in an order with a captured payment", async () => {
      const { cart, form } = await paidCart()
      const result = await payAtGateway(form)
      // The sandbox really speaks the live names here.
      expect(result.fields).toMatchObject({ sipay_status: "1", sipay_payment_method: "1", payment_status: "1" })
      expect(result.fields).not.toHaveProperty("service_status")
      const landing = await returnToStore(result)
      const orderId = landing.pathname.split("/").pop()!
      expect(orderId).toMatch(/^order_/)
      const paid = await cartState(cart.id)
      expect(paid.order.id).toBe(orderId)
      expect(paid.order.payment_collections[0].payments[0].captured_at).toBeTruthy()
      expect(await attempt(form.invoice_id)).toMatchObject({ status: "paid", order_id: orderId })
    })

    it("a declined card (checkstatus 100 + Failed in an array) brings the shopper back with the error; a new attempt then succeeds", async () => {
      const { cart, session, form } = await paidCart()
      const declined = await payAtGateway(form, DECLINING_CARD)
      expect(declined.fields).toMatchObject({ sipay_status: "0", status_code: "41" })
      const landing = await returnToStore(declined)
      expect(landing.searchParams.get("error")).toBe(SHOPPER_MESSAGES.card_declined.en)
      expect((await cartState(cart.id)).completed_at).toBeFalsy()
      expect(await attempt(form.invoice_id)).toMatchObject({ status: "failed" })

      const second = await issueThreeDForm(api, store, session.id)
      expect((await returnToStore(await payAtGateway(second))).pathname).toMatch(/order_/)
      expect(await orderCount()).toBe(1)
    })

    it("a card refused before the bank page (102, no hash) brings the shopper back with the error and no order", async () => {
      const { cart, form } = await paidCart()
      const refused = await fetch(form.action, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ ...form.fields, ...POS_NOT_DEFINED_CARD }).toString(),
        redirect: "manual",
      })
      // The gateway's result comes back as a query string (303) or an auto-submitting form, as the form asked.
      const location = refused.status === 303 ? new URL(refused.headers.get("location")!) : null
      const result = location ? { action: `${location.origin}${location.pathname}`, fields: Object.fromEntries(location.searchParams) } : readForm(await refused.text())
      expect(result.fields).toMatchObject({ sipay_status: "0", status_code: "102" })
      expect(result.fields).not.toHaveProperty("service_status")
      const landing = await returnToStore(result)
      expect(landing.searchParams.get("error")).toBeTruthy()
      expect((await cartState(cart.id)).completed_at).toBeFalsy()
      expect(await orderCount()).toBe(0)
    })

    it("two tabs, the first one paid: one order, and the second tab's payment is given back", async () => {
      const { cart, session, form: firstTab } = await paidCart()
      const secondTab = await issueThreeDForm(api, store, session.id)
      expect((await returnToStore(await payAtGateway(firstTab))).pathname).toMatch(/order_/)
      const second = await returnToStore(await payAtGateway(secondTab))
      expect(second.searchParams.get("error")).toMatch(/returned to your card/)
      expect(await orderCount()).toBe(1)
      expect(await attempt(secondTab.invoice_id)).toMatchObject({ status: "reversed" })
      const refunded = await sipay().getClient().checkStatus(secondTab.invoice_id)
      expect(refunded.totalRefundedAmount).toBe(Number(cart.total).toFixed(2))
    })

    it("a tampered redirect changes nothing; the genuine one then places the order", async () => {
      const { cart, form } = await paidCart()
      const result = await payAtGateway(form)
      const forged = { ...result, fields: { ...result.fields, hash_key: result.fields.hash_key.replace(/.{8}$/, "AAAAAAA=") } }
      expect((await returnToStore(forged)).searchParams.get("error")).toMatch(/could not be verified/)
      expect((await cartState(cart.id)).completed_at).toBeFalsy()
      expect((await returnToStore(result)).pathname).toMatch(/order_/)
    })

    it("tells a shopper whose browser asks for Turkish in Turkish (a declined card and a tampered return)", async () => {
      const inTurkish = async (result: { action: string; fields: Record<string, string> }) => {
        const response = await fetch(result.action, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded", "accept-language": "tr-TR,tr;q=0.9,en;q=0.5" },
          body: new URLSearchParams(result.fields).toString(),
          redirect: "manual",
        })
        expect(response.status).toBe(303)
        return new URL(response.headers.get("location")!).searchParams.get("error")
      }
      const { form } = await paidCart()
      expect(await inTurkish(await payAtGateway(form, DECLINING_CARD))).toBe(SHOPPER_MESSAGES.card_declined.tr)
      const { form: second } = await paidCart()
      const result = await payAtGateway(second)
      const forged = { ...result, fields: { ...result.fields, hash_key: result.fields.hash_key.replace(/.{8}$/, "AAAAAAA=") } }
      expect(await inTurkish(forged)).toBe(SHOPPER_MESSAGES.payment_unverified.tr)
    })

    it("a shopper who closes the tab after paying still gets an order, from the webhook", async () => {
      const { cart, form } = await paidCart()
      await payAtGateway(form) // the result is never delivered
      const completed = await waitFor(async () => (await cartState(cart.id)).completed_at && (await cartState(cart.id)), 30000)
      expect(completed.order.id).toMatch(/^order_/)
      expect(await orderCount()).toBe(1)
    })
  },
})
