// The test storefront's payment step, built by esbuild in the test from the kit's React components.
import { version } from "react"
import { createRoot } from "react-dom/client"
import type { InstallmentOffer, InstallmentTable, PaymentStatus, RecurringPlanView } from "../../../packages/storefront/src"
import { RecurringPlanNote, SipayDirectCardForm, SipayHostedPayButton, SipayInstallmentTable, SipayPaymentStatus, SipayThreeDCardForm } from "../../../packages/storefront/src/react"

const data = JSON.parse(document.getElementById("checkout-data")!.textContent!) as {
  method: string
  cart_id?: string
  amount: number
  currency_code: string
  lang: "tr" | "en"
  plan?: RecurringPlanView | null
  title?: string
  table?: InstallmentTable
}

/** A call of one of the storefront's server actions (Next.js would generate this). */
async function action<T>(name: string, body: unknown = {}): Promise<T> {
  const response = await fetch(`/actions/${name}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })
  const answer = await response.json()
  if (!response.ok) throw new Error(answer.message)
  return answer as T
}

const getInstallments = (bin: string) => action<InstallmentOffer>("installments", { bin })
// The failure URL's cart id when it has one (the cart the payment was for), else the cart of the page.
const cartId = new URLSearchParams(window.location.search).get("cart_id") || data.cart_id!
const checkPayment = () => action<PaymentStatus>("payment-status", { cart_id: cartId })
const confirmed = ({ order_id }: { order_id: string }) => window.location.assign(`/${data.lang}/order/${order_id}/confirmed`)

function PaymentStep() {
  return (
    <main>
      <h1>Checkout</h1>
      <p id="react-version" hidden>{version}</p>
      <SipayPaymentStatus check={checkPayment} onPaid={confirmed} searchParams={window.location.search} lang={data.lang} />
      {data.method === "hosted" ? (
        <>
          {data.plan ? <RecurringPlanNote plan={data.plan} lang={data.lang} /> : null}
          <SipayHostedPayButton lang={data.lang} startPayment={() => action("hosted")} />
        </>
      ) : null}
      {data.method === "form" ? (
        <SipayThreeDCardForm amount={data.amount} currencyCode={data.currency_code} lang={data.lang} plan={data.plan} getInstallments={getInstallments} startForm={(choice) => action("3d-form", { choice })} />
      ) : null}
      {data.method === "direct" ? (
        <SipayDirectCardForm
          amount={data.amount}
          currencyCode={data.currency_code}
          lang={data.lang}
          plan={data.plan}
          getInstallments={getInstallments}
          pay={(input) => action("pay-direct", input)}
          checkStatus={checkPayment}
          onPaid={confirmed}
        />
      ) : null}
    </main>
  )
}

/** The starter's product page: the title, and the installment table the server asked for. */
function ProductPage() {
  return (
    <main>
      <h1>{data.title}</h1>
      <SipayInstallmentTable table={data.table!} lang={data.lang} />
    </main>
  )
}

createRoot(document.getElementById("root")!).render(data.method === "product" ? <ProductPage /> : <PaymentStep />)
