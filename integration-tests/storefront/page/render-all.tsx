// Every component of the kit rendered to HTML, for the React version the bundle is built with.
import { version } from "react"
import { renderToString } from "react-dom/server"
import { SipayDirectCardForm, SipayHostedPayButton, SipayPaymentError, SipayPaymentStatus, SipayThreeDCardForm } from "../../../packages/storefront/src/react"

const never = () => new Promise<never>(() => undefined)

export function renderAll(lang: "tr" | "en") {
  return {
    version,
    hosted: renderToString(<SipayHostedPayButton lang={lang} startPayment={never} />),
    threeD: renderToString(<SipayThreeDCardForm lang={lang} amount={325.4} currencyCode="try" getInstallments={never} startForm={never} />),
    threeDRecurring: renderToString(
      <SipayThreeDCardForm lang={lang} amount={900} currencyCode="try" getInstallments={never} startForm={never} plan={{ payment_number: 12, cycle: "M", interval: 1, amount: "900.00", currency_code: "TRY" }} />
    ),
    direct: renderToString(<SipayDirectCardForm lang={lang} amount={325.4} currencyCode="try" getInstallments={never} pay={never} onPaid={() => undefined} />),
    error: renderToString(<SipayPaymentError lang={lang} searchParams="?step=payment&error=Yetersiz%20bakiye" />),
    noError: renderToString(<SipayPaymentError lang={lang} searchParams="?step=payment" />),
    // On the server (a client component's first render), before any answer: the asking starts in the browser only.
    statusBack: renderToString(<SipayPaymentStatus lang={lang} check={never} onPaid={() => undefined} searchParams="?step=payment&error=Yetersiz%20bakiye" />),
    statusPlain: renderToString(<SipayPaymentStatus lang={lang} check={never} onPaid={() => undefined} searchParams="?step=payment" />),
  }
}
