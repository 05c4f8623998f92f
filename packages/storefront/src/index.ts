/**
 * medusa-plugin-sipay-storefront: what a storefront calls, over Medusa's JS SDK, for every store route
 * the plugin adds (docs/storefront.md of medusa-plugin-sipay). No React, no Node built-ins:
 * these run in a Next.js server action, a route handler, or a browser.
 */
import { isShopperMessageCode, SHOPPER_MESSAGES, shopperMessage, type ShopperMessageCode } from "../../../src/lib/shopper-messages/texts"

export { SHOPPER_MESSAGES, shopperMessage, type ShopperMessageCode }
export { PLAN_WORDS, recurringPlanText, type RecurringPlanView } from "../../../src/lib/shopper-messages/plan"
import type { RecurringPlanView } from "../../../src/lib/shopper-messages/plan"
import { confirmDirectPayment } from "./confirm"
export { cardBrandName, formatMoney, installmentAmount, MONEY_LOCALE, PAYMENT_METHOD_TITLES, sipayMethodTitle } from "./display"

/** Provider ids of the plugin as registered with `id: "sipay"`. */
export const SIPAY_3D_PROVIDER_ID = "pp_sipay_sipay"
export const SIPAY_2D_PROVIDER_ID = "pp_sipay-2d_sipay"

export function isSipay3D(providerId: string | null | undefined): boolean {
  return typeof providerId === "string" && providerId.startsWith("pp_sipay_")
}

export function isSipayDirect(providerId: string | null | undefined): boolean {
  return typeof providerId === "string" && providerId.startsWith("pp_sipay-2d_")
}

/**
 * The part of Medusa's JS SDK (`new Medusa(...)` of `@medusajs/js-sdk`, 2.x) these helpers use. Loose on
 * purpose: the SDK's own parameter types differ between its versions, and its instance must fit as it is.
 */
export type SdkLike = {
  client: { fetch<T>(path: string, init?: any): Promise<T> }
  store: {
    payment: {
      initiatePaymentSession(cart: any, body: { provider_id: string; data?: Record<string, unknown> }, query?: any, headers?: any): Promise<{ payment_collection: PaymentCollectionLike }>
    }
  }
}

type PaymentSessionLike = { id: string; provider_id: string; status?: string; amount?: number }
type PaymentCollectionLike = { id: string; payment_sessions?: PaymentSessionLike[] | null }
/** The cart fields these helpers read (a StoreCart of `@medusajs/types` fits). */
export type CartLike = { id: string; payment_collection?: PaymentCollectionLike | null; total?: number | null; currency_code?: string | null }

export type Headers = Record<string, string>

/**
 * Headers for a request about a payment session: a record, or a function of the session's id ("" for
 * a request about none), so the shopper's address can be signed for the session (`shopperHeaders` of
 * `medusa-plugin-sipay-storefront/server`).
 */
export type SessionHeaders = Headers | ((sessionId: string) => Promise<Headers> | Headers)

async function headersFor(headers: SessionHeaders | undefined, sessionId: string, locale?: Locale): Promise<Headers> {
  const given = typeof headers === "function" ? await headers(sessionId) : headers ?? {}
  // The plugin answers a refusal in this language (its text for the refusal's code).
  return locale ? { "accept-language": locale, ...given } : given
}

/**
 * The plugin's code of a refusal, from its message (Medusa's JS SDK keeps only the message and the
 * HTTP status of an error answer): every message a shopper reads is a text of SHOPPER_MESSAGES.
 */
export function codeOfMessage(message: string | null | undefined): ShopperMessageCode | null {
  const text = String(message ?? "").trim()
  for (const [code, texts] of Object.entries(SHOPPER_MESSAGES)) {
    if (texts.tr === text || texts.en === text) return code as ShopperMessageCode
  }
  return null
}

/** A refusal of the plugin as the shopper reads it in `locale`: its code when it has one, its text in that language. */
export function shopperRefusal(error: unknown, locale: Locale | undefined): { status: number | null; code: ShopperMessageCode | null; message: string } {
  const status = (error as { status?: number } | null)?.status ?? null
  const code = codeOfMessage((error as Error | null)?.message)
  const fallback = status === 429 || (status !== null && status >= 500) || status === null ? "try_later" : "card_declined"
  return { status, code, message: shopperMessage(code ?? fallback, locale ?? "tr") }
}

export type Locale = "tr" | "en"

