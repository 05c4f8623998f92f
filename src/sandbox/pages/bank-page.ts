import { SMS_TEST_CODE } from "../cards"
import { formatIstanbul } from "../core/clock"
import { escapeHtml } from "../http/io"
import type { SaleRecord } from "../types"
import { money, page, type Lang } from "./layout"

const TEXT = {
  tr: {
    title: "3D Secure Doğrulama", merchant: "Üye işyeri", amount: "Tutar", card: "Kart numarası", date: "Tarih",
    installments: "Taksit", single: "Tek çekim", prompt: "Telefonunuza SMS ile gönderilen doğrulama kodunu girin.",
    code: "SMS doğrulama kodu", test: "Test ortamı: doğrulama kodu", confirm: "Onayla", cancel: "İptal", other: "English",
  },
  en: {
    title: "3D Secure Verification", merchant: "Merchant", amount: "Amount", card: "Card number", date: "Date",
    installments: "Installments", single: "Single payment", prompt: "Enter the verification code sent to your phone by SMS.",
    code: "SMS verification code", test: "Test environment: the verification code is", confirm: "Confirm", cancel: "Cancel", other: "Türkçe",
  },
}

/** The issuing bank's 3D page: asks for the SMS code (shown, it is a sandbox), posts back to action. */
export function bankPage(sale: SaleRecord, merchantName: string, action: string, lang: Lang, now: number): string {
  const t = TEXT[lang]
  const other = lang === "tr" ? "en" : "tr"
  return page(lang, t.title, `
<nav><a href="${escapeHtml(`${action}?lang=${other}`)}">${t.other}</a></nav>
<h1>${t.title}</h1>
<dl>
<dt>${t.merchant}</dt><dd id="merchant">${escapeHtml(merchantName)}</dd>
<dt>${t.amount}</dt><dd id="amount">${escapeHtml(money(sale.total_minor, sale.currency_code, lang))}</dd>
<dt>${t.card}</dt><dd id="card">${escapeHtml(sale.card.masked)}</dd>
<dt>${t.installments}</dt><dd>${sale.installments > 1 ? sale.installments : t.single}</dd>
<dt>${t.date}</dt><dd>${formatIstanbul(now)}</dd>
</dl>
<p>${t.prompt}</p>
<p class="note">${t.test} <strong id="test-code">${SMS_TEST_CODE}</strong></p>
<form method="post" action="${escapeHtml(action)}">
<input type="hidden" name="lang" value="${lang}">
<label for="sms_code">${t.code}</label>
<input id="sms_code" name="sms_code" inputmode="numeric" autocomplete="one-time-code" maxlength="6" autofocus>
<div class="buttons">
<button class="confirm" type="submit" name="action" value="confirm">${t.confirm}</button>
<button class="cancel" type="submit" name="action" value="cancel" formnovalidate>${t.cancel}</button>
</div>
</form>`)
}
