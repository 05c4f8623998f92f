import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { SandboxClock } from "./core/clock"
import { DEFAULT_CONVENTIONS, type Conventions, type Gateway } from "./core/gateway"
import { demoMerchant, MerchantDirectory, withSeedCredentials } from "./core/merchants"
import { SandboxStore } from "./core/store"
import { CONTROL_ROUTES } from "./controls"
import { FaultBoard } from "./faults"
import { refreshLinks } from "./links/view"
import { expirePreAuthorizations } from "./payments/expiry"
import { chargeRecurringPlans } from "./recurring/plans"
import { withBodyLimit } from "./http/io"
import { createDispatcher } from "./http/router"
import { BASE_PATH, GATEWAY_ROUTES } from "./routes"
import type { Merchant, MerchantSetting } from "./types"
import { WebhookSender } from "./webhooks"

export { TEST_CARDS, SMS_TEST_CODE, type TestCard, type CardOutcome } from "./cards"
export type { Merchant, MerchantConfig, MerchantSetting, PaymentLink, RecurringPlan, SaleRecord, WebhookLogEntry } from "./types"
export { TRANSACTION_STATES } from "./transactions/states"

export type StartSandboxOptions = {
  /** 0 (default) picks a free port. */
  port?: number
  host?: string
  /** Without merchants, one demo merchant derived from the data file's seed (or random); a merchant without credentials gets them from the seed too. */
  merchants?: MerchantSetting[]
  /** The demo merchant's webhook keys (key -> URL), as set on a merchant panel; ignored with `merchants`. */
  demoWebhooks?: { sale?: Record<string, string>; recurring?: Record<string, string> }
  /** JSON file the state is persisted to (and reloaded from). */
  dataFile?: string
  /** Mounts the control API under {link_base}/__sandbox/. */
  testControls?: boolean
  /** Public address (e.g. behind a proxy) used in URLs instead of http://127.0.0.1:PORT. */
  publicUrl?: string
  /** Delays before webhook retries (default [1000, 5000]: 3 attempts). */
  webhookRetryDelaysMs?: number[]
  /** The 3D redirect's names: "service" (service_status, the interface's; default) or "sipay" (sipay_status, the live gateway's). */
  redirectNames?: Conventions["redirectNames"]
  /** checkstatus codes: "published" (32 unknown invoice, 41 failed sale; default) or "reference" (31, 100 + Failed). */
  checkstatusCodes?: Conventions["checkstatusCodes"]
  /** Answers checkstatus as a one-element array (some live deployments do). */
  checkstatusArray?: boolean
}

export type SandboxCredentials = Pick<Merchant, "merchant_id" | "merchant_key" | "app_id" | "app_secret">

export type SandboxHandle = {
  base_url: string
  panel_url: string
  link_base: string
  /** The first merchant (the demo merchant without a config). */
  merchant: SandboxCredentials
  merchants: Merchant[]
  close(): Promise<void>
}

export async function startSandbox(options: StartSandboxOptions = {}): Promise<SandboxHandle> {
  const store = new SandboxStore(options.dataFile)
  store.save()
  const demo = { ...demoMerchant(store.state.seed), sale_webhooks: options.demoWebhooks?.sale, recurring_webhooks: options.demoWebhooks?.recurring }
  const merchants = new MerchantDirectory(options.merchants?.length ? withSeedCredentials(store.state.seed, options.merchants) : [demo])
  const clock = new SandboxClock(store.state.clock_offset_ms)
  const faults = new FaultBoard()
  const webhooks = new WebhookSender(store, clock, faults, options.webhookRetryDelaysMs)
  const gateway: Gateway = {
    merchants, store, clock, faults, webhooks,
    urls: { base_url: "", link_base: "" },
    testControls: options.testControls ?? false,
    conventions: {
      redirectNames: options.redirectNames ?? DEFAULT_CONVENTIONS.redirectNames,
      checkstatusCodes: options.checkstatusCodes ?? DEFAULT_CONVENTIONS.checkstatusCodes,
      checkstatusArray: options.checkstatusArray ?? DEFAULT_CONVENTIONS.checkstatusArray,
    },
    sweepers: [expirePreAuthorizations, chargeRecurringPlans, refreshLinks],
  }
  const routes = gateway.testControls ? [...GATEWAY_ROUTES, ...CONTROL_ROUTES] : GATEWAY_ROUTES
  const server = createServer(withBodyLimit(createDispatcher(routes, gateway)))
  const host = options.host ?? "127.0.0.1"
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(options.port ?? 0, host, () => resolve())
  })
  const { port } = server.address() as AddressInfo
  const shownHost = host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host
  const linkBase = (options.publicUrl ?? `http://${shownHost}:${port}`).replace(/\/+$/, "")
  gateway.urls.link_base = linkBase
  gateway.urls.base_url = `${linkBase}${BASE_PATH}`
  const first = merchants.all[0]
  return {
    base_url: gateway.urls.base_url,
    panel_url: gateway.urls.base_url,
    link_base: linkBase,
    merchant: { merchant_id: first.merchant_id, merchant_key: first.merchant_key, app_id: first.app_id, app_secret: first.app_secret },
    merchants: merchants.all,
    close: () =>
      new Promise<void>((resolve) => {
        webhooks.close()
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}
