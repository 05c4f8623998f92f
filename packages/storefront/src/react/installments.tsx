import { useEffect, useId, useState } from "react"
import type { InstallmentChoice, InstallmentOffer, Locale, RecurringPlanView } from "../index"
import { PLAN_WORDS, recurringPlanText } from "../../../../src/lib/shopper-messages/plan"
import { CLASSES } from "./classes"
import { formatMoney, installmentAmount } from "../display"
import { fill, type Messages } from "./messages"

/** Installment options of the card's BIN, asked for once per BIN; `null` while no BIN is typed. */
export function useInstallmentOffer(bin: string | null, getInstallments: (bin: string) => Promise<InstallmentOffer>) {
  const [state, setState] = useState<{ bin: string | null; offer: InstallmentOffer | null; loading: boolean; failed: boolean }>({
    bin: null,
    offer: null,
    loading: false,
    failed: false,
  })
  useEffect(() => {
    if (!bin) {
      setState({ bin: null, offer: null, loading: false, failed: false })
      return
    }
    let current = true
    setState({ bin, offer: null, loading: true, failed: false })
    getInstallments(bin)
      .then((offer) => current && setState({ bin, offer, loading: false, failed: false }))
      .catch(() => current && setState({ bin, offer: null, loading: false, failed: true }))
    return () => {
      current = false
    }
    // getInstallments is usually a new function each render (a server action wrapper): the BIN decides.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [bin])
  return state
}

/**
 * One option as the shopper reads it: single payment with its amount, or the count, what each
 * installment is and the total ("3 taksit · 3 × ₺66,60 · toplam ₺199,80").
 */
export function installmentLabel(
  option: InstallmentOffer["installments"][number],
  t: Messages,
  currencyCode: string,
  lang: Locale | undefined
): string {
  const count = option.installments_number
  const total = option.amount_to_be_paid
  if (count === 1) {
    return total ? `${t.single} · ${formatMoney(total, currencyCode, lang)}` : t.single
  }
  const name = fill(t.count, { count })
  if (!total) return name
  const each = fill(t.perInstallment, { count, amount: formatMoney(installmentAmount(total, count), currencyCode, lang) })
  return `${name} · ${each} · ${fill(t.total, { amount: formatMoney(total, currencyCode, lang) })}`
}

/**
 * The shopper's choice among the options: single payment, N installments, or the agricultural type
 * with its maturity period and payment frequency. Its inputs belong to `formId` (a form that is never
 * submitted), so a real form post to the gateway carries only the card and the signed fields.
 */
export function InstallmentPicker(props: {
  t: Messages
  lang?: Locale
  currencyCode: string
  amount: number | string
  state: ReturnType<typeof useInstallmentOffer>
  formId: string
  choice: InstallmentChoice
  onChoice: (choice: InstallmentChoice) => void
  /** A recurring product's plan: shown instead of any installment choice. */
  plan?: RecurringPlanView | null
}) {
  const id = useId()
  const { t, state } = props
  const plan = props.plan ?? state.offer?.recurring_plan ?? null
  if (plan) return <RecurringPlanNote plan={plan} lang={props.lang} />
  const options = state.offer?.installments ?? [{ installments_number: 1, amount_to_be_paid: null, label: null, card_program: null }]
  const agricultural = state.offer?.agricultural ?? null
  const isAgricultural = props.choice.maturity_period !== undefined
  const hint = !state.bin ? t.typeNumber : state.loading ? t.loadingOptions : state.failed ? t.optionsFailed : ""
  return (
    <fieldset className={CLASSES.fieldset} aria-busy={state.loading || undefined}>
      <legend className={CLASSES.legend}>{t.installments}</legend>
      <p className={CLASSES.hint} role="status" aria-live="polite">{hint}</p>
      {options.map((option) => (
        <label key={option.installments_number} className={CLASSES.choice}>
          <input
            type="radio"
            form={props.formId}
            name={`${id}-installments`}
            value={option.installments_number}
            checked={!isAgricultural && props.choice.installments_number === option.installments_number}
            onChange={() => props.onChoice({ installments_number: option.installments_number })}
            data-installments={option.installments_number}
          />
          {installmentLabel(option, t, props.currencyCode, props.lang)}
        </label>
      ))}
      {agricultural ? (
        <>
          <label className={CLASSES.choice}>
            <input
              type="radio"
              form={props.formId}
              name={`${id}-installments`}
              value="agricultural"
              checked={isAgricultural}
              onChange={() =>
                props.onChoice({ installments_number: 1, maturity_period: agricultural.maturity_periods[0], payment_frequency: agricultural.payment_frequencies[0] })
              }
              data-installments="agricultural"
            />
            {t.agricultural}
          </label>
          {isAgricultural ? (
            <div className={CLASSES.row}>
              <div className={CLASSES.field}>
                <label className={CLASSES.label} htmlFor={`${id}-maturity`}>{t.maturity}</label>
                <select
                  id={`${id}-maturity`}
                  form={props.formId}
                  className={CLASSES.input}
                  value={props.choice.maturity_period}
                  onChange={(event) => props.onChoice({ ...props.choice, maturity_period: Number(event.currentTarget.value) })}
                >
                  {agricultural.maturity_periods.map((days) => <option key={days} value={days}>{days}</option>)}
                </select>
              </div>
              <div className={CLASSES.field}>
                <label className={CLASSES.label} htmlFor={`${id}-frequency`}>{t.frequency}</label>
                <select
                  id={`${id}-frequency`}
                  form={props.formId}
                  className={CLASSES.input}
                  value={props.choice.payment_frequency}
                  onChange={(event) => props.onChoice({ ...props.choice, payment_frequency: Number(event.currentTarget.value) })}
                >
                  {agricultural.payment_frequencies.map((months) => <option key={months} value={months}>{months}</option>)}
                </select>
              </div>
            </div>
          ) : null}
        </>
      ) : null}
    </fieldset>
  )
}

/** What both card forms hold: the BIN typed so far, the offer and choice of installments, the error and busy state. */
export function useCardFormState(getInstallments: (bin: string) => Promise<InstallmentOffer>) {
  const choicesId = `${useId()}-choices`
  const [bin, setBin] = useState<string | null>(null)
  const [choice, setChoice] = useState<InstallmentChoice>({ installments_number: 1 })
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const offerState = useInstallmentOffer(bin, getInstallments)
  useEffect(() => setChoice((current) => choiceStillOffered(current, offerState.offer)), [offerState.offer])
  return { choicesId, errorId: `${choicesId}-error`, setBin, choice, setChoice, error, setError, busy, setBusy, offerState }
}

/** A choice no longer offered for the new BIN falls back to single payment. */
export function choiceStillOffered(choice: InstallmentChoice, offer: InstallmentOffer | null): InstallmentChoice {
  if (choice.maturity_period !== undefined) {
    return offer?.agricultural ? choice : { installments_number: 1 }
  }
  const offered = offer?.installments.some((option) => option.installments_number === choice.installments_number)
  return offered || choice.installments_number === 1 ? choice : { installments_number: 1 }
}

/** A recurring product's charge plan ("12 x ₺900,00, her ay"): what the card is charged, when; no installments. */
export function RecurringPlanNote(props: { plan: RecurringPlanView; lang?: Locale }) {
  const words = PLAN_WORDS[props.lang === "en" ? "en" : "tr"]
  return (
    <div className={CLASSES.fieldset} data-testid="sipay-recurring-plan">
      <p className={CLASSES.legend}>{words.title}</p>
      <p data-plan-text="">{recurringPlanText(props.plan, formatMoney(props.plan.amount, props.plan.currency_code, props.lang), props.lang)}</p>
      <p className={CLASSES.hint}>{words.noInstallments}</p>
    </div>
  )
}
