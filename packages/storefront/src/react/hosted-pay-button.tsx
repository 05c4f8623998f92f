import { useState, type ReactNode } from "react"
import type { Locale } from "../index"
import { CLASSES } from "./classes"
import { messagesFor } from "./messages"

/**
 * 3D on the plugin's hosted card page: asks `startPayment` (a server action calling
 * `startHostedPayment`) for the page's signed address and sends the browser there.
 */
export function SipayHostedPayButton(props: {
  startPayment: () => Promise<{ url: string } | { error: string }>
  lang?: Locale
  disabled?: boolean
  className?: string
  children?: ReactNode
  "data-testid"?: string
}) {
  const t = messagesFor(props.lang)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const onClick = async () => {
    setBusy(true)
    setError(null)
    try {
      const answer = await props.startPayment()
      if ("url" in answer && answer.url) {
        window.location.assign(answer.url)
        return // stays busy while the browser leaves
      }
      setError(("error" in answer && answer.error) || t.failed)
    } catch (caught) {
      setError((caught as Error)?.message || t.failed)
    }
    setBusy(false)
  }
  return (
    <div className={CLASSES.form}>
      <button
        type="button"
        className={props.className ?? CLASSES.button}
        disabled={props.disabled || busy}
        aria-busy={busy || undefined}
        onClick={onClick}
        data-testid={props["data-testid"] ?? "sipay-hosted-pay-button"}
      >
        {busy ? t.redirecting : props.children ?? t.pay}
      </button>
      {error ? <div className={CLASSES.error} role="alert">{error}</div> : null}
    </div>
  )
}
