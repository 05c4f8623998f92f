import { Heading, StatusBadge, Text } from "@medusajs/ui"
import { Link } from "react-router-dom"
import { findingValues } from "../../../../lib/audit/text"
import type { Finding } from "../../../../lib/audit/types"
import { formatAmount, formatIstanbul, useSipayT } from "../../../lib/i18n"

/** One finding: what it is, what happened, what to do, and links to its order and its sale. */
function FindingItem({ finding, day }: { finding: Finding; day: string }) {
  const { t, locale } = useSipayT()
  const values = findingValues(finding, { money: (amount) => formatAmount(amount, finding.currency_code, locale), time: (iso) => formatIstanbul(iso, locale) })
  const key = `audit.kinds.${finding.kind}`
  return (
    <li className="flex flex-col gap-y-1 px-6 py-4" data-testid="audit-finding" data-kind={finding.kind} data-invoice-id={finding.invoice_id}>
      <div className="flex items-center gap-x-2">
        <StatusBadge color={finding.severity === "difference" ? "red" : "orange"}>{t(`audit.severity.${finding.severity}`)}</StatusBadge>
        <Text size="small" weight="plus">{t(`${key}.title`)}</Text>
      </div>
      <Text size="small">
        {t(`${key}.detail`, values)}
        {finding.kind === "chargeback_not_recorded" && finding.recorded_order_id ? ` ${t("audit.recordedElsewhere", { order: finding.recorded_order_id })}` : null}
      </Text>
      <Text size="small" className="text-ui-fg-subtle">
        <span className="font-medium">{t("audit.labels.whatToDo")}:</span> {t(`${key}.action`, values)}
      </Text>
      <div className="flex flex-wrap gap-x-4 text-xs">
        {finding.order_id && (
          <Link to={`/orders/${finding.order_id}`} className="text-ui-fg-interactive hover:underline" data-testid="audit-order-link">
            {t("audit.order")} {finding.order_id}
          </Link>
        )}
        <Link to={`/sales?${new URLSearchParams({ date: day, invoice_id: finding.invoice_id })}`} className="text-ui-fg-interactive hover:underline font-mono" data-testid="audit-sale-link">
          {t("audit.sale")} {finding.invoice_id}
        </Link>
      </div>
    </li>
  )
}

/** The day's findings, differences first. */
export function FindingList({ findings, day, emptyText }: { findings: Finding[]; day: string; emptyText: string }) {
  const { t } = useSipayT()
  return (
    <section className="flex flex-col">
      <div className="px-6 pt-4">
        <Heading level="h2">{t("audit.findings")}</Heading>
      </div>
      {findings.length ? (
        <ul className="divide-y">{findings.map((finding) => <FindingItem key={`${finding.sale_id}-${finding.kind}-${finding.refund_id ?? ""}`} finding={finding} day={day} />)}</ul>
      ) : (
        <Text size="small" className="text-ui-fg-subtle px-6 py-4" data-testid="audit-no-findings">{emptyText}</Text>
      )}
    </section>
  )
}
