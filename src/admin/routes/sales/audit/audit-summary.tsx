import { StatusBadge, Text } from "@medusajs/ui"
import type { AuditReport } from "../../../../lib/audit/types"
import { formatAmount, formatLocalDateTime, useSipayT } from "../../../lib/i18n"

/** The day's figures (sales, refunds, chargebacks, differences, things to do), the verdict, and the money on each side per currency. */
export function AuditSummary({ report }: { report: AuditReport }) {
  const { t, locale } = useSipayT()
  const s = report.summary
  const figures: [string, number, string][] = [
    ["sales", s.sales, t("audit.summary.sales")],
    ["refunds", s.refunds, t("audit.summary.refunds")],
    ["chargebacks", s.chargebacks, t("audit.summary.chargebacks")],
    ["settling", s.settling, t("audit.summary.settling")],
    ["differences", s.differences, t("audit.summary.differences")],
    ["notices", s.notices, t("audit.summary.notices")],
  ]
  return (
    <div className="flex flex-col gap-y-3 px-6 py-4" data-testid="audit-summary">
      <div className="flex items-center gap-x-2">
        <StatusBadge color={report.agrees ? "green" : "red"} data-testid="audit-verdict">
          {report.agrees ? t("audit.summary.agrees") : t("audit.summary.disagrees")}
        </StatusBadge>
        <Text size="xsmall" className="text-ui-fg-muted">{t("audit.checkedAt", { at: formatLocalDateTime(report.checked_at, locale) })}</Text>
      </div>
      <dl className="grid grid-cols-3 gap-3 md:grid-cols-6">
        {figures.map(([name, value, label]) => (
          <div key={name} className="bg-ui-bg-subtle rounded-md px-3 py-2" data-testid={`audit-figure-${name}`}>
            <dt><Text size="xsmall" className="text-ui-fg-subtle">{label}</Text></dt>
            <dd><Text size="large" weight="plus">{value}</Text></dd>
          </div>
        ))}
      </dl>
      {s.totals.map((total) => {
        const money = (amount: string) => formatAmount(amount, total.currency_code, locale)
        return (
          <div key={total.currency_code} data-testid="audit-totals">
            <Text size="small" leading="compact">{t("audit.summary.gateway", { captured: money(total.gateway_captured), refunded: money(total.gateway_refunded), reserved: money(total.gateway_reserved) })}</Text>
            <Text size="small" leading="compact" className="text-ui-fg-subtle">{t("audit.summary.medusa", { captured: money(total.medusa_captured), refunded: money(total.medusa_refunded) })}</Text>
          </div>
        )
      })}
    </div>
  )
}
