import type { FaultBoard } from "../faults"
import type { WebhookSender } from "../webhooks"
import type { SandboxClock } from "./clock"
import type { MerchantDirectory } from "./merchants"
import type { SandboxStore } from "./store"

/**
 * Where the interface and the live gateway's published answers differ, which one the sandbox
 * follows (start options; docs/sandbox.md, "Answer shapes").
 */
export type Conventions = {
  /** The 3D redirect's status/method names: the interface's `service_*` (default) or the live gateway's `sipay_*`. */
  redirectNames: "service" | "sipay"
  /**
   * checkstatus codes: "published" (default; the gateway's docs: 32 for an unknown invoice, 41 for a
   * failed sale) or "reference" (31 for an unknown invoice, 100 with transaction_status Failed).
   */
  checkstatusCodes: "published" | "reference"
  /** checkstatus answered as a one-element array, as some deployments do (QNBpay's published sample). */
  checkstatusArray: boolean
}

export const DEFAULT_CONVENTIONS: Conventions = { redirectNames: "service", checkstatusCodes: "published", checkstatusArray: false }

/** Everything an operation may use: handlers receive it and nothing else. */
export type Gateway = {
  merchants: MerchantDirectory
  store: SandboxStore
  clock: SandboxClock
  faults: FaultBoard
  webhooks: WebhookSender
  urls: { base_url: string; link_base: string }
  testControls: boolean
  conventions: Conventions
  /**
   * Time-driven work (part 2: pre-auth expiry, recurring charges, link expiry). Each runs with the
   * sandbox time before every request and after the clock is advanced; return true when it changed state.
   */
  sweepers: Array<(gateway: Gateway, now: number) => boolean>
}

export function runSweepers(gateway: Gateway): void {
  const now = gateway.clock.now()
  let changed = false
  for (const sweep of gateway.sweepers) changed = sweep(gateway, now) || changed
  if (changed) gateway.store.save()
}
