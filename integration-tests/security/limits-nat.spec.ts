import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { seedStore, SeededStore } from "../harness/seed"
import { appendFileSync } from "node:fs"
import { cartIdOfSession, createCart, DECLINING_CARD, PAYING_CARD, payAtGateway, returnToStore, startPaymentSession, withAnswer } from "../harness/shopper"
import { luhnValid } from "../../src/sandbox/cards"
import { allOf, attack, AttackContext, Expectation, gatewayCallsAtMost, reported, RUN_LONG_WINDOW_SECONDS, send, useSecurityStack } from "./attack"

jest.setTimeout(900 * 1000)

/**
 * The limits at their defaults, against what they are for: honest shoppers behind one address (a
 * carrier's CGNAT, an office) all pay, and a card tester rotating addresses reaches the gateway a few
 * times only. The test client plays a trusted proxy (loopback): the right-most X-Forwarded-For entry is
 * the client. Requests with no X-Forwarded-For come from the store's own storefront server
 * (`storefrontAddresses: loopback`). Two changes from the defaults: the windows are a century long (none
 * ends during a run), and `perCard` is high, because the sandbox has only six cards that pay by direct
 * payment while a hundred real shoppers have a hundred cards.
 */
const LIMITS = { windowSeconds: RUN_LONG_WINDOW_SECONDS, declineWindowSeconds: RUN_LONG_WINDOW_SECONDS, perCard: 100000 }
/** The defaults these tests hold (docs/storefront.md "Rate limits and the client address"). */
const DEFAULTS = { declinesPerCart: 5, declinesPerBin: 20, invalidCardsPerPrefix: 3 }
const PAYING_2D_CARDS = ["4508034508034509", "5406675406675403", "6501700139082826", "4155140000000009", "4155150000000008"]

const { stack, gatewayCalls } = useSecurityStack({
  env: { SIPAY_RATE_LIMITS: JSON.stringify(LIMITS), SIPAY_TRUSTED_PROXIES: "loopback", SIPAY_STOREFRONT_ADDRESSES: "loopback" },
})

/** 16 random digits behind a 4 or a 5. */
function randomCardNumber(): string {
  return `${Math.random() < 0.5 ? 4 : 5}${Array.from({ length: 15 }, () => Math.floor(Math.random() * 10)).join("")}`
}

/** A card number a card tester makes up: random, Luhn-valid (by the gateway's own check). */
function randomLuhnCard(): string {
  for (;;) {
    const number = randomCardNumber()
    if (luhnValid(number)) return number
  }
}

function card(number: string) {
  return { holder_name: "Ayşe Yılmaz", number, expiry_month: PAYING_CARD.expiry_month, expiry_year: PAYING_CARD.expiry_year, cvv: "000" }
}

/** `count` items at a time. */
async function inBatches<T, R>(items: T[], count: number, run: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = []
  for (let i = 0; i < items.length; i += count) {
    results.push(...(await Promise.all(items.slice(i, i + count).map((item, j) => run(item, i + j)))))
  }
  return results
}

/** The figures a run measured, for the report (SIPAY_LIMITS_FIGURES names a file to append them to). */
function figure(name: string, values: Record<string, unknown>): void {
  if (process.env.SIPAY_LIMITS_FIGURES) appendFileSync(process.env.SIPAY_LIMITS_FIGURES, `${JSON.stringify({ name, ...values })}\n`)
}

/** n new orders, each captured once, and every shopper answered `status`. */
function everyShopperPaid(n: number): Expectation {
  return {
    text: `all ${n} shoppers pay: ${n} orders, ${n} captured payments, none refused`,
    check: (before, after, extra) => {
      const problems: string[] = []
      const statuses = (extra.statuses ?? []) as number[]
      const refused = statuses.filter((status) => status !== 200 && status !== 303)
      if (statuses.length !== n) problems.push(`${statuses.length} of ${n} shoppers were seen`)
      if (refused.length) problems.push(`${refused.length} of ${n} shoppers were refused (${[...new Set(refused)].join(", ")})`)
      if (after.orders - before.orders !== n) problems.push(`${after.orders - before.orders} new orders`)
      if (after.capturedPayments - before.capturedPayments !== n) problems.push(`${after.capturedPayments - before.capturedPayments} new captured payments`)
      return problems
    },
  }
}

