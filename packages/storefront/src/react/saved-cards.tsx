import { useId, useState } from "react"
import type { Locale, PaymentStatus } from "../index"
import type { CardConsent, SavedCard, SavedCardPaymentResult } from "../saved-cards"
import { showBankPage } from "../saved-cards"
import { CLASSES } from "./classes"
import { fill } from "./messages"
import { SipayPaymentStatus } from "./payment-status"
import { savedCardMessagesFor, type SavedCardMessages } from "./saved-card-messages"

/** "Visa 450803****4509 · 12/2031": a card as its owner recognises it (no expiry unless the gateway gives one). */
function cardLabel(card: SavedCard, t: SavedCardMessages): string {
  const expiry = card.expiry_month && card.expiry_year ? ` · ${fill(t.expires, { date: `${String(card.expiry_month).padStart(2, "0")}/${card.expiry_year}` })}` : ""
  return `${t.brands[card.brand] ?? t.brands.unknown} ${card.masked_number}${expiry}`
}

/**
 * The payment step's saved-card choice: the signed-in customer's cards, one picked, paid in one step
 * with `pay` (a server action calling `payWithSavedCard`). A 3D payment's answer is the bank's page,
 * shown in place of the checkout (`onBankPage`, default `showBankPage`); a direct one ends in `onPaid`,
 * or, when the gateway's answer timed out, in "confirming", asked for its outcome with `checkStatus` as
 * SipayDirectCardForm does. Renders nothing without cards.
 */
export function SipaySavedCardChoice(props: {
  cards: SavedCard[]
  pay: (cardId: string) => Promise<SavedCardPaymentResult>
  onPaid: (result: { order_id: string }) => void
  onBankPage?: (html: string) => void
  /** Asked while a payment is "confirming" (pass `payWithSavedCard` `confirmWithinMs: 0` then). */
  checkStatus?: () => Promise<PaymentStatus>
  lang?: Locale
  disabled?: boolean
  "data-testid"?: string
}) {
  const t = savedCardMessagesFor(props.lang)
  const name = useId()
  const errorId = useId()
  const [chosen, setChosen] = useState<string | null>(props.cards[0]?.id ?? null)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  // The gateway's answer timed out: the outcome is asked for, and the shopper is not offered to pay again.
  const [confirming, setConfirming] = useState<string | null>(null)
  if (!props.cards.length) return null

  const payNow = async () => {
    if (!chosen || busy) return
    setBusy(true)
    setError(null)
    try {
      const result = await props.pay(chosen)
      if ("type" in result && result.type === "bank_page") {
        ;(props.onBankPage ?? showBankPage)(result.html)
        return
      }
      if ("order_id" in result && (result.status === "paid" || result.status === "authorized")) {
        props.onPaid({ order_id: result.order_id })
        return
      }
      if ("status" in result && result.status === "confirming") {
        setConfirming(result.message)
      } else {
        setError(("message" in result && result.message) || t.failed)
      }
    } catch (caught) {
      setError((caught as Error)?.message || t.failed)
    }
    setBusy(false)
  }

  // The outcome came: a failure gives the choice back with its text (paid goes on through onPaid).
  const onConfirmingStatus = (status: PaymentStatus) => {
    if (status.status !== "failed" && status.status !== "none") return
    setConfirming(null)
    setError(status.status === "failed" ? status.message || t.failed : null)
  }

  return (
    <div className={CLASSES.form} data-testid={props["data-testid"] ?? "sipay-saved-card-choice"}>
      <fieldset className={CLASSES.fieldset} aria-describedby={error ? errorId : undefined}>
        <legend className={CLASSES.legend}>{t.choose}</legend>
        {props.cards.map((card) => (
          <label key={card.id} className={CLASSES.choice}>
            <input type="radio" name={name} value={card.id} checked={chosen === card.id} onChange={() => setChosen(card.id)} disabled={props.disabled || busy} />
            <span>{cardLabel(card, t)}</span>
          </label>
        ))}
      </fieldset>
      <button type="button" className={CLASSES.button} onClick={payNow} disabled={props.disabled || busy || !chosen || Boolean(confirming)} aria-busy={busy || undefined}>
        {busy ? t.toBank : t.payWithCard}
      </button>
      {confirming && props.checkStatus ? (
        <SipayPaymentStatus check={props.checkStatus} onPaid={props.onPaid} lang={props.lang} onStatus={onConfirmingStatus} confirming data-testid="sipay-payment-confirming" />
      ) : confirming ? (
        <div className={CLASSES.status} role="status" data-testid="sipay-payment-confirming">{confirming}</div>
      ) : null}
      {error ? <div id={errorId} className={CLASSES.error} role="alert">{error}</div> : null}
    </div>
  )
}

