import { escapeHtml, jsonForScript, safeLinkUrl } from "./escape"
import { assertNonce } from "./headers"
import { fillTemplate, HostedPageLocale, MESSAGES, NUMBER_LOCALE } from "./messages"
import { HOSTED_PAGE_SCRIPT } from "./script"
import { PLAN_WORDS, recurringPlanText } from "../shopper-messages/plan"
import { HOSTED_PAGE_CSS } from "./styles"

export type HostedPageCurrency = "TRY" | "USD" | "EUR"

export type HostedPageInput = {
  sessionId: string
  /** Decimal string, e.g. "1249.90"; never a float. */
  amount: string
  currencyCode: HostedPageCurrency
  locale: HostedPageLocale
  storeName: string
  /** The payment institution's name (the store's `brand`, docs/configuration.md "Brands"), shown beside the secure note. */
  gatewayName?: string
  /** Same origin as the page: POST `{ token, installments_number, ... }`, answers `{ action, fields }` or `{ message }`. */
  signUrl: string
  /** Same origin as the page: POST `{ token, bin }`, answers `{ installments, agricultural? }`. */
  installmentsUrl: string
  cancelUrl?: string | null
  maxInstallments: number
  /** A recurring product's plan: shown instead of the installment choice (there is none). */
  recurringPlan?: { payment_number: number; cycle: "D" | "M" | "Y"; interval: number } | null
}

/** What the card page's script runs with (the messages come with the page's shell). */
export type HostedPageConfig = {
  sessionId: string
  amount: string
  currencyCode: HostedPageCurrency
  locale: HostedPageLocale
  numberLocale: string
  signUrl: string
  installmentsUrl: string
  maxInstallments: number
}

/**
 * The session's part of the page, which its script asks for with the token (POST, never in an
 * address): the document's title, the markup of its `.page` element (every value escaped) and, for
 * the card form, the script's settings.
 */
export type HostedPageContent = { title: string; html: string; config?: HostedPageConfig }

/** The page's shell: the same for every session (nothing of one), opened at the address the store API gives out. */
export type HostedPageShellInput = {
  locale: HostedPageLocale
  nonce: string
  /** Same origin as the page: POST `{ token, lang }`, answers HostedPageContent (404 without a valid token). */
  contentUrl: string
}

const CURRENCIES: HostedPageCurrency[] = ["TRY", "USD", "EUR"]

/** The amount for people, from the decimal string itself (Intl formats decimal strings exactly). */
export function formatAmount(amount: string, currencyCode: HostedPageCurrency, locale: HostedPageLocale): string {
  const format = new Intl.NumberFormat(NUMBER_LOCALE[locale], { style: "currency", currency: currencyCode })
  return (format.format as unknown as (value: string) => string)(amount)
}

function checkInput(input: HostedPageInput): void {
  if (!/^\d+(\.\d+)?$/.test(input.amount)) {
    throw new Error(`hosted page: amount must be a decimal string, got ${JSON.stringify(input.amount)}`)
  }
  if (!CURRENCIES.includes(input.currencyCode)) {
    throw new Error(`hosted page: unsupported currency ${JSON.stringify(input.currencyCode)}`)
  }
  if (!(input.locale in MESSAGES)) {
    throw new Error(`hosted page: unsupported locale ${JSON.stringify(input.locale)}`)
  }
}

function cardField(id: string, label: string, attributes: string, describedBy: string[], extra = ""): string {
  return `<div class="field">
<label for="${id}">${escapeHtml(label)}</label>
<input type="text" id="${id}" name="${id}" ${attributes} aria-describedby="${describedBy.join(" ")}">
${extra}</div>`
}

