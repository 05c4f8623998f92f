import type { FormEvent } from "react"
import type { DirectCard, DirectPaymentResult, InstallmentChoice, InstallmentOffer, Locale } from "../index"
import { cardProblem, CardFields, clearSecrets, readCard } from "./card-fields"
import { CLASSES } from "./classes"
import { InstallmentPicker, useCardFormState } from "./installments"
import { cardBrandName, formatMoney } from "../display"
import { fill, messagesFor } from "./messages"

type PayOutcome = DirectPaymentResult | { status: "failed"; message: string }

/**
 * Direct (2D) card payment: installments by BIN, then `pay` (a server action calling `payDirect`,
 * which forwards the shopper's signed address) with the card read from the form at the submit. A
 * decline is shown here and the form stays for another try; `onPaid` gets the order.
 */
export function SipayDirectCardForm(props: {
  amount: number | string
  currencyCode: string
  getInstallments: (bin: string) => Promise<InstallmentOffer>
  pay: (input: { card: DirectCard; choice: InstallmentChoice }) => Promise<PayOutcome>
  onPaid: (result: { order_id: string }) => void
  lang?: Locale
  disabled?: boolean
  "data-testid"?: string
}) {
  const t = messagesFor(props.lang)
  const { choicesId, errorId, setBin, choice, setChoice, error, setError, busy, setBusy, offerState } = useCardFormState(props.getInstallments)

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = event.currentTarget
    if (busy) return
    const card = readCard(form)
    const problem = cardProblem(card, t, props.lang)
    if (problem) {
      setError(problem)
      return
    }
    setError(null)
    setBusy(true)
    try {
      const result = await props.pay({ card, choice })
      if ((result.status === "paid" || result.status === "authorized") && "order_id" in result) {
        props.onPaid({ order_id: result.order_id })
        return
      }
      setError(("message" in result && result.message) || t.failed)
    } catch (caught) {
      setError((caught as Error)?.message || t.failed)
    } finally {
      clearSecrets(form)
    }
    setBusy(false)
  }

  return (
    <>
      <form id={choicesId} hidden onSubmit={(event) => event.preventDefault()} />
      <form className={CLASSES.form} onSubmit={onSubmit} noValidate autoComplete="on" data-testid={props["data-testid"] ?? "sipay-direct-card-form"}>
        <CardFields t={t} brand={cardBrandName(offerState.offer?.installments[0]?.card_scheme)} onBin={setBin} invalid={Boolean(error)} describedBy={error ? errorId : undefined} disabled={props.disabled} />
        <InstallmentPicker t={t} lang={props.lang} currencyCode={props.currencyCode} amount={props.amount} state={offerState} formId={choicesId} choice={choice} onChoice={setChoice} />
        <button type="submit" className={CLASSES.button} disabled={props.disabled || busy} aria-busy={busy || undefined}>
          {busy ? t.paying : fill(t.payAmount, { amount: formatMoney(props.amount, props.currencyCode, props.lang) })}
        </button>
        {error ? <div id={errorId} className={CLASSES.error} role="alert">{error}</div> : null}
      </form>
    </>
  )
}