/**
 * The account page's "my cards": each saved card (brand, masked number, expiry where given) with a
 * delete button that asks once more before `remove` (a server action calling `deleteSavedCard`).
 */
export function SipaySavedCardsList(props: { cards: SavedCard[]; remove: (cardId: string) => Promise<void>; lang?: Locale; "data-testid"?: string }) {
  const t = savedCardMessagesFor(props.lang)
  const [cards, setCards] = useState(props.cards)
  const [confirming, setConfirming] = useState<string | null>(null)
  const [busy, setBusy] = useState<string | null>(null)
  const [status, setStatus] = useState<{ text: string; error: boolean } | null>(null)

  const removeCard = async (card: SavedCard) => {
    if (confirming !== card.id) {
      setConfirming(card.id)
      return
    }
    setBusy(card.id)
    try {
      await props.remove(card.id)
      setCards((list) => list.filter((entry) => entry.id !== card.id))
      setStatus({ text: fill(t.removed, { card: card.masked_number }), error: false })
    } catch {
      setStatus({ text: t.removeFailed, error: true })
    }
    setBusy(null)
    setConfirming(null)
  }

  return (
    <section className={CLASSES.form} data-testid={props["data-testid"] ?? "sipay-saved-cards"}>
      <h2 className={CLASSES.legend}>{t.listTitle}</h2>
      {cards.length ? (
        <ul className="flex flex-col gap-y-2">
          {cards.map((card) => (
            <li key={card.id} className="flex items-center justify-between gap-x-4 txt-compact-small text-ui-fg-base">
              <span>{cardLabel(card, t)}</span>
              <button type="button" className={CLASSES.button + " !w-auto"} onClick={() => removeCard(card)} disabled={busy !== null} aria-label={fill(t.removeCard, { card: card.masked_number })}>
                {busy === card.id ? t.removing : confirming === card.id ? t.confirmRemove : t.remove}
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className={CLASSES.hint}>{t.none}</p>
      )}
      <div role={status?.error ? "alert" : "status"} className={status?.error ? CLASSES.error : CLASSES.status}>
        {status?.text ?? ""}
      </div>
    </section>
  )
}

/**
 * The opt-in to save the card of a direct payment: unticked, with the store's consent text (KVKK) in
 * the shopper's language. Pass `checked ? { consentVersion: consent.version } : undefined` to payDirect.
 */
export function SipaySaveCardConsent(props: { consent: CardConsent; checked: boolean; onChange: (checked: boolean) => void; lang?: Locale; disabled?: boolean }) {
  const t = savedCardMessagesFor(props.lang)
  const textId = useId()
  return (
    <div className={CLASSES.field} data-testid="sipay-save-card-consent">
      <label className={CLASSES.choice}>
        <input type="checkbox" checked={props.checked} onChange={(event) => props.onChange(event.currentTarget.checked)} disabled={props.disabled} aria-describedby={textId} />
        <span>{t.save}</span>
      </label>
      <p id={textId} className={CLASSES.hint}>
        {props.consent.text[props.lang === "en" ? "en" : "tr"]}
      </p>
    </div>
  )
}