export type InstallmentOffer = {
  /** `amount_to_be_paid`: the total for that count; `card_scheme`: the card's brand as the gateway names it (VISA, MASTERCARD, TROY, …). */
  installments: { installments_number: number; amount_to_be_paid: string | null; label: string | null; card_program: string | null; card_scheme?: string | null }[]
  /** The agricultural ('tarim') terms when the store offers them and the card has them. */
  agricultural: { maturity_periods: number[]; payment_frequencies: number[] } | null
  /** A recurring product's plan (asked with the cart): then single payment is the only option. */
  recurring_plan?: RecurringPlanView | null
}

/** The shopper's installment choice; the agricultural type is `installments_number: 1` with its two terms. */
export type InstallmentChoice = { installments_number: number; maturity_period?: number; payment_frequency?: number }

/**
 * The cart's pending payment session of `providerId`, created when it has none (Medusa's own route, which
 * replaces another provider's session). Returns the session.
 */
export async function ensurePaymentSession(sdk: SdkLike, cart: CartLike, providerId: string, headers?: Headers): Promise<PaymentSessionLike> {
  const existing = cart.payment_collection?.payment_sessions?.find((session) => session.provider_id === providerId && (session.status ?? "pending") === "pending")
  if (existing) {
    return existing
  }
  const { payment_collection } = await sdk.store.payment.initiatePaymentSession(cart, { provider_id: providerId }, undefined, headers)
  const session = payment_collection.payment_sessions?.find((candidate) => candidate.provider_id === providerId)
  if (!session) {
    throw new Error(`Medusa did not create a ${providerId} payment session for cart ${cart.id}: is the provider enabled in the cart's region?`)
  }
  return session
}

/**
 * 3D on the plugin's hosted card page: the page's signed address for the cart's 3D session (created
 * if needed). Send the shopper's browser to `url` as it is (a full navigation, `window.location.assign`):
 * its token is in the fragment (`#token=`), which the page's script reads and which no request, and so
 * no server or proxy log, carries. Do not log `url` or send it to a server yourself.
 */
export async function startHostedPayment(
  sdk: SdkLike,
  input: { cart: CartLike; lang?: Locale; providerId?: string; headers?: Headers }
): Promise<{ url: string; expires_at: string; session_id: string }> {
  const session = await ensurePaymentSession(sdk, input.cart, input.providerId ?? SIPAY_3D_PROVIDER_ID, input.headers)
  const answer = await sdk.client.fetch<{ url: string; expires_at: string }>(`/store/sipay/payment-sessions/${encodeURIComponent(session.id)}/hosted-page`, {
    method: "POST",
    body: { cart_id: input.cart.id, ...(input.lang ? { lang: input.lang } : {}) },
    headers: input.headers,
  })
  return { ...answer, session_id: session.id }
}

/** What a card form of the store's own posts to the gateway: the action and the signed non-card fields. */
export type ThreeDForm = { action: string; fields: Record<string, string> }

/**
 * 3D with a card form of the store's own: the signed fields of a new attempt for the shopper's
 * installment choice. The browser then posts them with the card inputs (`cc_holder_name`, `cc_no`,
 * `expiry_month`, `expiry_year`, `cvv`) as a normal form post to `action`.
 */
export async function startThreeDForm(
  sdk: SdkLike,
  input: { cart: CartLike; choice: InstallmentChoice; locale?: Locale; providerId?: string; headers?: SessionHeaders }
): Promise<ThreeDForm & { session_id: string }> {
  const session = await ensurePaymentSession(sdk, input.cart, input.providerId ?? SIPAY_3D_PROVIDER_ID, await headersFor(input.headers, ""))
  try {
    const form = await sdk.client.fetch<ThreeDForm & { session_id?: string }>(`/store/sipay/payment-sessions/${encodeURIComponent(session.id)}/3d-form`, {
      method: "POST",
      body: { cart_id: input.cart.id, ...choiceBody(input.choice), ...(input.locale ? { locale: input.locale } : {}) },
      headers: await headersFor(input.headers, session.id, input.locale),
    })
    // The form's session: a new one when an installment fee changed the cart's total.
    return { action: form.action, fields: form.fields, session_id: typeof form.session_id === "string" ? form.session_id : session.id }
  } catch (error) {
    throw inShoppersLanguage(error, input.locale)
  }
}

/** An error answer of the plugin with the text of its code in the shopper's language (status and code kept). */
function inShoppersLanguage(error: unknown, locale: Locale | undefined): unknown {
  const refusal = shopperRefusal(error, locale)
  return refusal.code ? Object.assign(new Error(refusal.message), { status: refusal.status, code: refusal.code }) : error
}

