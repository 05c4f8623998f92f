import type { SandboxClock } from "./core/clock"
import type { SandboxStore } from "./core/store"
import type { FaultBoard } from "./faults"
import type { WebhookLogEntry } from "./types"

export type WebhookDelivery = {
  kind: WebhookLogEntry["kind"]
  url: string
  key: string
  body: Record<string, string>
  /** Fault operation name: sale_webhook, recurring_webhook. */
  operation: string
}

/**
 * Posts webhooks (form-urlencoded) after the response that caused them, logs every attempt for the
 * control API, retries failures with backoff, and never lets a receiver's failure reach a caller.
 */
export class WebhookSender {
  private timers = new Set<NodeJS.Timeout>()
  private closed = false

  constructor(
    private readonly store: SandboxStore,
    private readonly clock: SandboxClock,
    private readonly faults: FaultBoard,
    /** Delay before each retry; attempts = retries + 1. */
    private readonly retryDelaysMs: number[] = [1000, 5000]
  ) {}

  send(delivery: WebhookDelivery): void {
    const fault = this.faults.take(delivery.operation, ["duplicate", "delay", "drop"])
    if (fault?.kind === "drop") {
      // A webhook the gateway never sends: logged as such, so a test can tell it from one still on its way.
      this.store.state.webhook_log.push({ kind: delivery.kind, url: delivery.url, key: delivery.key, body: delivery.body, status: 0, attempt: 0, sent_at: new Date(this.clock.now()).toISOString(), error: "dropped (test fault)" })
      this.store.save()
      return
    }
    const copies = fault?.kind === "duplicate" ? 2 : 1
    const delayMs = fault?.kind === "delay" ? fault.ms : 0
    for (let i = 0; i < copies; i++) this.later(delayMs, () => this.attempt(delivery, 1))
  }

  close(): void {
    this.closed = true
    for (const timer of this.timers) clearTimeout(timer)
    this.timers.clear()
  }

  private later(ms: number, run: () => Promise<void>): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer)
      if (!this.closed) run().catch(() => undefined)
    }, ms)
    this.timers.add(timer)
  }

  private async attempt(delivery: WebhookDelivery, attempt: number): Promise<void> {
    const entry: WebhookLogEntry = {
      kind: delivery.kind,
      url: delivery.url,
      key: delivery.key,
      body: delivery.body,
      status: 0,
      attempt,
      sent_at: new Date(this.clock.now()).toISOString(),
    }
    try {
      const response = await fetch(delivery.url, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", accept: "*/*" },
        body: new URLSearchParams(delivery.body).toString(),
        signal: AbortSignal.timeout(10_000),
      })
      entry.status = response.status
      await response.arrayBuffer().catch(() => undefined)
    } catch (error) {
      entry.error = (error as Error).message
    }
    if (this.closed) return
    this.store.state.webhook_log.push(entry)
    this.store.save()
    const delivered = entry.status >= 200 && entry.status < 300
    if (!delivered && attempt <= this.retryDelaysMs.length) {
      this.later(this.retryDelaysMs[attempt - 1], () => this.attempt(delivery, attempt + 1))
    }
  }
}
