import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { seedStore, SeededStore } from "../harness/seed"
import * as shopper from "../harness/shopper"
import { createCart, DECLINING_CARD, PAYING_CARD, startPaymentSession } from "../harness/shopper"
import { signClientAddress } from "../../src/lib/limiter"
import { updateCheckoutSettingsWorkflow } from "../../src/workflows/steps/save-checkout-settings"
import {
  allOf,
  attack,
  AttackContext,
  exactlyOneOrder,
  Expectation,
  gatewayCallsAtMost,
  gatewayIpsValid,
  newAttemptsAtMost,
  nothingChanged,
  reported,
  send,
  useSecurityStack,
  RUN_LONG_WINDOW_SECONDS,
} from "./attack"

jest.setTimeout(300 * 1000)

/**
 * Limits behind a trusted proxy (the test client plays the proxy: loopback is trusted, and the
 * right-most X-Forwarded-For entry is the client). Windows are a century long (RUN_LONG_WINDOW_SECONDS)
 * so that none ends during a run, whatever the hour; each test uses its own client
 * addresses, since the limiter lives as long as the app.
 */
const LIMITS = {
  windowSeconds: RUN_LONG_WINDOW_SECONDS,
  perSession: 3,
  perCart: 5,
  perCard: 3,
  perAddress: 4,
  installmentsPerAddress: 5,
  declineWindowSeconds: RUN_LONG_WINDOW_SECONDS,
  // The decline budgets per BIN, prefix and cart are out of the way here (limits-nat.spec.ts holds them
  // at their defaults): each test below proves one limit. The store-wide budget is small, for the last one.
  declinesPerBin: 1000,
  declinesPerPrefix: 1000,
  invalidCardsPerPrefix: 1000,
  declinesPerCart: 1000,
  declineBudget: 40,
}
const STOREFRONT_SECRET = "storefront-server-secret-for-tests"

const { stack, gatewayCalls } = useSecurityStack({
  env: { SIPAY_RATE_LIMITS: JSON.stringify(LIMITS), SIPAY_TRUSTED_PROXIES: "loopback", SIPAY_STOREFRONT_SECRET: STOREFRONT_SECRET },
})