medusaIntegrationTestRunner({
  testSuite: ({ api, getContainer }) => {
    let store: SeededStore
    const ctx = (): AttackContext => ({ file: __filename, stack, getContainer, gatewayCalls })

    beforeEach(async () => {
      store = await seedStore(getContainer())
    })

    const storeKey = () => ({ "x-publishable-api-key": store.publishableKey })

    async function session(provider: string) {
      const cart = await createCart(api, store, [1, 0]).catch(withAnswer)
      const { session } = await startPaymentSession(api, store, cart.id, provider).catch(withAnswer)
      return { sessionId: session.id as string, cartId: cart.id }
    }

    /** n carts, each with a payment session: the first alone (Medusa creates the guest customer once), then 10 at a time. */
    async function newSessions(n: number, provider: string) {
      const first = await session(provider)
      return [first, ...(await inBatches(Array.from({ length: n - 1 }), 10, () => session(provider)))]
    }

    function pay2d(sessionId: string, number: string, client: string | null) {
      return send(`${stack.backendUrl}/store/sipay/payment-sessions/${sessionId}/pay-2d`, {
        headers: { ...storeKey(), ...(client ? { "x-forwarded-for": client } : {}) },
        json: { cart_id: cartIdOfSession(sessionId), card: card(number) },
      })
    }

    function threeDForm(sessionId: string, cartId: string, client: string | null) {
      return send(`${stack.backendUrl}/store/sipay/payment-sessions/${sessionId}/3d-form`, {
        headers: { ...storeKey(), ...(client ? { "x-forwarded-for": client } : {}) },
        json: { installments_number: 1, cart_id: cartId },
      })
    }

    /** An honest shopper paying by direct payment from their own address; the HTTP status. */
    async function honestDirectPayment(client: string): Promise<number> {
      const { sessionId } = await session("pp_sipay-2d_sipay")
      return (await pay2d(sessionId, PAYING_CARD.cc_no, client)).status
    }

    describe("honest shoppers behind one address", () => {
      it("100 shoppers behind one NAT address, started together, all pay by direct payment", async () => {
        const sessions = await newSessions(100, "pp_sipay-2d_sipay")
        await attack(
          ctx(),
          { attack: "100 shoppers behind one NAT address, started together, all pay by direct payment", point: "4", status: "closed" },
          everyShopperPaid(100),
          async () => {
            const answers = await Promise.all(sessions.map(({ sessionId }, i) => pay2d(sessionId, PAYING_2D_CARDS[i % PAYING_2D_CARDS.length], "100.64.20.1")))
            return { statuses: answers.map((answer) => answer.status) }
          }
        )
      })

      it("100 shoppers behind one NAT address, started together, all pay through the store's own 3D form", async () => {
        const sessions = await newSessions(100, "pp_sipay_sipay")
        await attack(
          ctx(),
          { attack: "100 shoppers behind one NAT address, started together, all pay through the store's own 3D form", point: "4", status: "closed" },
          everyShopperPaid(100),
          async () => {
            const forms = await Promise.all(sessions.map(({ sessionId, cartId }) => threeDForm(sessionId, cartId, "100.64.30.1")))
            const refused = forms.filter((form) => form.status !== 200).map((form) => form.status)
            const returns = await inBatches(
              forms.filter((form) => form.status === 200),
              25,
              async (form) => (await returnToStore(await payAtGateway(form.json, PAYING_CARD))).pathname.startsWith("/order/confirmed/") ? 303 : 0
            )
            return { statuses: [...refused, ...returns] }
          }
        )
      })

      it("a storefront server's own unsigned requests are counted per session and cart only: 35 declined shoppers all get their form", async () => {
        const sessions = await newSessions(35, "pp_sipay_sipay")
        await attack(
          ctx(),
          { attack: "a storefront server's own unsigned requests are counted per session and cart only: 35 declined shoppers all get their form", point: "4", status: "closed" },
          reported("every form is given and every shopper is declined at the bank", { refused: [], declined: 35 }),
          async () => {
            const refused: number[] = []
            let declined = 0
            for (const { sessionId, cartId } of sessions) {
              // No X-Forwarded-For: the storefront server (loopback, `storefrontAddresses`) calling without a signed address.
              const form = await threeDForm(sessionId, cartId, null)
              if (form.status !== 200) {
                refused.push(form.status)
                continue
              }
              const landing = await returnToStore(await payAtGateway(form.json, DECLINING_CARD))
              if (landing.searchParams.get("error")) declined++
            }
            return { refused, declined }
          }
        )
      })
    })

    describe("a client whose attempts keep ending unpaid", () => {
      it("31 unpaid 3D forms from one IPv6 /64: the 31st after 30 declines is refused, in every spelling; another /64 is not", async () => {
        await attack(
          ctx(),
          { attack: "31 unpaid 3D forms from one IPv6 /64: the 31st after 30 declines is refused, in every spelling; another /64 is not", point: "4", status: "closed" },
          reported("30 forms declined at the bank, then 429 address_limit with Retry-After for every address and spelling of that /64, 200 for the next /64", {
            declined: 30,
            refusedCodes: ["address_limit", "address_limit", "address_limit", "address_limit"],
            retryAfterSent: true,
            otherNetwork: 200,
          }),
          async () => {
            let declined = 0
            const carts = await newSessions(35, "pp_sipay_sipay")
            for (let i = 1; i <= 30; i++) {
              const { sessionId, cartId } = carts[i - 1]
              const form = await threeDForm(sessionId, cartId, `2001:db8:5130:1::${i.toString(16)}`)
              if (form.status !== 200) break
              const landing = await returnToStore(await payAtGateway(form.json, DECLINING_CARD))
              if (landing.searchParams.get("error")) declined++
            }
            const refusedCodes: string[] = []
            let retryAfterSent = true
            for (const [n, spelling] of ["2001:db8:5130:1::ffff", "2001:0DB8:5130:0001:0000:0000:0000:0031", "2001:db8:5130:1:0:0:0:1", "2001:db8:5130:1:abcd:ef01:2345:6789"].entries()) {
              const { sessionId, cartId } = carts[30 + n]
              const form = await threeDForm(sessionId, cartId, spelling)
              refusedCodes.push(form.status === 429 ? form.json?.code : String(form.status))
              retryAfterSent &&= form.status === 429 && Number(form.headers.get("retry-after")) > 0
            }
            const other = carts[34]
            const otherNetwork = (await threeDForm(other.sessionId, other.cartId, "2001:db8:5130:2::1")).status
            return { declined, refusedCodes, retryAfterSent, otherNetwork }
          }
        )
      })
    })

    describe("decline budgets of direct payments per signal", () => {
      it("one cart declined 5 times pays by 3D Secure only; the next cart from the same addresses pays directly", async () => {
        const budget = DEFAULTS.declinesPerCart
        await attack(
          ctx(),
          { attack: "one cart declined 5 times pays by 3D Secure only; the next cart from the same addresses pays directly", point: "4", status: "closed" },
          reported(`${budget} declines, then 429 decline_budget for that cart; another cart pays`, { answers: [...Array(budget).fill("402 card_declined"), "429 decline_budget"], other: 200 }),
          async () => {
            const { sessionId } = await session("pp_sipay-2d_sipay")
            const answers: string[] = []
            for (let i = 0; i <= budget; i++) {
              // A blocked card (declined), each try from another /24: only the cart is common.
              const answer = await pay2d(sessionId, "5456160000000000", `203.0.${10 + i}.1`)
              answers.push(`${answer.status} ${answer.json?.code}`)
            }
            const other = await session("pp_sipay-2d_sipay")
            return { answers, other: (await pay2d(other.sessionId, PAYING_CARD.cc_no, `203.0.${10 + budget}.1`)).status }
          }
        )
      })

      it("one BIN declined 20 times over fresh carts and addresses pays by 3D Secure only; another BIN pays directly", async () => {
        const budget = DEFAULTS.declinesPerBin
        await attack(
          ctx(),
          { attack: "one BIN declined 20 times over fresh carts and addresses pays by 3D Secure only; another BIN pays directly", point: "4", status: "closed" },
          reported(`${budget} declines, then 429 decline_budget for that BIN; another card pays from the same address`, { declined: budget, refused: "429 decline_budget", other: 200 }),
          async () => {
            let declined = 0
            const carts = await newSessions(budget, "pp_sipay-2d_sipay")
            for (let i = 0; i < budget; i++) {
              const { sessionId } = carts[i]
              if ((await pay2d(sessionId, DECLINING_CARD.cc_no, `203.1.${i}.1`)).status === 402) declined++
            }
            const { sessionId } = await session("pp_sipay-2d_sipay")
            const refused = await pay2d(sessionId, DECLINING_CARD.cc_no, "203.1.200.1")
            const other = await session("pp_sipay-2d_sipay")
            return { declined, refused: `${refused.status} ${refused.json?.code}`, other: (await pay2d(other.sessionId, PAYING_CARD.cc_no, "203.1.200.1")).status }
          }
        )
      })
    })

    describe("a card tester with random card numbers, rotating addresses", () => {
      /** The tester's run: 100 made-up cards, a fresh cart for each, from `addressOf(i)`; an honest shopper pays halfway and at the end. */
      async function cardTester(addressOf: (i: number) => string) {
        const codes: Record<string, number> = {}
        const honest: number[] = []
        // A fresh cart per card, made beforehand (10 at a time): the tester's payments themselves go one by one.
        const carts = await newSessions(100, "pp_sipay-2d_sipay")
        for (let i = 0; i < 100; i++) {
          const { sessionId } = carts[i]
          const answer = await pay2d(sessionId, randomLuhnCard(), addressOf(i))
          const key = `${answer.status}${answer.json?.code ? ` ${answer.json.code}` : ""}`
          codes[key] = (codes[key] ?? 0) + 1
          if (i === 49) honest.push(await honestDirectPayment("192.0.2.77"))
        }
        honest.push(await honestDirectPayment("192.0.2.78"))
        return { codes, honest }
      }

      it("100 random Luhn-valid card numbers from rotating addresses of one IPv6 /64 reach the gateway a few times; an honest direct payment meanwhile pays", async () => {
        const invalidPerPrefix = DEFAULTS.invalidCardsPerPrefix
        await attack(
          ctx(),
          { attack: "100 random Luhn-valid card numbers from rotating addresses of one IPv6 /64 reach the gateway a few times; an honest direct payment meanwhile pays", point: "4", status: "closed" },
          allOf(gatewayCallsAtMost("paySmart2D", invalidPerPrefix + 2), reported("the honest shopper's direct payments (halfway and after) are paid", { honest: [200, 200] })),
          async () => {
            const before = gatewayCalls.counts.paySmart2D ?? 0
            const result = await cardTester((i) => `2001:db8:7e57:1:${((i * 7919) % 65536).toString(16)}:${((i * 104729) % 65536).toString(16)}:0:${(i + 1).toString(16)}`)
            // Two of the paySmart2D calls are the honest shopper's.
            const testerReachedGateway = (gatewayCalls.counts.paySmart2D ?? 0) - before - 2
            figure("card tester, one IPv6 /64", { ...result, testerReachedGateway })
            return { ...result, testerReachedGateway }
          }
        )
      })

      it("100 random Luhn-valid card numbers from rotating addresses of 11 IPv4 /24s reach the gateway a few times per /24; an honest direct payment meanwhile pays", async () => {
        const invalidPerPrefix = DEFAULTS.invalidCardsPerPrefix
        await attack(
          ctx(),
          { attack: "100 random Luhn-valid card numbers from rotating addresses of 11 IPv4 /24s reach the gateway a few times per /24; an honest direct payment meanwhile pays", point: "4", status: "closed" },
          allOf(gatewayCallsAtMost("paySmart2D", 11 * invalidPerPrefix + 2), reported("the honest shopper's direct payments (halfway and after) are paid", { honest: [200, 200] })),
          async () => {
            const before = gatewayCalls.counts.paySmart2D ?? 0
            const result = await cardTester((i) => `198.${51 + (i % 11)}.${100 + (i % 11)}.${1 + Math.floor(i / 11) * 17}`)
            const testerReachedGateway = (gatewayCalls.counts.paySmart2D ?? 0) - before - 2
            figure("card tester, 11 IPv4 /24s", { ...result, testerReachedGateway })
            return { ...result, testerReachedGateway }
          }
        )
      })

      it("card numbers that fail the local check never reach the gateway and spend no decline budget", async () => {
        await attack(
          ctx(),
          { attack: "card numbers that fail the local check never reach the gateway and spend no decline budget", point: "4", status: "closed" },
          allOf(gatewayCallsAtMost("paySmart2D", 1), reported("each refused at once with 400 and the problem's code, then an honest payment from the same address pays", { codes: { "400 card_number_invalid": 40, "400 card_expired": 1 }, honest: 200 })),
          async () => {
            const codes: Record<string, number> = {}
            const count = (answer: Awaited<ReturnType<typeof send>>) => {
              const key = `${answer.status} ${answer.json?.code}`
              codes[key] = (codes[key] ?? 0) + 1
            }
            const carts = await newSessions(40, "pp_sipay-2d_sipay")
            for (let i = 0; i < 40; i++) {
              const { sessionId } = carts[i]
              // Random 16 digits: 9 in 10 fail Luhn; the ones that pass are made to fail.
              let number = randomCardNumber()
              if (luhnValid(number)) number = `${number.slice(0, 15)}${(Number(number[15]) + 1) % 10}`
              count(await pay2d(sessionId, number, "203.0.113.201"))
            }
            const { sessionId } = await session("pp_sipay-2d_sipay")
            count(await send(`${stack.backendUrl}/store/sipay/payment-sessions/${sessionId}/pay-2d`, {
              headers: { ...storeKey(), "x-forwarded-for": "203.0.113.201" },
              json: { cart_id: cartIdOfSession(sessionId), card: { ...card(PAYING_CARD.cc_no), expiry_month: "01", expiry_year: "2020" } },
            }))
            return { codes, honest: await honestDirectPayment("203.0.113.201") }
          }
        )
      })
    })
  },
})
