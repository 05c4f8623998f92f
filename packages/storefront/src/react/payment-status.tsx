import { useEffect, useRef, useState } from "react"
import type { Locale, PaymentStatus } from "../index"
import { PAYMENT_STATUS_POLL, watchPaymentStatus, type PaymentWatchState } from "./status-watch"
import { readPaymentReturn, shopperMessage } from "../index"
import { CLASSES } from "./classes"
import { messagesFor } from "./messages"
import { SipayPaymentError } from "./payment-error"

export { PAYMENT_STATUS_POLL, type PaymentWatchState }

type WatchOptions = {
  intervalMs?: number
  stopAfterMs?: number
  onPaid?: (result: { order_id: string }) => void
  onStatus?: (status: PaymentStatus) => void
}

/**
 * Asks `check` (a server action calling `getPaymentStatus`) until the payment is paid, failed or there is
 * none, every `intervalMs` while the tab is visible (none while it is hidden; asked at once when it shows
 * again), for at most `stopAfterMs`, then `later` (a return to the tab asks once more). `null`: not asked.
 */
export function useSipayPaymentStatus(check: (() => Promise<PaymentStatus>) | null, options: WatchOptions = {}): { state: PaymentWatchState; status: PaymentStatus | null } {
  const [watch, setWatch] = useState<{ state: PaymentWatchState; status: PaymentStatus | null }>({ state: "checking", status: null })
  // The latest callbacks, without restarting the asking when the page passes new functions each render.
  const latest = useRef({ check, options })
  latest.current = { check, options }
  const enabled = Boolean(check)

  useEffect(() => {
    setWatch({ state: "checking", status: null })
    if (!enabled) return
    const watcher = watchPaymentStatus({
      check: () => latest.current.check!(),
      intervalMs: latest.current.options.intervalMs,
      stopAfterMs: latest.current.options.stopAfterMs,
      hidden: () => document.visibilityState === "hidden",
      onChange: (state, status) => setWatch({ state, status }),
      onStatus: (status) => latest.current.options.onStatus?.(status),
      onPaid: (result) => latest.current.options.onPaid?.(result),
    })
    const onVisibility = () => watcher.visibilityChanged()
    document.addEventListener("visibilitychange", onVisibility)
    return () => {
      document.removeEventListener("visibilitychange", onVisibility)
      watcher.stop()
    }
  }, [enabled])

  return watch
}

/**
 * The payment step's (and the failure URL's) word on a payment the shopper made: asks the plugin's status
 * route through `check` (a server action calling `getPaymentStatus` with the cart's id) and shows
 * "confirming your payment" while the outcome is pending, sends the shopper on with `onPaid` (the order
 * confirmation) once paid, shows the decline's text when it failed, and after `stopAfterMs` (default
 * 3 min) a neutral "we will e-mail you". Texts in `lang` from the kit's tables. With nothing to wait
 * for, it shows the failure URL's `?error=` (`searchParams` or `error`) as SipayPaymentError does.
 */
export function SipayPaymentStatus(props: {
  check: () => Promise<PaymentStatus>
  onPaid: (result: { order_id: string }) => void
  lang?: Locale
  error?: string | null
  searchParams?: string | URLSearchParams | Record<string, string | string[] | undefined>
  intervalMs?: number
  stopAfterMs?: number
  onStatus?: (status: PaymentStatus) => void
  /** The payment is known to be confirming (a direct payment answered 202): said so before the first answer. */
  confirming?: boolean
  "data-testid"?: string
}) {
  const t = messagesFor(props.lang)
  const { state, status } = useSipayPaymentStatus(props.check, { intervalMs: props.intervalMs, stopAfterMs: props.stopAfterMs, onPaid: props.onPaid, onStatus: props.onStatus })
  const given = props.error ?? (props.searchParams ? readPaymentReturn(props.searchParams).error : null)
  const testId = props["data-testid"] ?? "sipay-payment-status"
  if (state === "failed") {
    const code = status?.code ?? null
    return (
      <div className={CLASSES.error} role="alert" data-testid={testId} data-state={state}>
        <span className="sr-only">{t.paymentFailed}: </span>
        {shopperMessage(code ?? "card_declined", props.lang ?? "tr")}
      </div>
    )
  }
  if (state === "none" || (state === "checking" && !given && !props.confirming)) {
    // Nothing to wait for: the failure URL's own word, if any (before the first answer, nothing is shown on a plain visit).
    return state === "none" ? <SipayPaymentError error={given} lang={props.lang} data-testid={testId} /> : null
  }
  const text = { checking: props.confirming ? t.confirming : t.checkingPayment, confirming: t.confirming, paid: t.paidRedirecting, later: t.confirmingLater }[state]
  return (
    <div className={CLASSES.status} role="status" aria-live="polite" data-testid={testId} data-state={state}>
      {text}
    </div>
  )
}
