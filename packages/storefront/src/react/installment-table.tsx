import type { InstallmentTable, Locale } from "../index"
import { formatMoney } from "../display"
import { CLASSES } from "./classes"
import { fill, MESSAGES } from "./messages"

/**
 * A product page's installment table (Turkish stores show one per card family): for each family, each
 * count as "3 x ₺111,80 = ₺335,40 (+₺10,00 vade farkı)". Fed by getInstallmentTable on the server (the
 * store computes it from the commission table; no gateway call per page view). Renders nothing without rows.
 */
export function SipayInstallmentTable(props: { table: InstallmentTable; lang?: Locale; className?: string }) {
  const t = MESSAGES[props.lang === "en" ? "en" : "tr"]
  const rows = props.table.table.filter((row) => row.options.length > 0)
  if (!rows.length) return null
  const money = (amount: string) => formatMoney(amount, props.table.currency_code, props.lang)
  return (
    <section className={props.className ?? CLASSES.form} aria-label={t.installmentTable} data-testid="sipay-installment-table">
      <h3 className={CLASSES.legend}>{t.installmentTable}</h3>
      {rows.map((row) => (
        <dl key={row.card_program} className={CLASSES.field} data-card-program={row.card_program}>
          <dt className={CLASSES.label}>{row.title}</dt>
          {row.options.map((option) => (
            <dd key={option.installments} className={CLASSES.hint}>
              {option.installments === 1
                ? `${t.single}: ${money(option.total)}`
                : `${fill(t.count, { count: option.installments })}: ${option.installments} x ${money(option.per_installment)} = ${money(option.total)}${
                    Number(option.fee) > 0 ? ` ${fill(t.feeNote, { fee: money(option.fee) })}` : ""
                  }`}
            </dd>
          ))}
        </dl>
      ))}
    </section>
  )
}
