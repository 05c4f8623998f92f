import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { isIP } from "node:net"
import { seedStore, SeededStore } from "../harness/seed"
import * as shopper from "../harness/shopper"
import { createCart, DECLINING_CARD, PAYING_CARD, startPaymentSession } from "../harness/shopper"
import { allOf, attack, AttackContext, gatewayCallsAtMost, gatewayIpsValid, reported, RUN_LONG_WINDOW_SECONDS, send, useSecurityStack } from "./attack"

jest.setTimeout(300 * 1000)

/**
 * The store exposed directly (no trustedProxies, the default): the client address is the socket's,
 * whatever X-Forwarded-For says. Every request of this suite comes from 127.0.0.1, so the tests share
 * one per-address count and run in order. Windows are a century long: none ends during a run.
 */
const LIMITS = {
  windowSeconds: RUN_LONG_WINDOW_SECONDS,
  perSession: 5,
  perCart: 10,
  perCard: 5,
  perAddress: 6,
  installmentsPerAddress: 100,
  declineWindowSeconds: RUN_LONG_WINDOW_SECONDS,
  // The per-address limit is what these tests prove: the decline budgets stay out of the way.
  declinesPerBin: 1000,
  declinesPerPrefix: 1000,
  invalidCardsPerPrefix: 1000,
  declinesPerCart: 1000,
  declineBudget: 1000,
}

const { stack, gatewayCalls } = useSecurityStack({ env: { SIPAY_RATE_LIMITS: JSON.stringify(LIMITS) } })

function luhn(body: string): string {
  let sum = 0
  for (let i = 0; i < body.length; i++) {
    let d = Number(body[body.length - 1 - i])
    if (i % 2 === 0) {
      d *= 2
      if (d > 9) d -= 9
    }
    sum += d
  }
  return `${body}${(10 - (sum % 10)) % 10}`
}

function card(number: string) {
  return { holder_name: "Card Tester", number, expiry_month: PAYING_CARD.expiry_month, expiry_year: PAYING_CARD.expiry_year, cvv: "123" }
}

medusaIntegrationTestRunner({
  testSuite: ({ api, getContainer }) => {
    let store: SeededStore
    const ctx = (): AttackContext => ({ file: __filename, stack, getContainer, gatewayCalls })

    beforeEach(async () => {
      store = await seedStore(getContainer())
    })

    async function session(provider: string) {
      const cart = await createCart(api, store, [1, 0])
      const { session } = await startPaymentSession(api, store, cart.id, provider)
      return { sessionId: session.id as string, cartId: cart.id }
    }

    function pay2d(sessionId: string, number: string, forwardedFor: string) {
      return send(`${stack.backendUrl}/store/sipay/payment-sessions/${sessionId}/pay-2d`, {
        headers: { "x-publishable-api-key": store.publishableKey, "x-forwarded-for": forwardedFor },
        json: { cart_id: shopper.cartIdOfSession(sessionId), card: card(number) },
      })
    }

    it("a spoofed X-Forwarded-For is never sent to the gateway as the ip (3D form and direct payment)", async () => {
      const forgeries = ["<script>", "999.999.1.1", "8.8.8.8, 9.9.9.9"]
      await attack(
        ctx(),
        { attack: "a spoofed X-Forwarded-For is never sent to the gateway as the ip (3D form and direct payment)", point: "4", status: "closed" },
        allOf(gatewayIpsValid(["127.0.0.1", "::1"], { atLeast: 1 }), reported("the 3D forms carry the socket's address as ip", { formIpsForged: [] })),
        async () => {
          const formIps: string[] = []
          for (const forged of forgeries) {
            const { sessionId, cartId } = await session("pp_sipay_sipay")
            const proveCart = typeof (shopper as Record<string, unknown>).cartIdOfSession === "function"
            const form = await send(`${stack.backendUrl}/store/sipay/payment-sessions/${sessionId}/3d-form`, {
              headers: { "x-publishable-api-key": store.publishableKey, "x-forwarded-for": forged },
              json: { installments_number: 1, ...(proveCart ? { cart_id: cartId } : {}) },
            })
            formIps.push(String(form.json?.fields?.ip ?? "(no form)"))
          }
          const { sessionId } = await session("pp_sipay-2d_sipay")
          await pay2d(sessionId, DECLINING_CARD.cc_no, "<script>")
          return { formIps, formIpsForged: formIps.filter((ip) => !isIP(ip) || !["127.0.0.1", "::1"].includes(ip)) }
        }
      )
    })

    it("rotating X-Forwarded-For straight to the store does not escape the per-address limit", async () => {
      await attack(
        ctx(),
        { attack: "rotating X-Forwarded-For straight to the store does not escape the per-address limit", point: "4", status: "closed" },
        allOf(gatewayCallsAtMost("paySmart2D", LIMITS.perAddress), reported("tries past the limit answered 429", { lastStatus: 429 })),
        async () => {
          const statuses: number[] = []
          // The review's 60-ratelimit.mjs: 8 new sessions x 5 tries, X-Forwarded-For 203.0.113.N.
          for (let n = 1; n <= 8; n++) {
            const { sessionId } = await session("pp_sipay-2d_sipay")
            for (let i = 0; i < 5; i++) {
              statuses.push((await pay2d(sessionId, luhn(`41111111${String(n * 10 + i).padStart(7, "0")}`), `203.0.113.${n}`)).status)
            }
          }
          return { statuses, lastStatus: statuses[statuses.length - 1] }
        }
      )
    })
  },
})
