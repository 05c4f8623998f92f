import { formatAmount } from "../core/amounts"
import { escapeHtml } from "../http/io"
import { currencyOfId } from "../payments/status"
import type { PaymentLink } from "../types"
import { money, page } from "./layout"

function field(name: string, label: string, attributes = ""): string {
  return `<label for="${name}">${label}</label>\n<input id="${name}" name="${name}" ${attributes}>`
}

/** The payer's page of a payment link: the product, the amount (editable when the merchant allows it) and a card form. */
export function linkPaymentPage(link: PaymentLink, merchantName: string, action: string, error = "", values: Record<string, string> = {}): string {
  const value = (name: string) => `value="${escapeHtml(values[name] ?? "")}"`
  const amount = link.is_amount_set_by_user
    ? field("amount", "Tutar / Amount", `inputmode="decimal" required value="${escapeHtml(values.amount ?? formatAmount(link.amount_minor))}"`)
    : `<p>Tutar / Amount: <strong id="amount">${escapeHtml(money(link.amount_minor, currencyOfId(link.currency_id), "tr"))}</strong></p>`
  return page("tr", link.name_of_product, `
<h1 id="product">${escapeHtml(link.name_of_product)}</h1>
<p id="merchant">${escapeHtml(merchantName)}</p>
<p id="description">${escapeHtml(link.description)}</p>
<p class="note">Ürün fotoğrafı / Product photo: ${escapeHtml(link.photo.content_type)}, ${link.photo.size} bytes</p>
${error ? `<p class="error" id="error" role="alert">${escapeHtml(error)}</p>` : ""}
<form method="post" action="${escapeHtml(action)}">
${amount}
${field("cc_holder_name", "Kart sahibi / Card holder", `autocomplete="cc-name" required ${value("cc_holder_name")}`)}
${field("cc_no", "Kart numarası / Card number", `autocomplete="cc-number" inputmode="numeric" required`)}
${field("expiry_month", "Ay / Month (MM)", `autocomplete="cc-exp-month" inputmode="numeric" required`)}
${field("expiry_year", "Yıl / Year (YYYY)", `autocomplete="cc-exp-year" inputmode="numeric" required`)}
${field("cvv", "CVV", `autocomplete="cc-csc" inputmode="numeric" required`)}
${field("bill_email", "E-posta / E-mail", `type="email" ${value("bill_email")}`)}
${field("bill_phone", "Telefon / Phone", `type="tel" ${value("bill_phone")}`)}
<div class="buttons"><button class="confirm" type="submit">Öde / Pay</button></div>
</form>`)
}

/** A link that cannot be paid (unknown, expired, used up) or the outcome of a payment. */
export function linkMessagePage(title: string, message: string, id: string): string {
  return page("tr", title, `<h1>${escapeHtml(title)}</h1>\n<p id="${id}">${escapeHtml(message)}</p>`)
}
