// Every component of the kit rendered to HTML, for the React version the bundle is built with.
import { version } from "react"
import { renderToString } from "react-dom/server"
import { SipayDirectCardForm, SipayHostedPayButton, SipayPaymentError, SipayThreeDCardForm } from "../../../packages/storefront/src/react"

const never = () => new Promise<never>(() => undefined)

export function renderAll(lang: "tr" | "en") {
  return {
    version,
    hosted: renderToString(<SipayHostedPayButton lang={lang} startPayment={never} />),
    threeD: renderToString(<SipayThreeDCardForm lang={lang} amount={325.4} currencyCode="try" getInstallments={never} startForm={never} />),
    direct: renderToString(<SipayDirectCardForm lang={lang} amount={325.4} currencyCode="try" getInstallments={never} pay={never} onPaid={() => undefined} />),
    error: renderToString(<SipayPaymentError lang={lang} searchParams="?step=payment&error=Yetersiz%20bakiye" />),
    noError: renderToString(<SipayPaymentError lang={lang} searchParams="?step=payment" />),
  }
}
