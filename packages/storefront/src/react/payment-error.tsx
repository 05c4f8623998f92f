import type { Locale } from "../index"
import { readPaymentReturn } from "../index"
import { CLASSES } from "./classes"
import { messagesFor } from "./messages"

/**
 * The failure the plugin put in the storefront's address after a declined or cancelled 3D payment
 * (`?error=` of the failure URL), for the payment step: pass the page's `searchParams` or the text.
 */
export function SipayPaymentError(props: {
  error?: string | null
  searchParams?: string | URLSearchParams | Record<string, string | string[] | undefined>
  lang?: Locale
  className?: string
  "data-testid"?: string
}) {
  const text = props.error ?? (props.searchParams ? readPaymentReturn(props.searchParams).error : null)
  if (!text) {
    return null
  }
  const t = messagesFor(props.lang)
  return (
    <div className={props.className ?? CLASSES.error} role="alert" data-testid={props["data-testid"] ?? "sipay-payment-error"}>
      <span className="sr-only">{t.paymentFailed}: </span>
      {text}
    </div>
  )
}
