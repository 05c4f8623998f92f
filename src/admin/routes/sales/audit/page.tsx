import { defineRouteConfig } from "@medusajs/admin-sdk"
import { Alert, Button, Container, Heading, Label, Text, toast } from "@medusajs/ui"
import { FormEvent, useEffect, useState } from "react"
import { useSearchParams } from "react-router-dom"
import type { AuditReport } from "../../../../lib/audit/types"
import { adminRequest } from "../../../lib/admin-api"
import { DayPicker } from "../../../lib/day-picker"
import { formatGatewayTime, formatLocalDateTime, useSipayT } from "../../../lib/i18n"
import { gatewayToday } from "../filters"
import { AuditSummary } from "./audit-summary"
import { FindingList } from "./finding-list"

/** The merchant's audit of one gateway day: the store's books beside the gateway's sales (GET /admin/sipay/audit). */
const AuditPage = () => {
  const { t, locale, language } = useSipayT()
  const [params, setParams] = useSearchParams()
  const day = params.get("date") || gatewayToday()
  const [draft, setDraft] = useState(day)
  const [report, setReport] = useState<AuditReport | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [loading, setLoading] = useState(false)
  const [syncing, setSyncing] = useState(false)
  const [reload, setReload] = useState(0)

  useEffect(() => setDraft(day), [day])
  useEffect(() => {
    let current = true
    setReport(null)
    setError(null)
    setLoading(true)
    adminRequest<{ audit: AuditReport }>(`/admin/sipay/audit?${new URLSearchParams({ date: day })}`)
      .then((answer) => current && setReport(answer.audit))
      .catch((failure: Error) => current && setError(failure.message))
      .finally(() => current && setLoading(false))
    return () => {
      current = false
    }
  }, [day, reload])

  const show = (event: FormEvent) => {
    event.preventDefault()
    if (draft) setParams(new URLSearchParams({ date: draft }))
  }
  // The sales ledger's "Sync now" for this day: it records what the panel and the card's bank did, then the audit is made again.
  const syncNow = async () => {
    setSyncing(true)
    try {
      await adminRequest("/admin/sipay/transactions/sync", { method: "POST", json: { date: day } })
      setReload((n) => n + 1)
    } catch (failure) {
      toast.error((failure as Error).message)
    } finally {
      setSyncing(false)
    }
  }
  const shownDay = formatGatewayTime(day, locale)

  return (
    <Container className="divide-y p-0">
      <div className="flex flex-wrap items-center justify-between gap-4 px-6 py-4">
        <div>
          <Heading level="h1">{t("audit.title")}</Heading>
          <Text size="small" className="text-ui-fg-subtle">{t("audit.subtitle")}</Text>
        </div>
        <div className="flex gap-x-2">
          <Button size="small" variant="secondary" id="audit-sync" isLoading={syncing} onClick={syncNow}>
            {t("sales.syncNow")}
          </Button>
          {report ? (
            <Button size="small" variant="secondary" id="audit-export" asChild>
              <a href={`/admin/sipay/audit/export?${new URLSearchParams({ date: day, lang: language })}`} download={`sipay-audit-${day}.csv`}>{t("audit.exportCsv")}</a>
            </Button>
          ) : (
            <Button size="small" variant="secondary" id="audit-export" disabled>
              {t("audit.exportCsv")}
            </Button>
          )}
        </div>
      </div>
      <form onSubmit={show} className="flex items-end gap-x-3 px-6 py-4">
        <div className="flex flex-col gap-y-1">
          <Label htmlFor="audit-date" size="xsmall" weight="plus">{t("audit.date")}</Label>
          <DayPicker id="audit-date" size="small" aria-label={t("audit.date")} isRequired day={draft} onDayChange={setDraft} />
        </div>
        <Button type="submit" size="small" id="audit-show">{t("audit.show")}</Button>
      </form>
      {error && (
        <div className="px-6 py-4">
          <Alert variant="error" data-testid="audit-error">{t("audit.loadError", { error })}</Alert>
        </div>
      )}
      {loading && <Text size="small" className="text-ui-fg-subtle px-6 py-4">{t("common.loading")}</Text>}
      {report && (
        <div data-testid="audit-report" data-day={report.day}>
          <AuditSummary report={report} />
          <Text size="xsmall" className="text-ui-fg-muted px-6 pb-2" data-testid="audit-ledger">
            {report.ledger.last_synced_at ? t("sales.lastSynced", { at: formatLocalDateTime(report.ledger.last_synced_at, locale) }) : t("sales.notSynced")}
          </Text>
          <FindingList findings={report.findings} day={report.day} emptyText={t("audit.noFindings", { date: shownDay })} />
        </div>
      )}
    </Container>
  )
}

export const config = defineRouteConfig({ label: "sipay.audit.menu", translationNs: "translation" })

export default AuditPage
