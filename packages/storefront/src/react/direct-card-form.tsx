import { useState, type FormEvent } from "react"
import type { DirectCard, DirectPaymentResult, InstallmentChoice, InstallmentOffer, Locale, PaymentStatus, RecurringPlanView } from "../index"
import { cardProblem, CardFields, clearSecrets, readCard } from "./card-fields"
import { CLASSES } from "./classes"
import { InstallmentPicker, useCardFormState } from "./installments"
import { cardBrandName, formatMoney } from "../display"
import { fill, messagesFor } from "./messages"
import { SipayPaymentStatus } from "./payment-status"

type PayOutcome = DirectPaymentResult | { status: "failed"; message: string }

/**
 * Direct (2D) card payment: installments by BIN, then `pay` (a server action calling `payDirect`,
 * which forwards the shopper's signed address) with the card read from the form at the submit. A
 * decline is shown here and the form stays for another try; `onPaid` gets the order. When the gateway's
 * answer timed out ("confirming"), the form says so and, with `checkStatus` (a server action calling
 * `getPaymentStatus` for the cart), asks for the outcome as SipayPaymentStatus does: the order once
 * paid, the decline's text (and the form again) once failed.
 */
export function SipayDirectCardForm(props: {
  amount: number | string
  currencyCode: string
  getInstallments: (bin: string) => Promise<InstallmentOffer>
  /** A recurring product's plan (getRecurringPlan): shown instead of installments. */
  plan?: RecurringPlanView | null
  pay: (input: { card: DirectCard; choice: InstallmentChoice }) => Promise<PayOutcome>
  onPaid: (result: { order_id: string }) => void
  /** Asked while a payment is "confirming" (pass `payDirect` `confirmWithinMs: 0` then). */
  checkStatus?: () => Promise<PaymentStatus>
  lang?: Locale
  disabled?: boolean
  "data-testid"?: string
}) {
  const t = messagesFor(props.lang)
  const { choicesId, errorId, setBin, choice, setChoice, error, setError, busy, setBusy, offerState } = useCardFormState(props.getInstallments)
  // The gateway's answer timed out and the outcome is still unknown: the shopper is told so, and is not offered to pay again.
  const [confirming, setConfirming] = useState<string | null>(null)

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
      if (result.status === "confirming") {
        setConfirming(result.message)
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

  // The outcome came: a failure gives the form back with its text (paid goes on through onPaid).
  const onConfirmingStatus = (status: PaymentStatus) => {
    if (status.status !== "failed" && status.status !== "none") return
    setConfirming(null)
    setBusy(false)
    setError(status.status === "failed" ? status.message || t.failed : null)
  }

  return (
    <>
      <form id={choicesId} hidden onSubmit={(event) => event.preventDefault()} />
      <form className={CLASSES.form} onSubmit={onSubmit} noValidate autoComplete="on" data-testid={props["data-testid"] ?? "sipay-direct-card-form"}>
        <CardFields t={t} brand={cardBrandName(offerState.offer?.installments[0]?.card_scheme)} onBin={setBin} invalid={Boolean(error)} describedBy={error ? errorId : undefined} disabled={props.disabled} />
        <InstallmentPicker t={t} lang={props.lang} currencyCode={props.currencyCode} amount={props.amount} state={offerState} formId={choicesId} choice={choice} onChoice={setChoice} plan={props.plan} />
        <button type="submit" className={CLASSES.button} disabled={props.disabled || busy || Boolean(confirming)} aria-busy={busy || undefined}>
          {busy ? t.paying : fill(t.payAmount, { amount: formatMoney(props.amount, props.currencyCode, props.lang) })}
        </button>
        {confirming && props.checkStatus ? (
          <SipayPaymentStatus check={props.checkStatus} onPaid={props.onPaid} lang={props.lang} onStatus={onConfirmingStatus} confirming data-testid="sipay-payment-confirming" />
        ) : confirming ? (
          <div className={CLASSES.status} role="status" data-testid="sipay-payment-confirming">{confirming}</div>
        ) : null}
        {error ? <div id={errorId} className={CLASSES.error} role="alert">{error}</div> : null}
      </form>
    </>
  )
}
