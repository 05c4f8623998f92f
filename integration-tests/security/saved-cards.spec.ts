import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { seedStore, SeededStore } from "../harness/seed"
import { confirmAtBank, PAYING_CARD, storeHeaders } from "../harness/shopper"
import { customerCart, customerSession, gatewayCards, signedInCustomer, type SignedInCustomer } from "../harness/customers"
import { allOf, attack, AttackContext, exactlyOneOrder, gatewayCallsAtMost, nothingChanged, refusedWith, reported, send, useSecurityStack } from "./attack"
import { rememberToken } from "./log-watch"
import { startSandbox } from "../../src/sandbox"
import { generateHashKey } from "../../src/lib/sipay"
import { cardHandle } from "../../src/lib/saved-cards/card-view"
import { CARD_CONSENT } from "../../src/lib/saved-cards/consent"

jest.setTimeout(300 * 1000)

/**
 * Issue 31: saved cards. A card is paid with only by the signed-in customer it was saved for, on
 * their own cart, through an id that names it within their own list at the gateway; no token is ever
 * handed out. Another customer's card, a deleted one, another merchant's token, a handle made under
 * another secret and a guest are refused before any gateway call; a replayed 3D result makes one order.
 */

const { stack, gatewayCalls } = useSecurityStack()
const ROW = { point: "31", status: "closed" as const }
const NO_CARD_PAYMENT = [gatewayCallsAtMost("payByCardToken", 0), gatewayCallsAtMost("payByCardTokenNonSecure", 0)]

