import { spawn } from "node:child_process"
import { resolve } from "node:path"
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import type { Browser } from "playwright-core"
import SipayModuleService from "../../src/modules/sipay/service"
import { Sipay3DProviderService } from "../../src/providers/sipay/services/sipay-3d"
import { SMS_TEST_CODE } from "../../src/sandbox"
import { launchBrowser } from "../harness/browser"
import { seedStore, SeededStore } from "../harness/seed"
import { createCart, hostedPageUrl, PAYING_CARD, startPaymentSession } from "../harness/shopper"
import { allOf, attack, AttackContext, exactlyOneOrder, Expectation, gatewayCallsAtMost, nothingChanged, reported, send, useSecurityStack } from "./attack"
import { logMark, logSince, rememberCard, rememberToken, secretsIn, tokenOfHostedPageUrl } from "./log-watch"

jest.setTimeout(300 * 1000)

/**
 * Security review round 3: card data and the hosted page's token never leave the request (N2, N7),
 * a direct-payment session id alone gives a stranger nothing (N5), and the sandbox is never a
 * production store's gateway by mistake (N10). The app runs with NODE_ENV=production (attack.ts), so
 * Medusa's request log is on, as in a real store.
 */

const { stack, gatewayCalls } = useSecurityStack()

const REPOSITORY = resolve(__dirname, "..", "..")
/** A CVV the suite sends only here: the log check looks for it (log-watch.ts). */
const CVV = "739"
const CARD = PAYING_CARD.cc_no

function goodCard(overrides: Record<string, unknown> = {}) {
  return { holder_name: PAYING_CARD.cc_holder_name, number: CARD, expiry_month: PAYING_CARD.expiry_month, expiry_year: PAYING_CARD.expiry_year, cvv: CVV, ...overrides }
}

/** None of the answers holds a card number (or its first 10 digits), a CVV or a token. */
function answersHoldNoCardData(): Expectation {
  return {
    text: "no answer holds a card number, its first 10 digits or the CVV",
    check: (_before, _after, extra) =>
      Object.entries((extra.answers ?? {}) as Record<string, string>).flatMap(([what, text]) => secretsIn(text).map((secret) => `${what}: ${secret} in the answer`)),
  }
}

/** What the app wrote during the attack holds nothing of a card or a token (and it did write its request log). */
function logHoldsNoSecrets(): Expectation {
  return {
    text: "the request log and logger written meanwhile hold no card number, CVV or token",
    check: (_before, _after, extra) => {
      const log = String(extra.log ?? "")
      const problems = secretsIn(log).map((secret) => `${secret} in the log`)
      if (!log.includes('"level":"http"')) problems.push("no request log line was written meanwhile")
      return problems
    },
  }
}

/** Every request of the attack was answered `status` (extra.statuses: what -> status). */
function everyAnswer(status: number): Expectation {
  return {
    text: `every request answered ${status}`,
    check: (_before, _after, extra) => {
      const statuses = (extra.statuses ?? {}) as Record<string, number>
      if (!Object.keys(statuses).length) return ["nothing was sent"]
      return Object.entries(statuses)
        .filter(([, answered]) => answered !== status)
        .map(([what, answered]) => `${what} answered ${answered}`)
    },
  }
}

