// The test storefront's pages for a signed-in customer, built by esbuild in the test from the kit's React
// components: the payment step (direct card form with the save opt-in, or the saved-card choice) and the
// account page's "my cards".
import { useEffect, useState } from "react"
import { createRoot } from "react-dom/client"
import type { DirectPaymentResult, InstallmentOffer, PaymentStatus, SavedCardPaymentResult, SavedCards } from "../../../packages/storefront/src"
import { SipayDirectCardForm, SipaySaveCardConsent, SipaySavedCardChoice, SipaySavedCardsList } from "../../../packages/storefront/src/react"

const data = JSON.parse(document.getElementById("page-data")!.textContent!) as { view: "direct" | "saved" | "cards"; cart_id: string | null; amount: number; currency_code: string; lang: "tr" | "en" }

/** A call of one of the storefront's server actions (Next.js would generate this). */
async function action<T>(name: string, body: unknown = {}): Promise<T> {
  const response = await fetch(`/actions/${name}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })
  const answer = await response.json()
  if (!response.ok) throw new Error(answer.message)
  return answer as T
}

const confirmed = ({ order_id }: { order_id: string }) => window.location.assign(`/${data.lang}/order/${order_id}/confirmed`)
// The guide's checkSipayPayment, for a payment answered "confirming".
const checkStatus = () => action<PaymentStatus>("payment-status", { cart_id: data.cart_id })

function Page() {
  const [saved, setSaved] = useState<SavedCards | null>(null)
  const [save, setSave] = useState(false)
  useEffect(() => {
    action<SavedCards>("cards").then(setSaved)
  }, [])
  if (!saved) return <main><h1>…</h1></main>
  if (data.view === "cards") {
    return (
      <main>
        <h1>Hesabım</h1>
        <SipaySavedCardsList lang={data.lang} cards={saved.saved_cards} remove={(cardId) => action("delete-card", { card_id: cardId })} />
      </main>
    )
  }
  return (
    <main>
      <h1>Ödeme</h1>
      {data.view === "saved" ? (
        <SipaySavedCardChoice lang={data.lang} cards={saved.saved_cards} pay={(cardId) => action<SavedCardPaymentResult>("pay-saved", { card_id: cardId })} checkStatus={checkStatus} onPaid={confirmed} />
      ) : (
        <>
          <SipayDirectCardForm
            lang={data.lang}
            amount={data.amount}
            currencyCode={data.currency_code}
            getInstallments={(bin) => action<InstallmentOffer>("installments", { bin })}
            pay={(input) => action<DirectPaymentResult>("pay-direct", { ...input, save_card: save && saved.consent ? { consentVersion: saved.consent.version } : undefined })}
            checkStatus={checkStatus}
            onPaid={confirmed}
          />
          {saved.enabled && saved.consent ? <SipaySaveCardConsent lang={data.lang} consent={saved.consent} checked={save} onChange={setSave} /> : null}
        </>
      )}
    </main>
  )
}

createRoot(document.getElementById("root")!).render(<Page />)