/** A card number the gateway does not know (Luhn-valid): what a card tester sends. */
function testerCard(seed: number): string {
  const body = `4111${String(seed).padStart(11, "0")}`
  const digits = body.split("").map(Number)
  let sum = 0
  for (let i = 0; i < digits.length; i++) {
    let d = digits[digits.length - 1 - i]
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

const POINT_3 = "3"
const POINT_4 = "4"

/** Every answer after the first `allowed` was a documented 429 (body and Retry-After). */
function refusedAfter(allowed: number): Expectation {
  return {
    text: `refused with 429 (rate_limited, Retry-After) after ${allowed}`,
    check: (_b, _a, extra) => {
      const answers = (extra.answers ?? []) as { status: number; type?: string; retryAfter?: string | null; retry_after?: number }[]
      const refused = answers.slice(allowed)
      if (!refused.length) return ["nothing was tried past the limit"]
      const wrong = refused.filter((a) => a.status !== 429 || a.type !== "rate_limited" || !a.retryAfter || Number(a.retryAfter) !== a.retry_after)
      return wrong.length ? [`${wrong.length} of ${refused.length} tries past the limit answered ${[...new Set(wrong.map((a) => a.status))].join(", ")} without the documented refusal`] : []
    },
  }
}

function answerOf(response: Awaited<ReturnType<typeof send>>) {
  return { status: response.status, type: response.json?.type, code: response.json?.code, retry_after: response.json?.retry_after, retryAfter: response.headers.get("retry-after") }
}

medusaIntegrationTestRunner({
  testSuite: ({ api, getContainer }) => {
    let store: SeededStore
    const ctx = (): AttackContext => ({ file: __filename, stack, getContainer, gatewayCalls })

    beforeEach(async () => {
      store = await seedStore(getContainer())
    })

    const storeKey = () => ({ "x-publishable-api-key": store.publishableKey })

    async function session(provider = "pp_sipay_sipay", cartId?: string) {
      const id = cartId ?? (await createCart(api, store, [1, 0])).id
      const { session } = await startPaymentSession(api, store, id, provider)
      return { sessionId: session.id as string, cartId: id }
    }

    function pay2d(sessionId: string, number: string, client: string, extraHeaders: Record<string, string> = {}) {
      return send(`${stack.backendUrl}/store/sipay/payment-sessions/${sessionId}/pay-2d`, {
        headers: { ...storeKey(), "x-forwarded-for": client, ...extraHeaders },
        json: { cart_id: shopper.cartIdOfSession(sessionId), card: card(number) },
      })
    }

    /** The store route a storefront's own card form calls (with the cart id when the route asks for it). */
    function threeDForm(sessionId: string, cartId: string, client: string, headers: Record<string, string> = {}) {
      const proveCart = typeof (shopper as Record<string, unknown>).cartIdOfSession === "function"
      return send(`${stack.backendUrl}/store/sipay/payment-sessions/${sessionId}/3d-form`, {
        headers: { ...storeKey(), "x-forwarded-for": client, ...headers },
        json: { installments_number: 1, ...(proveCart ? { cart_id: cartId } : {}) },
      })
    }

    /** The hosted page's sign route and the page's token, which its script sends in the body. */
    async function hostedSign(sessionId: string): Promise<{ url: string; token: string }> {
      const page = await shopper.hostedPageUrl(api, store, sessionId)
      return { url: shopper.hostedPageRoute(page, "sign"), token: shopper.hostedPageToken(page) }
    }

    describe("payment attempts", () => {
      it("30 storefront 3D forms on one session are refused past the per-session limit", async () => {
        const { sessionId, cartId } = await session()
        await attack(
          ctx(),
          { attack: "30 storefront 3D forms on one session are refused past the per-session limit", point: POINT_3, status: "closed" },
          allOf(newAttemptsAtMost(LIMITS.perSession), refusedAfter(LIMITS.perSession)),
          async () => {
            const answers = []
            for (let i = 0; i < 30; i++) answers.push(answerOf(await threeDForm(sessionId, cartId, `198.51.100.${i + 1}`)))
            return { answers }
          }
        )
      })

      it("30 hosted-page sign calls on one session are refused past the per-session limit", async () => {
        const { sessionId } = await session()
        const sign = await hostedSign(sessionId)
        await attack(
          ctx(),
          { attack: "30 hosted-page sign calls on one session are refused past the per-session limit", point: POINT_3, status: "closed" },
          allOf(newAttemptsAtMost(LIMITS.perSession), refusedAfter(LIMITS.perSession)),
          async () => {
            const answers = []
            for (let i = 0; i < 30; i++) {
              answers.push(answerOf(await send(sign.url, { headers: { "x-forwarded-for": `198.51.101.${i + 1}` }, json: { token: sign.token, installments_number: 1 } })))
            }
            return { answers }
          }
        )
      })

      it("a stranger holding only the session id cannot use up the shopper's attempts", async () => {
        const { sessionId, cartId } = await session()
        const strangerCart = (await createCart(api, store, [1, 0])).id
        await attack(
          ctx(),
          { attack: "a stranger holding only the session id cannot use up the shopper's attempts", point: POINT_3, status: "closed" },
          allOf(newAttemptsAtMost(2), reported("the shopper still gets a form and the hosted page still signs", { shopperForm: 200, shopperSign: 200 })),
          async () => {
            // 30 sign calls without the page's token and 30 forms naming another cart, from several addresses.
            for (let i = 0; i < 30; i++) {
              await send(`${stack.backendUrl}/sipay/checkout/${sessionId}/sign`, { headers: { "x-forwarded-for": `198.51.104.${i}` }, json: { installments_number: 1 } })
              await send(`${stack.backendUrl}/store/sipay/payment-sessions/${sessionId}/3d-form`, {
                headers: { ...storeKey(), "x-forwarded-for": `198.51.105.${i}` },
                json: { installments_number: 1, cart_id: strangerCart },
              })
            }
            const shopperForm = (await threeDForm(sessionId, cartId, "198.51.106.1")).status
            const sign = await hostedSign(sessionId)
            const shopperSign = (await send(sign.url, { headers: { "x-forwarded-for": "198.51.106.1" }, json: { token: sign.token, installments_number: 1 } })).status
            return { shopperForm, shopperSign }
          }
        )
      })

      it("a new payment session for each form does not escape the per-cart limit", async () => {
        const cart = await createCart(api, store, [1, 0])
        await attack(
          ctx(),
          { attack: "a new payment session for each form does not escape the per-cart limit", point: POINT_4, status: "closed" },
          allOf(newAttemptsAtMost(LIMITS.perCart), refusedAfter(LIMITS.perCart)),
          async () => {
            const answers = []
            for (let i = 0; i < 8; i++) {
              const { sessionId } = await session("pp_sipay_sipay", cart.id)
              answers.push(answerOf(await threeDForm(sessionId, cart.id, `198.51.102.${i + 1}`)))
            }
            return { answers }
          }
        )
      })
      it("a storefront-signed address stays the shopper's when the installment fee moves the payment to a new session", async () => {
        // The signature covers the session of the request; the attempt then pays on the session the fee line made.
        const setFees = (installment_fees: Record<string, unknown> | null) => updateCheckoutSettingsWorkflow(getContainer()).run({ input: { changes: { installment_fees } as never } })
        await setFees({ "3": { mode: "own", percentage: 2.5, fixed: 0 } })
        try {
          const { sessionId, cartId } = await session()
          const signed = signClientAddress({ secret: STOREFRONT_SECRET, ip: "192.0.2.77", sessionId })
          const form = await send(`${stack.backendUrl}/store/sipay/payment-sessions/${sessionId}/3d-form`, {
            headers: { ...storeKey(), "x-forwarded-for": "203.0.113.77", ...signed },
            json: { installments_number: 3, cart_id: cartId },
          })
          expect(form.status).toBe(200)
          expect(form.json.session_id).not.toBe(sessionId)
          expect(Number(form.json.installment_fee)).toBeGreaterThan(0)
          expect(form.json.fields.ip).toBe("192.0.2.77")
        } finally {
          await setFees(null)
        }
      })
    })

    describe("card testing (direct payment)", () => {
      it("rotating the X-Forwarded-For a client sends does not escape the per-address limit behind a trusted proxy", async () => {
        await attack(
          ctx(),
          { attack: "rotating the X-Forwarded-For a client sends does not escape the per-address limit behind a trusted proxy", point: POINT_4, status: "closed" },
          allOf(gatewayCallsAtMost("paySmart2D", LIMITS.perAddress), refusedAfter(LIMITS.perAddress), gatewayIpsValid(["203.0.113.77"], { atLeast: 2 })),
          async () => {
            const answers = []
            for (let i = 0; i < 8; i++) {
              const { sessionId } = await session("pp_sipay-2d_sipay")
              // The client wrote the left entry; the trusted proxy appended the client's real address.
              answers.push(answerOf(await pay2d(sessionId, i % 2 ? DECLINING_CARD.cc_no : testerCard(100 + i), `10.${i}.0.1, 203.0.113.77`)))
            }
            return { answers }
          }
        )
      })

      it("one card tried over many sessions and addresses is refused past the per-card limit", async () => {
        await attack(
          ctx(),
          { attack: "one card tried over many sessions and addresses is refused past the per-card limit", point: POINT_4, status: "closed" },
          allOf(gatewayCallsAtMost("paySmart2D", LIMITS.perCard), refusedAfter(LIMITS.perCard)),
          async () => {
            const answers = []
            for (let i = 0; i < 7; i++) {
              const { sessionId } = await session("pp_sipay-2d_sipay")
              answers.push(answerOf(await pay2d(sessionId, testerCard(777), `203.0.113.${100 + i}`)))
            }
            return { answers }
          }
        )
      })

      it("one session tried with many cards is refused past the per-session limit", async () => {
        const { sessionId } = await session("pp_sipay-2d_sipay")
        await attack(
          ctx(),
          { attack: "one session tried with many cards is refused past the per-session limit", point: POINT_4, status: "closed" },
          allOf(gatewayCallsAtMost("paySmart2D", LIMITS.perSession), refusedAfter(LIMITS.perSession)),
          async () => {
            const answers = []
            for (let i = 0; i < 6; i++) answers.push(answerOf(await pay2d(sessionId, testerCard(200 + i), `203.0.113.${120 + i}`)))
            return { answers }
          }
        )
      })

      it("X-Forwarded-For entries that are not addresses never reach the gateway as the ip", async () => {
        await attack(
          ctx(),
          { attack: "X-Forwarded-For entries that are not addresses never reach the gateway as the ip", point: POINT_4, status: "closed" },
          gatewayIpsValid(undefined, { atLeast: 4 }),
          async () => {
            // Known cards not used elsewhere in this suite, so that every try reaches the gateway.
            const cards = ["5456160000000000", "5456160000000000", "5456160000000000", "5355760000000009"]
            const forgeries = ["<script>", "999.999.1.1", "8.8.8.8, <img src=x>", "' or 1=1 --"]
            for (const [i, forged] of forgeries.entries()) {
              const { sessionId } = await session("pp_sipay-2d_sipay")
              await pay2d(sessionId, cards[i], forged)
            }
          }
        )
      })

      it("a forged storefront address header does not give a client a fresh limit", async () => {
        await attack(
          ctx(),
          { attack: "a forged storefront address header does not give a client a fresh limit", point: POINT_4, status: "closed" },
          allOf(gatewayCallsAtMost("paySmart2D", LIMITS.perAddress), refusedAfter(LIMITS.perAddress)),
          async () => {
            const answers = []
            for (let i = 0; i < 7; i++) {
              const { sessionId } = await session("pp_sipay-2d_sipay")
              const forged = signClientAddress({ secret: "guessed-secret", ip: `192.0.2.${i + 1}`, sessionId })
              answers.push(answerOf(await pay2d(sessionId, testerCard(300 + i), "203.0.113.88", forged)))
            }
            return { answers }
          }
        )
      })

      it("shoppers behind one storefront server are each limited on their own signed address, not refused together", async () => {
        await attack(
          ctx(),
          { attack: "shoppers behind one storefront server are each limited on their own signed address, not refused together", point: POINT_4, status: "closed" },
          allOf(exactlyOneOrderEach(6), gatewayIpsValid(["192.0.2.11", "192.0.2.12", "192.0.2.13", "192.0.2.14", "192.0.2.15", "192.0.2.16"])),
          async () => {
            const statuses = []
            for (let i = 0; i < 6; i++) {
              const { sessionId, cartId } = await session("pp_sipay-2d_sipay")
              // The storefront server (one address) signs its shopper's address for this session.
              const signed = signClientAddress({ secret: STOREFRONT_SECRET, ip: `192.0.2.${11 + i}`, sessionId })
              const paid = await pay2d(sessionId, i % 2 ? "5406675406675403" : PAYING_CARD.cc_no, "203.0.113.99", signed)
              statuses.push(paid.status)
              if (paid.status === 200) await api.post(`/store/carts/${cartId}/complete`, {}, { headers: storeKey() }).catch(() => undefined)
            }
            return { statuses }
          }
        )
      })

      it("installment look-ups (BIN probing) are refused past the per-address limit", async () => {
        await attack(
          ctx(),
          { attack: "installment look-ups (BIN probing) are refused past the per-address limit", point: POINT_4, status: "closed" },
          allOf(gatewayCallsAtMost("getpos", LIMITS.installmentsPerAddress), refusedAfter(LIMITS.installmentsPerAddress)),
          async () => {
            const answers = []
            for (let i = 0; i < 9; i++) {
              const bin = String(450803 + i)
              answers.push(
                answerOf(await send(`${stack.backendUrl}/store/sipay/installments?bin=${bin}&amount=100.00&currency_code=TRY`, { headers: { ...storeKey(), "x-forwarded-for": "203.0.113.150" } }))
              )
            }
            return { answers }
          }
        )
      })

      // Last: the budget is store-wide and stays spent for the rest of the app's life in this suite.
      it("card testing over fresh sessions, cards and 40 address prefixes is stopped by the store-wide last-resort budget", async () => {
        await attack(
          ctx(),
          { attack: "card testing over fresh sessions, cards and 40 address prefixes is stopped by the store-wide last-resort budget", point: POINT_4, status: "closed" },
          allOf(gatewayCallsAtMost("paySmart2D", LIMITS.declineBudget), reported("then an honest direct payment is refused with decline_budget, and nothing is charged", { honest: 429, honestCode: "decline_budget" }), nothingChangedButDeclines()),
          async () => {
            const answers = []
            for (let i = 0; i < LIMITS.declineBudget + 4; i++) {
              if (answers.some((answer) => answer.code === "decline_budget")) break
              const { sessionId } = await session("pp_sipay-2d_sipay")
              answers.push(answerOf(await pay2d(sessionId, testerCard(1000 + i), `198.18.${i}.1`)))
            }
            const { sessionId } = await session("pp_sipay-2d_sipay")
            const honest = await pay2d(sessionId, PAYING_CARD.cc_no, "198.18.200.1")
            return { answers, honest: honest.status, honestCode: honest.json?.code }
          }
        )
      })
    })

    describe("cross-site requests", () => {
      it("a cross-site form post to the storefront 3D form route is refused", async () => {
        const { sessionId, cartId } = await session()
        await attack(
          ctx(),
          { attack: "a cross-site form post to the storefront 3D form route is refused", point: POINT_3, status: "closed" },
          allOf(nothingChanged(), reported("answered 403 cross_site_request", { status: 403, code: "cross_site_request" })),
          async () => {
            const proveCart = typeof (shopper as Record<string, unknown>).cartIdOfSession === "function"
            const answer = await send(`${stack.backendUrl}/store/sipay/payment-sessions/${sessionId}/3d-form`, {
              headers: { ...storeKey(), origin: "https://evil.example", "sec-fetch-site": "cross-site", "x-forwarded-for": "203.0.113.160" },
              body: new URLSearchParams({ installments_number: "1", ...(proveCart ? { cart_id: cartId } : {}) }),
            })
            return { status: answer.status, code: answer.json?.code }
          }
        )
      })

      it("a cross-site form post to the hosted page's sign route is refused", async () => {
        const { sessionId } = await session()
        const sign = await hostedSign(sessionId)
        await attack(
          ctx(),
          { attack: "a cross-site form post to the hosted page's sign route is refused", point: POINT_3, status: "closed" },
          allOf(nothingChanged(), refusedAsCrossSite()),
          async () => {
            const backend = new URL(stack.backendUrl)
            // Another site's form, a sandboxed frame (Origin: null), a browser that sends only Sec-Fetch-Site, a look-alike host.
            const variants: Record<string, string>[] = [
              { origin: "https://evil.example" },
              { origin: "null", "sec-fetch-site": "cross-site" },
              { "sec-fetch-site": "cross-site" },
              { origin: `${backend.protocol}//${backend.hostname}.evil.example:${backend.port}`, "sec-fetch-site": "cross-site" },
            ]
            const answers = []
            for (const headers of variants) {
              const answer = await send(sign.url, { headers: { ...headers, "x-forwarded-for": "203.0.113.161" }, body: new URLSearchParams({ token: sign.token, installments_number: "1" }) })
              answers.push({ status: answer.status, code: answer.json?.code })
            }
            return { answers }
          }
        )
      })

      it("the gateway's cross-site posts to the 3D return, cancel and webhook routes are still accepted", async () => {
        const { sessionId, cartId } = await session()
        const form = (await threeDForm(sessionId, cartId, "203.0.113.170")).json
        const gatewayOrigin = new URL(stack.sandbox.base_url).origin
        const crossSite = { origin: gatewayOrigin, "sec-fetch-site": "cross-site" }
        await attack(
          ctx(),
          { attack: "the gateway's cross-site posts to the 3D return, cancel and webhook routes are still accepted", point: POINT_3, status: "closed" },
          allOf(exactlyOneOrder({ captured: true }), reported("no gateway post is refused as cross-site", { refused: [] })),
          async () => {
            const result = await shopper.payAtGateway(form, PAYING_CARD)
            const answers: Record<string, number> = {}
            answers.return = (await send(result.action, { headers: crossSite, body: new URLSearchParams(result.fields) })).status
            answers.cancel = (await send(`${stack.backendUrl}/sipay/3d/cancel`, { headers: crossSite, body: new URLSearchParams({ invoice_id: `${sessionId}_999` }) })).status
            answers.saleWebhook = (await send(`${stack.backendUrl}/hooks/payment/sipay_sipay`, { headers: crossSite, body: new URLSearchParams({ invoice_id: `${sessionId}_999` }) })).status
            answers.recurringWebhook = (await send(`${stack.backendUrl}/sipay/hooks/recurring`, { headers: crossSite, body: new URLSearchParams({ merchant_key: "x" }) })).status
            return { answers, refused: Object.entries(answers).filter(([, status]) => status === 403).map(([route]) => route) }
          }
        )
      })
    })
  },
})

/** Every variant answered 403 cross_site_request. */
function refusedAsCrossSite(): Expectation {
  return {
    text: "every variant answered 403 cross_site_request",
    check: (_b, _a, extra) => {
      const answers = (extra.answers ?? []) as { status: number; code?: string }[]
      const wrong = answers.filter((answer) => answer.status !== 403 || answer.code !== "cross_site_request")
      return !answers.length ? ["nothing was sent"] : wrong.map((answer) => `a variant answered ${answer.status} ${answer.code ?? ""}`.trim())
    },
  }
}

/** n orders, each captured once: every shopper paid. */
function exactlyOneOrderEach(n: number): Expectation {
  return {
    text: `each of the ${n} shoppers pays: ${n} orders, ${n} captured payments, none refused`,
    check: (before, after, extra) => {
      const problems: string[] = []
      const statuses = (extra.statuses ?? []) as number[]
      const refused = statuses.filter((status) => status !== 200).length
      if (refused) problems.push(`${refused} of ${statuses.length} shoppers were refused (${statuses.join(", ")})`)
      if (after.orders - before.orders !== n) problems.push(`${after.orders - before.orders} new orders`)
      if (after.capturedPayments - before.capturedPayments !== n) problems.push(`${after.capturedPayments - before.capturedPayments} new captured payments`)
      return problems
    },
  }
}

/** Only declined attempts appeared: no order, no charge, no refund. */
function nothingChangedButDeclines(): Expectation {
  const base = nothingChanged({ allowNewAttempts: true })
  return {
    text: "no order, no charge",
    check: (before, after, extra) => base.check(before, after, extra).filter((violation) => !violation.startsWith("gateway sales")),
  }
}

