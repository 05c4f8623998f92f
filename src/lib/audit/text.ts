import { csvLines } from "../sales-report/csv"
import type { AuditReport, Finding } from "./types"
import { AUDIT_WORDS, type AuditLanguage } from "./words"

/** The audit as the merchant reads it: a finding in words, the command's text report, the CSV. Pure. */

const LOCALES: Record<AuditLanguage, string> = { en: "en-US", tr: "tr-TR" }

/** `{{name}}` replaced by its value (as the admin's i18next does). */
export function fillIn(template: string, values: Record<string, string | number | null | undefined>): string {
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) => (values[name] === undefined || values[name] === null ? whole : String(values[name])))
}

/** "1,250.50 TRY" / "1.250,50 TRY". */
export function formatMoney(amount: string | null | undefined, currency: string, language: AuditLanguage): string {
  if (amount === null || amount === undefined || amount === "") return "-"
  const number = new Intl.NumberFormat(LOCALES[language], { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(Number(amount))
  return `${number} ${currency.toUpperCase()}`
}

/** An instant as Istanbul wall time, "2026-12-16 14:05" (the gateway's clock). */
export function istanbulTime(iso: string): string {
  return new Date(new Date(iso).getTime() + 3 * 3600_000).toISOString().slice(0, 16).replace("T", " ")
}

/** The values a finding's words name ({{amount}}, {{gateway}}, ...), amounts and times written by the reader's formats. */
export function findingValues(finding: Finding, format: { money: (amount: string | null) => string; time: (iso: string) => string }) {
  return {
    amount: format.money(finding.amount),
    gateway: format.money(finding.gateway_amount),
    medusa: format.money(finding.medusa_amount),
    invoice: finding.invoice_id,
    payment_invoice: finding.payment_invoice_id ?? "-",
    deadline: finding.deadline ? format.time(finding.deadline) : "-",
    days: finding.days_left ?? "-",
  }
}

/** What a finding says: its title, what happened, what to do. */
export function describeFinding(finding: Finding, language: AuditLanguage) {
  const words = AUDIT_WORDS[language]
  const values = findingValues(finding, { money: (amount) => formatMoney(amount, finding.currency_code, language), time: istanbulTime })
  const kind = words.kinds[finding.kind]
  const elsewhere = finding.kind === "chargeback_not_recorded" && finding.recorded_order_id ? ` ${fillIn(words.recordedElsewhere, { order: finding.recorded_order_id })}` : ""
  return { title: kind.title, detail: fillIn(kind.detail, values) + elsewhere, action: fillIn(kind.action, values), severity: words.severity[finding.severity] }
}

/** The report with each finding's words (title, detail, action, severity) in the reader's language: the command's --json. */
export function reportWithWords(report: AuditReport, language: AuditLanguage) {
  return { ...report, findings: report.findings.map((finding) => ({ ...finding, words: describeFinding(finding, language) })) }
}

/** The command's report (npx sipay-audit): the day's summary, then each finding with what to do. */
export function auditText(report: AuditReport, language: AuditLanguage): string {
  const words = AUDIT_WORDS[language]
  const s = report.summary
  const out: string[] = []
  out.push(fillIn(words.summary.heading, { day: report.day, at: istanbulTime(report.checked_at) }))
  out.push(
    [
      `${words.summary.sales} ${s.sales}`,
      `${words.summary.refunds} ${s.refunds}`,
      `${words.summary.chargebacks} ${s.chargebacks}`,
      `${words.summary.settling} ${s.settling}`,
      `${words.summary.differences} ${s.differences}`,
      `${words.summary.notices} ${s.notices}`,
    ].join(" · ")
  )
  for (const total of s.totals) {
    const money = (amount: string) => formatMoney(amount, total.currency_code, language)
    out.push(
      `${total.currency_code}: ${fillIn(words.summary.gateway, { captured: money(total.gateway_captured), refunded: money(total.gateway_refunded), reserved: money(total.gateway_reserved) })} · ` +
        fillIn(words.summary.medusa, { captured: money(total.medusa_captured), refunded: money(total.medusa_refunded) })
    )
  }
  const synced = report.ledger.last_synced_at ? istanbulTime(report.ledger.last_synced_at) : "-"
  out.push(fillIn(report.ledger.pulled_now ? words.summary.pulled : words.summary.ledger, { at: synced }))
  out.push("", report.agrees ? words.summary.agrees : words.summary.disagrees)
  for (const finding of report.findings) {
    const text = describeFinding(finding, language)
    const where = [`${words.labels.invoice} ${finding.invoice_id}`, finding.order_id ? `${words.labels.order} ${finding.order_id}` : null, finding.payment_id ? `${words.labels.payment} ${finding.payment_id}` : null]
    out.push("", `${text.severity}: ${text.title}`, `  ${where.filter(Boolean).join(" · ")}`, `  ${text.detail}`, `  ${words.labels.whatToDo}: ${text.action}`)
  }
  return `${out.join("\n")}\n`
}

/** Every sale of the day, one row per finding (a sale that agrees: one row, result "agrees"), as CSV. */
export function auditCsv(report: AuditReport, language: AuditLanguage): string {
  const header = [
    "sale_created_at", "invoice_id", "gateway_order_id", "sale_kind", "order_id", "payment_id", "currency",
    "gateway_captured", "gateway_refunded", "gateway_reserved", "medusa_captured", "medusa_refunded",
    "result", "finding", "amount", "detail", "what_to_do",
  ]
  const rows: unknown[][] = []
  for (const line of report.lines) {
    const base = [
      line.created_at, line.invoice_id, line.gateway_order_id, line.sale_kind, line.order_id, line.payment_id, line.currency_code,
      line.gateway.captured, line.gateway.refunded, line.gateway.reserved, line.medusa?.captured ?? "", line.medusa?.refunded ?? "",
    ]
    const findings = report.findings.filter((finding) => finding.sale_id === line.sale_id)
    if (!findings.length) rows.push([...base, line.settling ? "settling" : "agrees", "", "", "", ""])
    for (const finding of findings) {
      const text = describeFinding(finding, language)
      // A refund the old ledger booked is on another payment (and order) than the sale's own line.
      const own = finding.kind === "old_ledger_refund" ? [...base.slice(0, 4), finding.order_id, finding.payment_id, ...base.slice(6)] : base
      rows.push([...own, finding.severity, finding.kind, finding.amount ?? "", text.detail, text.action])
    }
  }
  return `\uFEFF${csvLines([header, ...rows])}`
}