/** The card form of a session's page. Every interpolated value is escaped. */
export function renderHostedPageContent(input: HostedPageInput): HostedPageContent {
  checkInput(input)
  const t = MESSAGES[input.locale]
  const other: HostedPageLocale = input.locale === "tr" ? "en" : "tr"
  const amount = formatAmount(input.amount, input.currencyCode, input.locale)
  const payLabel = fillTemplate(t.pay, { amount })
  const cancelUrl = safeLinkUrl(input.cancelUrl)
  const plan = input.recurringPlan ?? null
  // A recurring payment is never split into installments: the page offers none and asks for none.
  const maxInstallments = plan ? 1 : Math.max(1, Math.floor(Number(input.maxInstallments) || 1))
  const config: HostedPageConfig = {
    sessionId: input.sessionId,
    amount: input.amount,
    currencyCode: input.currencyCode,
    locale: input.locale,
    numberLocale: NUMBER_LOCALE[input.locale],
    signUrl: input.signUrl,
    installmentsUrl: input.installmentsUrl,
    maxInstallments,
  }
  const error = (key: string) => `<p id="${key}-error" class="error" hidden></p>`

  // The language link keeps the page's token: the script adds the address's fragment to it.
  const html = `<header class="topbar">
<p class="store">${escapeHtml(input.storeName)}</p>
<a id="switch-language" href="?lang=${other}" hreflang="${other}" lang="${other}">${escapeHtml(t.switchLanguage)}</a>
</header>
<main class="panel">
<h1>${escapeHtml(t.pageTitle)}</h1>
<p class="amount">${escapeHtml(t.amountLabel)} <strong>${escapeHtml(amount)}</strong></p>
<form id="card-form" method="post" novalidate>
<div id="form-status" class="status" role="alert" aria-live="assertive"></div>
${cardField("cc_holder_name", t.holderLabel, `autocomplete="cc-name" maxlength="100" autocapitalize="characters" spellcheck="false"`, ["cc_holder_name-error"], error("cc_holder_name"))}
${cardField("cc_no", t.numberLabel, `autocomplete="cc-number" inputmode="numeric" maxlength="23" spellcheck="false"`, ["cc_no-error"], error("cc_no"))}
<fieldset>
<legend>${escapeHtml(t.expiryLegend)}</legend>
<div class="row">
${cardField("expiry_month", t.monthLabel, `autocomplete="cc-exp-month" inputmode="numeric" maxlength="2"`, ["expiry-error"])}
${cardField("expiry_year", t.yearLabel, `autocomplete="cc-exp-year" inputmode="numeric" maxlength="4"`, ["expiry-error"])}
</div>
${error("expiry")}
</fieldset>
${cardField("cvv", t.cvvLabel, `autocomplete="cc-csc" inputmode="numeric" maxlength="4"`, ["cvv-hint", "cvv-error"], `<p id="cvv-hint" class="hint">${escapeHtml(t.cvvHint)}</p>\n${error("cvv")}`)}
${plan ? `<section id="recurring-plan" class="plan">
<h2>${escapeHtml(PLAN_WORDS[input.locale].title)}</h2>
<p id="plan-text"><strong>${escapeHtml(recurringPlanText(plan, amount, input.locale))}</strong></p>
<p class="hint">${escapeHtml(PLAN_WORDS[input.locale].noInstallments)}</p>
</section>` : ""}
<fieldset id="installments"${plan ? " hidden" : ""}>
<legend>${escapeHtml(t.installmentsLegend)}</legend>
<div id="installment-options">
<div class="choice"><input type="radio" name="installment" id="installment-1" value="1" form="installment-choices" checked>
<label for="installment-1">${escapeHtml(t.singlePayment)}<span class="detail">${escapeHtml(amount)}</span></label></div>
</div>
<div id="agricultural-options" class="agricultural" hidden>
<div class="field"><label for="maturity_period">${escapeHtml(t.maturityLabel)}</label><select id="maturity_period" form="installment-choices"></select></div>
<div class="field"><label for="payment_frequency">${escapeHtml(t.frequencyLabel)}</label><select id="payment_frequency" form="installment-choices"></select></div>
</div>
<p id="installments-status" class="hint" role="status" aria-live="polite">${escapeHtml(maxInstallments > 1 ? t.installmentsHint : t.installmentsNone)}</p>
</fieldset>
<div id="signed-fields" hidden></div>
<button type="submit" id="pay-button" disabled>${escapeHtml(payLabel)}</button>
</form>
<form id="installment-choices" hidden></form>
<p class="secure">${escapeHtml(t.secureNote)}</p>
${input.gatewayName ? `<p class="gateway" id="gateway-name">${escapeHtml(t.gatewayLabel)}: ${escapeHtml(input.gatewayName)}</p>` : ""}
${cancelUrl ? `<a id="cancel-link" class="cancel" href="${escapeHtml(cancelUrl)}">${escapeHtml(t.cancel)}</a>` : ""}
</main>`
  return { title: `${t.pageTitle} · ${input.storeName}`, html, config }
}

