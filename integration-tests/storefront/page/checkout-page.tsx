// The test storefront's payment step, built by esbuild in the test from the kit's React components.
import { version } from "react"
import { createRoot } from "react-dom/client"
import type { InstallmentOffer } from "../../../packages/storefront/src"
import { SipayDirectCardForm, SipayHostedPayButton, SipayPaymentError, SipayThreeDCardForm } from "../../../packages/storefront/src/react"

const data = JSON.parse(document.getElementById("checkout-data")!.textContent!) as { method: string; amount: number; currency_code: string; lang: "tr" | "en" }

/** A call of one of the storefront's server actions (Next.js would generate this). */
async function action<T>(name: string, body: unknown = {}): Promise<T> {
  const response = await fetch(`/actions/${name}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })
  const answer = await response.json()
  if (!response.ok) throw new Error(answer.message)
  return answer as T
}

const getInstallments = (bin: string) => action<InstallmentOffer>("installments", { bin })

function PaymentStep() {
  return (
    <main>
      <h1>Checkout</h1>
      <p id="react-version" hidden>{version}</p>
      <SipayPaymentError searchParams={window.location.search} lang={data.lang} />
      {data.method === "hosted" ? <SipayHostedPayButton lang={data.lang} startPayment={() => action("hosted")} /> : null}
      {data.method === "form" ? (
        <SipayThreeDCardForm amount={data.amount} currencyCode={data.currency_code} lang={data.lang} getInstallments={getInstallments} startForm={(choice) => action("3d-form", { choice })} />
      ) : null}
      {data.method === "direct" ? (
        <SipayDirectCardForm
          amount={data.amount}
          currencyCode={data.currency_code}
          lang={data.lang}
          getInstallments={getInstallments}
          pay={(input) => action("pay-direct", input)}
          onPaid={({ order_id }) => window.location.assign(`/tr/order/${order_id}/confirmed`)}
        />
      ) : null}
    </main>
  )
}

createRoot(document.getElementById("root")!).render(<PaymentStep />)
