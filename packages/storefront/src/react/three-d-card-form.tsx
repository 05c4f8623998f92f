import { useEffect, useRef, type FormEvent } from "react"
import type { InstallmentChoice, InstallmentOffer, Locale, RecurringPlanView, ThreeDForm } from "../index"
import { cardProblem, CardFields, readCard } from "./card-fields"
import { CLASSES } from "./classes"
import { InstallmentPicker, useCardFormState } from "./installments"
import { cardBrandName, formatMoney } from "../display"
import { fill, messagesFor } from "./messages"

/**
 * 3D with the store's own card form: installments by BIN (the agricultural type too), then
 * `startForm` (a server action calling `startThreeDForm`) signs the choice and the form is submitted as
 * a real browser form post to the gateway, card inputs and signed fields together.
 */
export function SipayThreeDCardForm(props: {
  amount: number | string
  currencyCode: string
  getInstallments: (bin: string) => Promise<InstallmentOffer>
  /** A recurring product's plan (getRecurringPlan): shown instead of installments. */
  plan?: RecurringPlanView | null
  startForm: (choice: InstallmentChoice) => Promise<ThreeDForm | { error: string }>
  lang?: Locale
  disabled?: boolean
  "data-testid"?: string
}) {
  const t = messagesFor(props.lang)
  const formRef = useRef<HTMLFormElement>(null)
  const { choicesId, errorId, setBin, choice, setChoice, error, setError, busy, setBusy, offerState } = useCardFormState(props.getInstallments)
  useEffect(() => {
    // Back from the gateway through the browser's history: the form is usable again.
    const onShow = (event: PageTransitionEvent) => event.persisted && setBusy(false)
    window.addEventListener("pageshow", onShow)
    return () => window.removeEventListener("pageshow", onShow)
  }, [])

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = event.currentTarget
    if (busy) return
    const problem = cardProblem(readCard(form), t, props.lang)
    if (problem) {
      setError(problem)
      return
    }
    setError(null)
    setBusy(true)
    try {
      const signed = await props.startForm(choice)
      if ("error" in signed) {
        throw new Error(signed.error)
      }
      postToGateway(form, signed)
    } catch (caught) {
      setError((caught as Error)?.message || t.failed)
      setBusy(false)
    }
  }

  return (
    <>
      <form id={choicesId} hidden onSubmit={(event) => event.preventDefault()} />
      <form ref={formRef} className={CLASSES.form} onSubmit={onSubmit} noValidate data-testid={props["data-testid"] ?? "sipay-3d-card-form"}>
        <CardFields t={t} brand={cardBrandName(offerState.offer?.installments[0]?.card_scheme)} onBin={setBin} invalid={Boolean(error)} describedBy={error ? errorId : undefined} disabled={props.disabled} />
        <InstallmentPicker t={t} lang={props.lang} currencyCode={props.currencyCode} amount={props.amount} state={offerState} formId={choicesId} choice={choice} onChoice={setChoice} plan={props.plan} />
        <div data-signed-fields="" hidden />
        <button type="submit" className={CLASSES.button} disabled={props.disabled || busy} aria-busy={busy || undefined}>
          {busy ? t.paying : fill(t.payAmount, { amount: formatMoney(props.amount, props.currencyCode, props.lang) })}
        </button>
        {error ? <div id={errorId} className={CLASSES.error} role="alert">{error}</div> : null}
      </form>
    </>
  )
}

/** The real form post: the signed fields as hidden inputs beside the card inputs, then a native submit. */
function postToGateway(form: HTMLFormElement, signed: ThreeDForm): void {
  const box = form.querySelector("[data-signed-fields]") as HTMLElement
  box.replaceChildren()
  const add = (name: string, value: string) => {
    const input = document.createElement("input")
    input.type = "hidden"
    input.name = name
    input.value = value
    box.appendChild(input)
  }
  for (const [name, value] of Object.entries(signed.fields)) {
    add(name, String(value))
  }
  // The gateway's name/surname come from the holder's name typed here when the plugin did not sign them.
  const holder = String((form.elements.namedItem("cc_holder_name") as HTMLInputElement).value).trim().split(/\s+/)
  const surname = holder.length > 1 ? holder.pop()! : holder[0]
  if (signed.fields.name === undefined) add("name", holder.join(" ").slice(0, 50))
  if (signed.fields.surname === undefined) add("surname", surname.slice(0, 50))
  const card = readCard(form)
  ;(form.elements.namedItem("cc_no") as HTMLInputElement).value = card.number
  ;(form.elements.namedItem("expiry_month") as HTMLInputElement).value = card.expiry_month
  ;(form.elements.namedItem("expiry_year") as HTMLInputElement).value = card.expiry_year
  form.method = "post"
  form.action = signed.action
  HTMLFormElement.prototype.submit.call(form)
}
