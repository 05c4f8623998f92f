import { useId } from "react"
import { checkCard } from "../../../../src/lib/checkout/card-check"
import { shopperMessage } from "../../../../src/lib/shopper-messages/texts"
import type { Locale } from "../index"
import { CLASSES } from "./classes"
import { fill, type Messages } from "./messages"

/**
 * The card inputs, uncontrolled: the card lives in the DOM until the submit reads it, never in React
 * state. Names are the gateway's (`cc_holder_name`, `cc_no`, `expiry_month`, `expiry_year`, `cvv`), so
 * the 3D form posts them as they are. `onBin` is told only the card's first 6 digits; `brand` is the
 * card's brand the gateway gave for them, shown as text under the number.
 */
export function CardFields(props: { t: Messages; brand?: string | null; invalid?: boolean; describedBy?: string; onBin?: (bin: string | null) => void; disabled?: boolean }) {
  const id = useId()
  const { t } = props
  const common = { className: CLASSES.input, required: true, disabled: props.disabled, "aria-invalid": props.invalid || undefined, "aria-describedby": props.describedBy }
  return (
    <>
      <div className={CLASSES.field}>
        <label className={CLASSES.label} htmlFor={`${id}-holder`}>{t.holder}</label>
        <input {...common} id={`${id}-holder`} name="cc_holder_name" autoComplete="cc-name" maxLength={100} spellCheck={false} />
      </div>
      <div className={CLASSES.field}>
        <label className={CLASSES.label} htmlFor={`${id}-number`}>{t.number}</label>
        <input
          {...common}
          id={`${id}-number`}
          name="cc_no"
          autoComplete="cc-number"
          inputMode="numeric"
          maxLength={23}
          pattern="[0-9 ]{12,23}"
          spellCheck={false}
          onInput={(event) => {
            const digits = event.currentTarget.value.replace(/\D/g, "")
            props.onBin?.(digits.length >= 6 ? digits.slice(0, 6) : null)
          }}
        />
        <p className={CLASSES.hint} aria-live="polite" data-testid="sipay-card-brand">
          {props.brand ? fill(t.brand, { brand: props.brand }) : ""}
        </p>
      </div>
      <div className={CLASSES.row}>
        <div className={CLASSES.field}>
          <label className={CLASSES.label} htmlFor={`${id}-month`}>{t.month}</label>
          <input {...common} id={`${id}-month`} name="expiry_month" autoComplete="cc-exp-month" inputMode="numeric" maxLength={2} pattern="0?[1-9]|1[0-2]" />
        </div>
        <div className={CLASSES.field}>
          <label className={CLASSES.label} htmlFor={`${id}-year`}>{t.year}</label>
          <input {...common} id={`${id}-year`} name="expiry_year" autoComplete="cc-exp-year" inputMode="numeric" maxLength={4} pattern="[0-9]{2}|[0-9]{4}" />
        </div>
        <div className={CLASSES.field}>
          <label className={CLASSES.label} htmlFor={`${id}-cvv`}>{t.cvv}</label>
          <input {...common} id={`${id}-cvv`} name="cvv" autoComplete="cc-csc" inputMode="numeric" maxLength={4} pattern="[0-9]{3,4}" />
        </div>
      </div>
    </>
  )
}

/** The card as the submit reads it from the form (never kept). */
export function readCard(form: HTMLFormElement) {
  const value = (name: string) => String((form.elements.namedItem(name) as HTMLInputElement | null)?.value ?? "").trim()
  return {
    holder_name: value("cc_holder_name"),
    number: value("cc_no").replace(/\D/g, ""),
    expiry_month: value("expiry_month").padStart(2, "0"),
    expiry_year: value("expiry_year").length === 2 ? `20${value("expiry_year")}` : value("expiry_year"),
    cvv: value("cvv"),
  }
}

/**
 * What the form checks before anything leaves the browser: the plugin's own card check (Luhn, length,
 * an expiry month that has not passed), then a name and a 3 or 4 digit security code. The text to
 * show, or null when the card may be sent.
 */
export function cardProblem(card: ReturnType<typeof readCard>, t: Messages, lang: Locale | undefined): string | null {
  const problem = checkCard(card)
  if (problem) return shopperMessage(problem, lang ?? "tr")
  return card.holder_name && /^\d{3,4}$/.test(card.cvv) ? null : t.invalid
}

/** Empties what must not stay on screen after a try: the security code (the number stays, to correct or retry). */
export function clearSecrets(form: HTMLFormElement): void {
  for (const name of ["cvv"]) {
    const input = form.elements.namedItem(name) as HTMLInputElement | null
    if (input) input.value = ""
  }
}