/** Runs the sandbox CLI from source; resolves with its exit (or its output when `until` shows up, the process then stopped). */
function runSandboxCli(args: string[], env: Record<string, string>, until?: RegExp): Promise<{ code: number | null; output: string; ready: boolean }> {
  const tsNode = require.resolve("ts-node/dist/bin.js")
  return new Promise((done) => {
    const child = spawn(process.execPath, [tsNode, "--transpile-only", "src/sandbox/cli.ts", ...args], {
      cwd: REPOSITORY,
      env: { PATH: process.env.PATH ?? "", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    })
    let output = ""
    let ready = false
    const timer = setTimeout(() => child.kill("SIGKILL"), 60_000)
    const read = (chunk: Buffer) => {
      output += chunk.toString("utf8")
      if (until && !ready && until.test(output)) {
        ready = true
        child.kill("SIGTERM")
      }
    }
    child.stdout.on("data", read)
    child.stderr.on("data", read)
    child.on("close", (code) => {
      clearTimeout(timer)
      done({ code, output, ready })
    })
  })
}

medusaIntegrationTestRunner({
  testSuite: ({ api, getContainer }) => {
    let store: SeededStore
    const ctx = (): AttackContext => ({ file: __filename, stack, getContainer, gatewayCalls })
    const storeKey = () => ({ "x-publishable-api-key": store.publishableKey })

    beforeEach(async () => {
      store = await seedStore(getContainer())
    })

    async function directSession() {
      const cart = await createCart(api, store, [1, 0])
      const { session } = await startPaymentSession(api, store, cart.id, "pp_sipay-2d_sipay")
      return { sessionId: session.id as string, cartId: cart.id }
    }

    const pay2dUrl = (sessionId: string) => `${stack.backendUrl}/store/sipay/payment-sessions/${sessionId}/pay-2d`

    describe("N2: card data in a direct payment's body", () => {
      it("card fields of the wrong JSON type, malformed JSON and other encodings are refused without echoing or logging the card", async () => {
        const { sessionId, cartId } = await directSession()
        rememberCard(CARD, CVV)
        const year = PAYING_CARD.expiry_year
        const bodies: Record<string, { body: string; type?: string }> = {
          "card as one string": { body: JSON.stringify({ cart_id: cartId, installments_number: 1, card: `${CARD}|12|${year}|${CVV}` }) },
          "card number as a JSON number": { body: JSON.stringify({ cart_id: cartId, installments_number: 1, card: goodCard({ number: Number(CARD) }) }) },
          "CVV as a JSON number": { body: JSON.stringify({ cart_id: cartId, installments_number: 1, card: goodCard({ cvv: Number(CVV) }) }) },
          "card as an array": { body: JSON.stringify({ cart_id: cartId, installments_number: 1, card: [CARD, "12", year, CVV] }) },
          "expiry and holder as numbers": { body: JSON.stringify({ cart_id: cartId, installments_number: 1, card: goodCard({ holder_name: Number(CARD), expiry_month: 12, expiry_year: Number(year) }) }) },
          "installments as the card number": { body: JSON.stringify({ cart_id: cartId, installments_number: CARD, card: goodCard({ number: "not a card" }) }) },
          "a card number that is not one": { body: JSON.stringify({ cart_id: cartId, installments_number: 1, card: goodCard({ number: `${CARD}x` }) }) },
          "malformed JSON starting with the card": { body: `${CARD}|12|${year}|${CVV}` },
          "truncated JSON": { body: `{"cart_id":"${cartId}","card":{"number":"${CARD}","cvv":"${CVV}"` },
          "JSON sent as text/plain": { body: JSON.stringify({ cart_id: cartId, installments_number: 1, card: goodCard({ cvv: Number(CVV) }) }), type: "text/plain" },
          "a form-encoded card": { body: `cart_id=${cartId}&card[number]=${CARD}&card[cvv]=${CVV}&card[holder_name]=X&card[expiry_month]=12&card[expiry_year]=${year}`, type: "application/x-www-form-urlencoded" },
          "an unknown card key": { body: JSON.stringify({ cart_id: cartId, installments_number: 1, card: { ...goodCard(), pin: CVV } }) },
        }
        await attack(
          ctx(),
          { attack: "card fields of the wrong JSON type, malformed JSON and other encodings are refused without echoing or logging the card", point: "N2", status: "closed" },
          allOf(everyAnswer(400), answersHoldNoCardData(), logHoldsNoSecrets(), gatewayCallsAtMost("paySmart2D", 0), nothingChanged()),
          async () => {
            const mark = logMark()
            const statuses: Record<string, number> = {}
            const answers: Record<string, string> = {}
            for (const [what, { body, type }] of Object.entries(bodies)) {
              const answer = await send(pay2dUrl(sessionId), { headers: { ...storeKey(), "content-type": type ?? "application/json" }, body })
              statuses[what] = answer.status
              answers[what] = answer.text
            }
            return { statuses, answers, log: await logSince(mark) }
          }
        )
      })
    })

    describe("N5: a stranger with a direct-payment session id", () => {
      it("a stranger holding only a direct-payment session id gets no cart id and no shopper data from pay-2d", async () => {
        const victim = await directSession()
        const strangerCart = (await createCart(api, store, [0, 1])).id
        const shopperData = [victim.cartId, "ayse@example.com", "5551234567", "İstiklal"]
        await attack(
          ctx(),
          { attack: "a stranger holding only a direct-payment session id gets no cart id and no shopper data from pay-2d", point: "N5", status: "closed" },
          allOf(
            reported("no cart id or shopper data in any answer; without cart_id 400 naming the kit to upgrade; with another cart 404", {
              revealed: [],
              withoutCart: 400,
              upgradeNamed: true,
              withOwnCart: 404,
              withMadeUpCart: 404,
            }),
            gatewayCallsAtMost("paySmart2D", 0),
            nothingChanged()
          ),
          async () => {
            const answers = [
              await send(pay2dUrl(victim.sessionId), { headers: storeKey(), json: { installments_number: 1, card: goodCard() } }),
              await send(pay2dUrl(victim.sessionId), { headers: storeKey(), json: { cart_id: strangerCart, installments_number: 1, card: goodCard() } }),
              await send(pay2dUrl(victim.sessionId), { headers: storeKey(), json: { cart_id: "cart_01NOTTHEVICTIMSCART000000", installments_number: 1, card: goodCard() } }),
            ]
            return {
              revealed: shopperData.filter((datum) => answers.some((answer) => answer.text.includes(datum))).map((datum) => datum.slice(0, 8)),
              withoutCart: answers[0].status,
              upgradeNamed: /medusa-plugin-sipay-storefront/.test(String(answers[0].json?.message)) && /upgrade|update/i.test(String(answers[0].json?.message)),
              withOwnCart: answers[1].status,
              withMadeUpCart: answers[2].status,
            }
          }
        )
      })

      it("strangers' direct-payment tries on a session do not lock its shopper out", async () => {
        const victim = await directSession()
        const strangerCart = (await createCart(api, store, [0, 1])).id
        await attack(
          ctx(),
          { attack: "strangers' direct-payment tries on a session do not lock its shopper out", point: "N5", status: "closed" },
          allOf(exactlyOneOrder({ captured: true }), gatewayCallsAtMost("paySmart2D", 1), reported("the shopper's own payment is paid after 12 stranger tries", { shopper: 200, paid: "paid" })),
          async () => {
            // More tries than the per-session limit (10 in the harness), each without the cart or with the stranger's own.
            for (let i = 0; i < 12; i++) {
              await send(pay2dUrl(victim.sessionId), {
                headers: storeKey(),
                json: { ...(i % 2 ? { cart_id: strangerCart } : {}), installments_number: 1, card: goodCard({ number: `45080345080345${String(10 + i).padStart(2, "0")}` }) },
              })
            }
            const answer = await send(pay2dUrl(victim.sessionId), { headers: storeKey(), json: { cart_id: victim.cartId, installments_number: 1, card: goodCard() } })
            return { shopper: answer.status, paid: answer.json?.status }
          }
        )
      })
    })

    describe("N7: the hosted page's token and the request log", () => {
      let browser: Browser
      beforeAll(async () => {
        browser = await launchBrowser()
      })
      afterAll(async () => {
        await browser?.close()
      })

      it("a shopper pays on the hosted page in a real browser and its token is in no request log line", async () => {
        const cart = await createCart(api, store)
        const { session } = await startPaymentSession(api, store, cart.id)
        const url = await hostedPageUrl(api, store, session.id)
        const token = tokenOfHostedPageUrl(url)
        rememberToken(token)
        await attack(
          ctx(),
          { attack: "a shopper pays on the hosted page in a real browser and its token is in no request log line", point: "N7", status: "closed" },
          allOf(
            exactlyOneOrder({ captured: true }),
            logHoldsNoSecrets(),
            reported("the page is served with Referrer-Policy: no-referrer and its requests were logged", { referrerPolicy: "no-referrer", pageLogged: true })
          ),
          async () => {
            const mark = logMark()
            const context = await browser.newContext({ locale: "tr-TR" })
            const page = await context.newPage()
            const response = await page.goto(url)
            await page.fill("#cc_holder_name", PAYING_CARD.cc_holder_name)
            await page.fill("#cc_no", PAYING_CARD.cc_no)
            await page.fill("#expiry_month", PAYING_CARD.expiry_month)
            await page.fill("#expiry_year", PAYING_CARD.expiry_year)
            await page.fill("#cvv", PAYING_CARD.cvv)
            await page.check("#installment-3")
            await Promise.all([page.waitForURL(`${gatewayCalls.url}/**`), page.click("#pay-button")])
            await page.fill("#sms_code", SMS_TEST_CODE)
            await Promise.all([page.waitForURL(`${stack.storefrontUrl}/**`), page.click("button.confirm")])
            await context.close()
            const log = await logSince(mark)
            return { log, referrerPolicy: response?.headers()["referrer-policy"], pageLogged: log.includes(`/sipay/checkout/${session.id}`) }
          }
        )
      })
    })

    describe("N10: the sandbox as a production store's gateway", () => {
      it("the sandbox CLI refuses test controls on a public interface unless forced, and says it is a test gateway under NODE_ENV=production", async () => {
        await attack(
          ctx(),
          {
            attack: "the sandbox CLI refuses test controls on a public interface unless forced, and says it is a test gateway under NODE_ENV=production",
            point: "N10",
            status: "closed",
          },
          reported("0.0.0.0 with --test-controls refused; forced it starts; every production start warns", {
            publicControlsRefused: true,
            forcedStarts: true,
            loopbackStarts: true,
            warnsInProduction: true,
          }),
          async () => {
            const production = { NODE_ENV: "production" }
            const refused = await runSandboxCli(["--port", "0", "--host", "0.0.0.0", "--test-controls"], production, /SANDBOX_READY/)
            const forced = await runSandboxCli(["--port", "0", "--host", "0.0.0.0", "--test-controls", "--force-test-controls"], production, /SANDBOX_READY/)
            const loopback = await runSandboxCli(["--port", "0"], production, /SANDBOX_READY/)
            const warning = /test gateway/i
            return {
              publicControlsRefused: !refused.ready && refused.code !== 0 && /--test-controls/.test(refused.output),
              forcedStarts: forced.ready && warning.test(forced.output),
              loopbackStarts: loopback.ready,
              warnsInProduction: warning.test(loopback.output) && /NODE_ENV=production/.test(loopback.output),
            }
          }
        )
      })

      it("a production store refuses to start with the sandbox as its gateway unless allowSandboxInProduction", async () => {
        const credentials = { appId: "app", appSecret: "secret", merchantKey: "$2y$10$key" }
        const gateways: Record<string, Record<string, unknown>> = {
          "brand sandbox": { brand: "sandbox" },
          "base URL 127.0.0.1": { baseUrl: "http://127.0.0.1:4010/ccpayment" },
          "base URL localhost": { baseUrl: "http://localhost:4010/ccpayment" },
          "base URL [::1]": { baseUrl: "http://[::1]:4010/ccpayment" },
        }
        /** Whether the plugin (its module and its provider, as Medusa loads them) starts with these options. */
        const starts = (options: Record<string, unknown>) => {
          try {
            Sipay3DProviderService.validateOptions(options)
            new SipayModuleService({}, options as never)
            return true
          } catch {
            return false
          }
        }
        await attack(
          ctx(),
          { attack: "a production store refuses to start with the sandbox as its gateway unless allowSandboxInProduction", point: "N10", status: "closed" },
          reported("refused for brand sandbox and loopback base URLs; starts with allowSandboxInProduction or a real gateway", {
            startedWithSandbox: [],
            allowedStarts: true,
            liveStarts: true,
            nodeEnv: "production",
          }),
          async () => ({
            nodeEnv: process.env.NODE_ENV,
            startedWithSandbox: Object.entries(gateways)
              .filter(([, gateway]) => starts({ ...credentials, ...gateway }))
              .map(([what]) => what),
            allowedStarts: starts({ ...credentials, brand: "sandbox", allowSandboxInProduction: true }),
            liveStarts: starts({ ...credentials, brand: "sipay-live" }),
          })
        )
      })
    })
  },
})