export type PaidPageInput = Pick<HostedPageInput, "amount" | "currencyCode" | "locale" | "storeName"> & {
  /** Where the shopper goes on: the store's page of the order (its success URL), else the store. */
  next?: { kind: "order" | "store"; url: string } | null
}

/** The document's start up to </head>; `nonce` already escaped. */
function documentHead(input: { locale: string; title: string; nonce: string }): string {
  return `<!doctype html>
<html lang="${input.locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<meta name="referrer" content="no-referrer">
<meta name="format-detection" content="telephone=no">
<title>${escapeHtml(input.title)}</title>
<style nonce="${input.nonce}">${HOSTED_PAGE_CSS}</style>
</head>`
}

/**
 * The page a shopper's browser opens, the same for every session: it shows that the page is loading,
 * and its script reads the token from the address's fragment (which no request carries, so no server
 * or proxy logs it), asks for the session's content with it (POST) and runs the card form.
 */
export function renderHostedPageShell(input: HostedPageShellInput): string {
  assertNonce(input.nonce)
  if (!(input.locale in MESSAGES)) {
    throw new Error(`hosted page: unsupported locale ${JSON.stringify(input.locale)}`)
  }
  const t = MESSAGES[input.locale]
  const nonce = escapeHtml(input.nonce)
  const shell = { contentUrl: input.contentUrl, locale: input.locale, messages: t }
  return `${documentHead({ locale: input.locale, title: t.pageTitle, nonce })}
<body>
<div class="page" id="sipay-page">
<main class="panel" aria-busy="true">
<p id="page-status" role="status">${escapeHtml(t.loading)}</p>
<noscript><p class="error">${escapeHtml(t.noScript)}</p></noscript>
</main>
</div>
<script type="application/json" id="sipay-shell">${jsonForScript(shell)}</script>
<script nonce="${nonce}">${HOSTED_PAGE_SCRIPT}</script>
</body>
</html>
`
}

/** The content of a session already paid: that it is paid, no card form, and the way back to the store. */
export function renderPaidPageContent(input: PaidPageInput): HostedPageContent {
  const t = MESSAGES[input.locale]
  const amount = formatAmount(input.amount, input.currencyCode, input.locale)
  const nextUrl = safeLinkUrl(input.next?.url)
  const nextLink = nextUrl
    ? `<a id="paid-next" class="cancel" href="${escapeHtml(nextUrl)}">${escapeHtml(input.next!.kind === "order" ? t.paidOrderLink : t.paidStoreLink)}</a>`
    : ""
  const html = `<header class="topbar"><p class="store">${escapeHtml(input.storeName)}</p></header>
<main class="panel">
<h1 id="paid">${escapeHtml(t.paidTitle)}</h1>
<p class="amount">${escapeHtml(t.amountLabel)} <strong>${escapeHtml(amount)}</strong></p>
<p role="status">${escapeHtml(t.paidBody)}</p>
${nextLink}
</main>`
  return { title: `${t.paidTitle} · ${input.storeName}`, html }
}