/** A product page's installment table: per card family, each count's per-installment amount, total and fee. */
export type InstallmentTable = {
  amount: string
  currency_code: string
  table: { card_program: string; title: string; options: { installments: number; fee: string; total: string; per_installment: string }[] }[]
}

/** The installment table for a price (computed by the store from the gateway's commission table; no card needed). */
export async function getInstallmentTable(sdk: SdkLike, input: { amount: number | string; currencyCode: string; headers?: Headers }): Promise<InstallmentTable> {
  return sdk.client.fetch<InstallmentTable>("/store/sipay/installment-table", {
    method: "GET",
    query: { amount: formatAmount(input.amount), currency_code: input.currencyCode.toUpperCase() },
    headers: input.headers ?? {},
  })
}

/** Installment options for a card's first 6 to 8 digits (only the BIN is sent), the agricultural terms included. */
export async function getInstallmentOptions(
  sdk: SdkLike,
  input: { bin: string; amount: number | string; currencyCode: string; cartId?: string; headers?: SessionHeaders }
): Promise<InstallmentOffer> {
  const bin = String(input.bin).replace(/\D/g, "").slice(0, 8)
  if (bin.length < 6) {
    throw new Error("getInstallmentOptions: bin must be the card's first 6 to 8 digits")
  }
  return sdk.client.fetch<InstallmentOffer>("/store/sipay/installments", {
    method: "GET",
    query: { bin, amount: formatAmount(input.amount), currency_code: input.currencyCode.toUpperCase(), ...(input.cartId ? { cart_id: input.cartId } : {}) },
    headers: await headersFor(input.headers, ""),
  })
}

/**
 * The charge plan of a cart holding a recurring product ("12 x ₺900,00, her ay" with recurringPlanText),
 * or null: a recurring cart is charged on its plan, never in installments.
 */
export async function getRecurringPlan(sdk: SdkLike, cartId: string, headers?: Headers): Promise<RecurringPlanView | null> {
  const answer = await sdk.client.fetch<{ recurring_plan: RecurringPlanView | null }>(`/store/sipay/carts/${encodeURIComponent(cartId)}/recurring-plan`, {
    method: "GET",
    headers,
  })
  return answer.recurring_plan ?? null
}

export type DirectCard = { holder_name: string; number: string; expiry_month: string; expiry_year: string; cvv: string }

export type DirectPaymentResult =
  | { status: "paid" | "authorized"; order_id: string; cart_id: string | null; session_id: string; saved_card?: import("./saved-cards").SavedCard | null }
  | { status: "failed" | "pending" | "rate_limited" | "confirming"; code: ShopperMessageCode | null; message: string; session_id: string }

/**
 * How a payment of a session stands, as the plugin's status route answers a shopper who comes back:
 * `paid` (the order), `confirming` (the gateway has or may have the money: show the message, never a
 * pay button), `failed` (the message says why; the shopper may pay again) or `none` (nothing paid yet).
 */
export type PaymentStatus = { status: "paid" | "confirming" | "failed" | "none"; order_id: string | null; code: ShopperMessageCode | null; message: string | null }

/**
 * The status of the payment of a cart's Sipay session, asked of the plugin with the cart's id (the
 * holder's proof). Without `sessionId`, the cart's Sipay session is looked up first (one store call; a
 * cart with none answers `none`), so a page that knows only the cart (the failure URL's `cart_id`) asks
 * too. The plugin settles an open attempt on the spot from the gateway (at most one gateway check per
 * attempt per 10 s, whoever asks). Call it on the checkout page, the failure URL's page, before a retry.
 */
export async function getPaymentStatus(
  sdk: SdkLike,
  input: { cartId: string; sessionId?: string; locale?: Locale; headers?: SessionHeaders }
): Promise<PaymentStatus> {
  const sessionId = input.sessionId ?? (await sipaySessionOfCart(sdk, input.cartId, await headersFor(input.headers, "")))
  if (!sessionId) {
    return { status: "none", order_id: null, code: null, message: null }
  }
  const answer = await sdk.client.fetch<PaymentStatus>(`/store/sipay/payment-sessions/${encodeURIComponent(sessionId)}/status`, {
    method: "POST",
    body: { cart_id: input.cartId, ...(input.locale ? { locale: input.locale } : {}) },
    headers: await headersFor(input.headers, sessionId, input.locale),
  })
  const code = isShopperMessageCode(answer.code) ? answer.code : null
  // The text of the code in the shopper's language (the kit's table), whatever the server sent.
  return { status: answer.status, order_id: answer.order_id ?? null, code, message: code ? shopperMessage(code, input.locale ?? "tr") : null }
}

