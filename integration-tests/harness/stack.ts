import { createServer, Server } from "node:http"
import { startSandbox, type StartSandboxOptions } from "../../src/sandbox"
import { freeListenPort } from "./ports"

export const SALE_WEBHOOK_KEY = "medusa-sale"
export const RECURRING_WEBHOOK_KEY = "medusa-recurring"

export type SipayStack = {
  port: number
  backendUrl: string
  storefrontUrl: string
  sandbox: Awaited<ReturnType<typeof startSandbox>>
}

/** Where shoppers land after paying: a page that shows the address it was reached at (no storefront is under test). */
async function startLandingPage(): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const text = String(req.url).replace(/[<>&"]/g, "")
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" })
    res.end(`<!doctype html><html lang="en"><title>Storefront</title><main><h1>Storefront</h1><p id="landing">${text}</p></main></html>`)
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()))
  const address = server.address()
  return { url: `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`, server }
}

/**
 * Call at the top of a suite, before medusaIntegrationTestRunner: its beforeAll runs first, fixes
 * the app's port and public URL, starts the sandbox gateway with its webhooks pointing at the app,
 * and sets the environment medusa-config.ts reads. Suites read the handle inside their tests.
 * `sandbox` picks the sandbox's answer conventions (docs/sandbox.md), e.g. the live redirect names.
 */
/**
 * A rate-limit window for the suites: fixed windows start at multiples of their length since the
 * epoch, so a day-long window ends at 00:00 UTC and a run crossing midnight would see its counts
 * reset; a century-long one (next boundary in 2069) never ends during a run.
 */
export const RUN_LONG_WINDOW_SECONDS = 100 * 365 * 86400

export function useSipayStack(
  options: { env?: Record<string, string>; sandbox?: Pick<StartSandboxOptions, "redirectNames" | "checkstatusCodes" | "checkstatusArray"> } = {}
): SipayStack {
  const stack = {} as SipayStack
  const previousEnv = { ...process.env }
  let landing: Server | undefined
  beforeAll(async () => {
    stack.port = await freeListenPort()
    stack.backendUrl = `http://localhost:${stack.port}`
    const landingPage = await startLandingPage()
    landing = landingPage.server
    stack.storefrontUrl = landingPage.url
    stack.sandbox = await startSandbox({
      ...options.sandbox,
      port: 0,
      testControls: true,
      merchants: [
        {
          merchant_id: 18309,
          merchant_key: "$2y$10$sandboxMerchantKeyForIntegrationTests0000000000000",
          app_id: "sandbox-app-id-integration",
          app_secret: "sandbox-app-secret-integration-0001",
          is_3d: 1,
          installments: [1, 2, 3, 6, 9, 12],
          sale_webhooks: { [SALE_WEBHOOK_KEY]: `${stack.backendUrl}/hooks/payment/sipay_sipay` },
          recurring_webhooks: { [RECURRING_WEBHOOK_KEY]: `${stack.backendUrl}/sipay/hooks/recurring` },
        },
      ],
    })
    Object.assign(process.env, {
      PORT: String(stack.port),
      MEDUSA_BACKEND_URL: stack.backendUrl,
      STOREFRONT_URL: stack.storefrontUrl,
      // The landing page of these suites has no /{country_code}/ routes: the order id ends the path.
      SIPAY_SUCCESS_URL: "/order/confirmed/{order_id}",
      SIPAY_FAILURE_URL: "/checkout?step=payment&cart_id={cart_id}&error={error}",
      SIPAY_BASE_URL: stack.sandbox.base_url,
      SIPAY_PANEL_BASE_URL: stack.sandbox.panel_url,
      SIPAY_APP_ID: stack.sandbox.merchant.app_id,
      SIPAY_APP_SECRET: stack.sandbox.merchant.app_secret,
      SIPAY_MERCHANT_KEY: stack.sandbox.merchant.merchant_key,
      SIPAY_MERCHANT_ID: String(stack.sandbox.merchant.merchant_id),
      SIPAY_SALE_WEBHOOK_KEY: SALE_WEBHOOK_KEY,
      SIPAY_RECURRING_WEBHOOK_KEY: RECURRING_WEBHOOK_KEY,
      SIPAY_ENABLE_DIRECT_PAYMENT: "true",
      SIPAY_ENABLE_SAVED_CARDS: "true",
      // Limits set explicitly (docs/storefront.md "Rate limits and the client address"): every request of a suite comes from 127.0.0.1 and the
      // sandbox declines with few cards, so the per-address limits and the decline budgets are high here;
      // the security suite sets its own (limits-nat.spec.ts: the defaults).
      SIPAY_RATE_LIMITS: JSON.stringify({
        windowSeconds: 600,
        perSession: 10,
        perCart: 20,
        perCard: 5,
        perAddress: 10000,
        openPerAddress: 10000,
        installmentsPerAddress: 10000,
        declineWindowSeconds: 600,
        declinesPerBin: 10000,
        declinesPerPrefix: 10000,
        invalidCardsPerPrefix: 10000,
        declinesPerCart: 10000,
        declineBudget: 10000,
      }),
      ...options.env,
    })
  })
  afterAll(async () => {
    await stack.sandbox?.close()
    await new Promise((resolve) => landing?.close(resolve))
    for (const key of Object.keys(process.env)) {
      if (!(key in previousEnv)) {
        delete process.env[key]
      }
    }
    Object.assign(process.env, previousEnv)
  })
  return stack
}

/** Removes every fault a test set on the sandbox, so the next test meets a healthy gateway. */
export async function clearSandboxFaults(stack: SipayStack): Promise<void> {
  await fetch(`${stack.sandbox.link_base}/__sandbox/faults`, { method: "DELETE" })
}