medusaIntegrationTestRunner({
  testSuite: ({ api, getContainer }) => {
    let store: SeededStore
    const ctx = (): AttackContext => ({ file: __filename, stack, getContainer, gatewayCalls })
    const base = () => stack.backendUrl

    beforeEach(async () => {
      store = await seedStore(getContainer())
    })

    /** A signed-in customer whose direct checkout saved the card: their number and the card's id. */
    async function customerWithCard(email: string): Promise<{ customer: SignedInCustomer; number: string; cardId: string }> {
      const customer = await signedInCustomer(api, store, email)
      const cart = await customerCart(api, store, customer)
      const session = await customerSession(api, store, customer, cart.id, "pp_sipay-2d_sipay")
      const card = { holder_name: PAYING_CARD.cc_holder_name, number: PAYING_CARD.cc_no, expiry_month: PAYING_CARD.expiry_month, expiry_year: PAYING_CARD.expiry_year, cvv: PAYING_CARD.cvv }
      const paid = await send(`${base()}/store/sipay/payment-sessions/${session.id}/pay-2d`, { json: { cart_id: cart.id, card, save_card: { consent_version: CARD_CONSENT.version } }, headers: customer.headers.headers })
      const { data } = await (getContainer().resolve("query") as any).graph({ entity: "customer", fields: ["account_holders.external_id"], filters: { id: customer.id } })
      const number = String(data[0].account_holders[0].external_id)
      for (const entry of await gatewayCards(stack, number)) rememberToken(entry.card_token)
      return { customer, number, cardId: paid.json.saved_card.id }
    }

    /** The customer's own new cart on a provider's session, ready to be paid. */
    async function openCheckout(customer: SignedInCustomer, provider = "pp_sipay_sipay") {
      const cart = await customerCart(api, store, customer)
      const session = await customerSession(api, store, customer, cart.id, provider)
      const pay = (cardId: string, headers: Record<string, string> = customer.headers.headers, cartId = cart.id) =>
        send(`${base()}/store/sipay/payment-sessions/${session.id}/pay-saved-card`, { json: { cart_id: cartId, card_id: cardId }, headers })
      return { cart, session, pay }
    }

    it("another customer's saved card is refused on a signed-in customer's cart (3D and direct): nothing charged", async () => {
      const ayse = await customerWithCard("ayse@example.com")
      const mehmet = await signedInCustomer(api, store, "mehmet@example.com")
      const threeD = await openCheckout(mehmet)
      const direct = await openCheckout(mehmet, "pp_sipay-2d_sipay")
      await attack(
        ctx(),
        { ...ROW, attack: "a signed-in customer pays with another customer's saved card id (3D and direct)" },
        allOf(nothingChanged(), refusedWith(404), ...NO_CARD_PAYMENT),
        async () => ({ statuses: [(await threeD.pay(ayse.cardId)).status, (await direct.pay(ayse.cardId)).status] })
      )
    })

    it("a deleted saved card is refused: nothing charged", async () => {
      const ayse = await customerWithCard("ayse@example.com")
      await send(`${base()}/store/customers/me/sipay-cards/${ayse.cardId}`, { method: "DELETE", headers: ayse.customer.headers.headers })
      const checkout = await openCheckout(ayse.customer)
      await attack(ctx(), { ...ROW, attack: "a customer pays with a card they deleted (its id replayed)" }, allOf(nothingChanged(), refusedWith(404), ...NO_CARD_PAYMENT), async () => ({
        status: (await checkout.pay(ayse.cardId)).status,
      }))
    })

    it("another merchant's card token, the customer's own raw token and an id made under another secret are refused", async () => {
      const ayse = await customerWithCard("ayse@example.com")
      const [own] = await gatewayCards(stack, ayse.number)
      // Another merchant (another gateway account) with a card stored for the same customer number.
      const other = await startSandbox({ port: 0 })
      let foreignToken: string
      try {
        const m = other.merchant
        const token = (await send(`${other.base_url}/api/token`, { json: { app_id: m.app_id, app_secret: m.app_secret } })).json.data.token
        const year = PAYING_CARD.expiry_year
        const saved = await send(`${other.base_url}/api/saveCard`, {
          headers: { authorization: `Bearer ${token}` },
          json: {
            merchant_key: m.merchant_key, customer_number: ayse.number, card_holder_name: "Ayşe Yılmaz", card_number: PAYING_CARD.cc_no, expiry_month: "12", expiry_year: year,
            hash_key: generateHashKey([m.merchant_key, ayse.number, "Ayşe Yılmaz", PAYING_CARD.cc_no, "12", year], m.app_secret),
          },
        })
        foreignToken = saved.json.card_token
        rememberToken(foreignToken)
      } finally {
        await other.close()
      }
      const checkout = await openCheckout(ayse.customer)
      const forged = [foreignToken, own.card_token, cardHandle("another-stores-app-secret", ayse.number, own.card_token), cardHandle(stack.sandbox.merchant.app_secret, "1234567890123456", own.card_token)]
      await attack(
        ctx(),
        { ...ROW, attack: "another merchant's card token, the customer's own raw token, and ids made under another secret or for another customer number" },
        allOf(nothingChanged(), refusedWith(404), ...NO_CARD_PAYMENT),
        async () => ({ statuses: await Promise.all(forged.map(async (id) => (await checkout.pay(id)).status)) })
      )
    })

    it("a guest, or a customer on another's cart, cannot pay with, list or delete saved cards", async () => {
      const ayse = await customerWithCard("ayse@example.com")
      const mehmet = await signedInCustomer(api, store, "mehmet@example.com")
      const mehmetsCheckout = await openCheckout(mehmet)
      await attack(
        ctx(),
        { ...ROW, attack: "a guest pays with, lists or deletes saved cards; a customer pays another's cart with their own card" },
        allOf(nothingChanged(), ...NO_CARD_PAYMENT, reported("guests 401; their own card on another's cart 404", { guest: [401, 401, 401], otherCart: 404 })),
        async () => ({
          guest: [
            (await mehmetsCheckout.pay(ayse.cardId, storeHeaders(store).headers)).status,
            (await send(`${base()}/store/customers/me/sipay-cards`, { headers: storeHeaders(store).headers })).status,
            (await send(`${base()}/store/customers/me/sipay-cards/${ayse.cardId}`, { method: "DELETE", headers: storeHeaders(store).headers })).status,
          ],
          otherCart: (await mehmetsCheckout.pay(ayse.cardId, ayse.customer.headers.headers)).status,
        })
      )
    })

    it("saving a card needs a signed-in customer and the current consent: refused before anything is charged", async () => {
      const guestCustomer = await signedInCustomer(api, store, "guest-turned@example.com")
      const cart = await customerCart(api, store, guestCustomer)
      const session = await customerSession(api, store, guestCustomer, cart.id, "pp_sipay-2d_sipay")
      const card = { holder_name: PAYING_CARD.cc_holder_name, number: PAYING_CARD.cc_no, expiry_month: PAYING_CARD.expiry_month, expiry_year: PAYING_CARD.expiry_year, cvv: PAYING_CARD.cvv }
      const url = `${base()}/store/sipay/payment-sessions/${session.id}/pay-2d`
      await attack(
        ctx(),
        { ...ROW, attack: "a card saved without signing in, or with a consent version the shopper was not shown" },
        allOf(nothingChanged(), gatewayCallsAtMost("paySmart2D", 0), gatewayCallsAtMost("saveCard", 0), reported("401 without sign-in, 400 for another consent version", { statuses: [401, 400] })),
        async () => ({
          statuses: [
            (await send(url, { json: { cart_id: cart.id, card, save_card: { consent_version: CARD_CONSENT.version } }, headers: storeHeaders(store).headers })).status,
            (await send(url, { json: { cart_id: cart.id, card, save_card: { consent_version: "1999-01" } }, headers: guestCustomer.headers.headers })).status,
          ],
        })
      )
    })

    it("a saved card's 3D result replayed (at once and after the order) makes one order; no answer carries a card token", async () => {
      const ayse = await customerWithCard("ayse@example.com")
      const checkout = await openCheckout(ayse.customer)
      const tokens = (await gatewayCards(stack, ayse.number)).map((entry) => entry.card_token)
      const list = await send(`${base()}/store/customers/me/sipay-cards`, { headers: ayse.customer.headers.headers })
      const started = await checkout.pay(ayse.cardId)
      const result = await confirmAtBank(started.json.html)
      const deliver = () => send(result.action, { body: new URLSearchParams(result.fields) }).then((answer) => answer.status)
      await attack(
        ctx(),
        { ...ROW, attack: "a saved card's 3D result delivered 5 times at once, then replayed after the order" },
        allOf(exactlyOneOrder({ captured: true }), reported("no card token in the list or the bank page answer; every delivery redirected", { tokenInAnswers: false, statuses: [303, 303, 303, 303, 303, 303] })),
        async () => {
          const statuses = await Promise.all(Array.from({ length: 5 }, deliver))
          statuses.push(await deliver())
          return { statuses, tokenInAnswers: tokens.some((token) => list.text.includes(token) || started.text.includes(token)) }
        }
      )
    })
  },
})