/** The id of the cart's Sipay session (3D or direct; one that went past pending first: the paid one), or null. */
async function sipaySessionOfCart(sdk: SdkLike, cartId: string, headers: Headers): Promise<string | null> {
  const { cart } = await sdk.client.fetch<{ cart: CartLike }>(`/store/carts/${encodeURIComponent(cartId)}`, {
    method: "GET",
    query: { fields: "id,*payment_collection,*payment_collection.payment_sessions" },
    headers,
    cache: "no-store",
  })
  const sessions = (cart.payment_collection?.payment_sessions ?? []).filter((session) => isSipay3D(session.provider_id) || isSipayDirect(session.provider_id))
  return (sessions.find((session) => session.status && session.status !== "pending") ?? sessions[0])?.id ?? null
}

/**
 * Asks the status route every `intervalMs` (default 3 s; the plugin asks the gateway at most every 10 s)
 * until the payment is paid or failed, or `timeoutMs` (default 90 s) has passed: then the last answer
 * (`confirming`: tell the shopper the order will follow, and ask again later).
 */
export async function waitForPaymentOutcome(
  sdk: SdkLike,
  input: { cartId: string; sessionId?: string; locale?: Locale; headers?: SessionHeaders; intervalMs?: number; timeoutMs?: number; onStatus?: (status: PaymentStatus) => void }
): Promise<PaymentStatus> {
  const deadline = Date.now() + (input.timeoutMs ?? 90_000)
  for (;;) {
    const status = await getPaymentStatus(sdk, input)
    input.onStatus?.(status)
    if (status.status === "paid" || status.status === "failed" || Date.now() >= deadline) {
      return status
    }
    await new Promise((resolve) => setTimeout(resolve, Math.min(input.intervalMs ?? 3000, Math.max(0, deadline - Date.now()))))
  }
}

/**
 * Direct (2D) card payment for the cart (its 2D session created if needed). The card is sent once, in
 * the request body with the cart's id (the plugin takes a direct payment only from the holder of the
 * session's cart); nothing of it is kept. Declines and refusals come back as `status: "failed"`,
 * `"pending"` or `"rate_limited"` with the plugin's code and its text in `locale` (Turkish unless
 * "en"; the cart stays open); other errors are thrown. `headers`: the shopper's address signed by the
 * storefront server (`shopperHeaders` of `medusa-plugin-sipay-storefront/server`), so the plugin's
 * limits and the gateway see the shopper.
 */
export async function payDirect(
  sdk: SdkLike,
  input: {
    cart: CartLike
    card: DirectCard
    choice: InstallmentChoice
    providerId?: string
    locale?: Locale
    headers?: SessionHeaders
    /** The signed-in shopper ticked the consent of this version (listSavedCards): the card is saved once it paid. */
    saveCard?: { consentVersion: string }
    /**
     * When the gateway's answer timed out (HTTP 202, "confirming"): how long to ask the status route for the
     * outcome (default 90 s; 0: return "confirming" at once, for a form that asks itself: the components' `checkStatus`).
     */
    confirmWithinMs?: number
  }
): Promise<DirectPaymentResult> {
  const session = await ensurePaymentSession(sdk, input.cart, input.providerId ?? SIPAY_2D_PROVIDER_ID, await headersFor(input.headers, ""))
  const headers = await headersFor(input.headers, session.id, input.locale ?? "tr")
  try {
    const answer = await sdk.client.fetch<{ status: "paid" | "authorized" | "confirming"; order_id: string; cart_id: string | null; session_id?: string; saved_card?: import("./saved-cards").SavedCard | null }>(
      `/store/sipay/payment-sessions/${encodeURIComponent(session.id)}/pay-2d`,
      {
        method: "POST",
        body: {
          cart_id: input.cart.id,
          ...choiceBody(input.choice),
          card: {
            holder_name: input.card.holder_name.trim(),
            number: input.card.number.replace(/\D/g, ""),
            expiry_month: input.card.expiry_month.trim(),
            expiry_year: input.card.expiry_year.trim(),
            cvv: input.card.cvv.trim(),
          },
          ...(input.saveCard ? { save_card: { consent_version: input.saveCard.consentVersion } } : {}),
        },
        headers,
      }
    )
    // An installment fee changed the cart's total: the plugin paid on a new session, which the answer names.
    const paidOn = typeof answer.session_id === "string" ? answer.session_id : session.id
    if (answer.status === "confirming") {
      // The gateway's answer timed out (HTTP 202): the payment may still go through. Never a failure: ask for the outcome.
      return await confirmDirectPayment(sdk, { sessionId: paidOn, cartId: input.cart.id, locale: input.locale, headers: input.headers, timeoutMs: input.confirmWithinMs })
    }
    return { status: answer.status, order_id: answer.order_id, cart_id: answer.cart_id ?? null, session_id: paidOn, ...(answer.saved_card !== undefined ? { saved_card: answer.saved_card } : {}) }
  } catch (error) {
    const refusal = shopperRefusal(error, input.locale)
    if (refusal.status === 402 || (refusal.status === 400 && refusal.code)) {
      return { status: refusal.code === "payment_pending" ? "pending" : "failed", code: refusal.code, message: refusal.message, session_id: session.id }
    }
    if (refusal.status === 429) {
      return { status: "rate_limited", code: refusal.code, message: refusal.message, session_id: session.id }
    }
    throw error
  }
}

