import type { PaymentStatus } from "../index"

/** How often the status is asked (the plugin asks the gateway at most every 10 s per attempt) and when the asking stops. */
export const PAYMENT_STATUS_POLL = { intervalMs: 5000, stopAfterMs: 180_000 } as const

/**
 * Where a payment stands for the shopper: `checking` (no answer yet), `none` (nothing to wait for: no
 * payment, or the store cannot be asked), `confirming`, `paid`, `failed`, or `later` (still confirming
 * when the asking stopped: the order follows by e-mail).
 */
export type PaymentWatchState = "checking" | "none" | "confirming" | "paid" | "failed" | "later"

/**
 * The asking behind useSipayPaymentStatus, free of React and the DOM: `check` at once (or when the tab
 * shows, if it starts hidden), again every `intervalMs` while the outcome is pending and the tab visible,
 * until paid, failed or none; after `stopAfterMs`, `later` (or `none` if no answer ever came). The page
 * reports the tab's visibility with `visibilityChanged()`: hidden stops the timer, visible asks at once
 * (once more after the stop, too). A check that throws counts as no answer.
 */
export function watchPaymentStatus(input: {
  check: () => Promise<PaymentStatus>
  intervalMs?: number
  stopAfterMs?: number
  hidden: () => boolean
  onChange: (state: PaymentWatchState, status: PaymentStatus | null) => void
  onStatus?: (status: PaymentStatus) => void
  onPaid?: (result: { order_id: string }) => void
  now?: () => number
}): { stop(): void; visibilityChanged(): void } {
  const intervalMs = input.intervalMs ?? PAYMENT_STATUS_POLL.intervalMs
  const stopAfterMs = input.stopAfterMs ?? PAYMENT_STATUS_POLL.stopAfterMs
  const now = input.now ?? Date.now
  const startedAt = now()
  let stopped = false
  let ended = false
  let asking = false
  let due = false
  let timer: ReturnType<typeof setTimeout> | undefined
  let last: PaymentStatus | null = null
  const overdue = () => now() - startedAt >= stopAfterMs

  const ask = async () => {
    if (stopped || ended || asking) return
    asking = true
    due = false
    const status = await input.check().catch(() => null)
    asking = false
    if (stopped) return
    if (status) {
      last = status
      input.onStatus?.(status)
      if (status.status === "paid" && status.order_id) {
        ended = true
        input.onChange("paid", status)
        input.onPaid?.({ order_id: status.order_id })
        return
      }
      if (status.status === "failed" || status.status === "none") {
        ended = true
        input.onChange(status.status, status)
        return
      }
    }
    if (overdue()) {
      // Never answered: nothing to tell; answered "confirming" all along: the order follows.
      ended = !last
      input.onChange(last ? "later" : "none", last)
      return
    }
    if (last) input.onChange("confirming", last)
    due = true
    if (!input.hidden()) timer = setTimeout(ask, intervalMs)
  }

  if (input.hidden()) due = true
  else void ask()
  return {
    stop() {
      stopped = true
      clearTimeout(timer)
    },
    visibilityChanged() {
      clearTimeout(timer)
      if (input.hidden() || stopped || ended) return
      // Back on the tab: asked at once (also once after the asking stopped, in case it ended meanwhile).
      if (due || overdue()) void ask()
    },
  }
}
