import type { Locale } from "../index"
import { codeOfMessage, readPaymentReturn, shopperMessage } from "../index"
import { CLASSES } from "./classes"
import { messagesFor } from "./messages"

/**
 * The failure the plugin put in the storefront's address after a declined or cancelled 3D payment
 * (`?error=` of the failure URL), for the payment step: pass the page's `searchParams` or the text.
 * One of the plugin's messages is shown in `lang`.
 */
export function SipayPaymentError(props: {
  error?: string | null
  searchParams?: string | URLSearchParams | Record<string, string | string[] | undefined>
  lang?: Locale
  className?: string
  "data-testid"?: string
}) {
  const given = props.error ?? (props.searchParams ? readPaymentReturn(props.searchParams).error : null)
  if (!given) {
    return null
  }
  // The plugin's message in the component's language (the return answered in the browser's).
  const code = codeOfMessage(given)
  const text = code ? shopperMessage(code, props.lang ?? "tr") : given
  const t = messagesFor(props.lang)
  return (
    <div className={props.className ?? CLASSES.error} role="alert" data-testid={props["data-testid"] ?? "sipay-payment-error"}>
      <span className="sr-only">{t.paymentFailed}: </span>
      {text}
    </div>
  )
}
