import type { FaultBoard } from "../faults"
import type { WebhookSender } from "../webhooks"
import type { SandboxClock } from "./clock"
import type { MerchantDirectory } from "./merchants"
import type { SandboxStore } from "./store"

/** Everything an operation may use: handlers receive it and nothing else. */
export type Gateway = {
  merchants: MerchantDirectory
  store: SandboxStore
  clock: SandboxClock
  faults: FaultBoard
  webhooks: WebhookSender
  urls: { base_url: string; link_base: string }
  testControls: boolean
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