/** What the 3D return put in the storefront's address: `?error=` on the failure URL. */
export function readPaymentReturn(search: string | URLSearchParams | Record<string, string | string[] | undefined>): { error: string | null } {
  let value: string | string[] | null | undefined
  if (typeof search === "string" || search instanceof URLSearchParams) {
    value = new URLSearchParams(search).get("error")
  } else {
    value = search.error
  }
  const text = (Array.isArray(value) ? value[0] : value)?.trim()
  // The plugin's messages are short sentences; anything else in the address is shown as at most one line.
  return { error: text ? text.replace(/\s+/g, " ").slice(0, 300) : null }
}

/**
 * Whether the cart became an order, asked with no cache (a cached cart still looks open). The plugin
 * completes the cart itself (the 3D return, the sale webhook after a lost redirect, the reconciliation
 * job, a direct payment), so a storefront that keeps the cart's id treats a completed cart as no cart
 * and drops its id (`hasCompletedCart` of `medusa-plugin-sipay-storefront/server` for a middleware).
 */
export async function retrieveCartState(sdk: SdkLike, cartId: string, headers?: Headers): Promise<{ completed: boolean }> {
  const { cart } = await sdk.client.fetch<{ cart: { completed_at?: string | null } }>(`/store/carts/${encodeURIComponent(cartId)}`, {
    method: "GET",
    query: { fields: "id,completed_at" },
    headers,
    cache: "no-store",
  })
  return { completed: Boolean(cart.completed_at) }
}

/** The order the plugin placed (the id the success URL carries), as the store API shows it to a guest. */
export async function retrieveOrder<T = { id: string; total: number; currency_code: string; status: string }>(
  sdk: SdkLike,
  orderId: string,
  input: { fields?: string; headers?: Headers } = {}
): Promise<T> {
  const { order } = await sdk.client.fetch<{ order: T }>(`/store/orders/${encodeURIComponent(orderId)}`, {
    method: "GET",
    query: input.fields ? { fields: input.fields } : undefined,
    headers: input.headers,
  })
  return order
}

function choiceBody(choice: InstallmentChoice): InstallmentChoice {
  const body: InstallmentChoice = { installments_number: Math.max(1, Math.trunc(Number(choice.installments_number) || 1)) }
  if (choice.maturity_period !== undefined && choice.payment_frequency !== undefined) {
    body.installments_number = 1
    body.maturity_period = Number(choice.maturity_period)
    body.payment_frequency = Number(choice.payment_frequency)
  }
  return body
}

/** Medusa's cart total (a number in the currency's main unit) as the decimal string the plugin takes. */
export function formatAmount(amount: number | string): string {
  if (typeof amount === "string") {
    return amount
  }
  return (Math.round(amount * 100) / 100).toFixed(2)
}

/** The first digits of a card number a BIN look-up needs (6 to 8), or null while fewer are typed. */
export function binOf(cardNumber: string): string | null {
  const digits = cardNumber.replace(/\D/g, "")
  return digits.length >= 6 ? digits.slice(0, 6) : null
}

export { deleteSavedCard, listSavedCards, payWithSavedCard, showBankPage } from "./saved-cards"
export type { BankPage, CardConsent, SavedCard, SavedCardPaymentResult, SavedCards } from "./saved-cards"
