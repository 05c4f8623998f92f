import { defineWidgetConfig } from "@medusajs/admin-sdk"
import { Alert, Button, Container, Heading, Input, Label, StatusBadge, Text, toast } from "@medusajs/ui"
import type { AdminOrder, DetailWidgetProps } from "@medusajs/framework/types"
import { useQueryClient } from "@tanstack/react-query"
import { FormEvent, useCallback, useEffect, useState } from "react"
import type { OrderPaymentView } from "../../lib/sales-report"
import { adminRequest, AdminApiError } from "../lib/admin-api"
import { gatewayText, installmentsText } from "../lib/gateway-values"
import { formatAmount, formatLocalDate, formatLocalDateTime, useSipayT } from "../lib/i18n"

type View = OrderPaymentView & { gateway_error: string | null }

const STATUS_COLOR: Record<string, "green" | "red" | "orange" | "grey"> = { Completed: "green", Failed: "red", Pending: "orange" }
const ATTEMPT_COLOR: Record<string, "green" | "red" | "orange" | "grey" | "blue"> = {
  paid: "green", authorized: "blue", pending: "orange", failed: "red", cancelled: "grey", reversed: "grey",
}

function Row({ label, value, testId }: { label: string; value?: string | number | null; testId?: string }) {
  return (
    <div className="flex items-center justify-between gap-x-4 py-1">
      <Text size="small" leading="compact" className="text-ui-fg-subtle">{label}</Text>
      <Text size="small" leading="compact" className="font-mono text-right" data-testid={testId}>
        {value === null || value === undefined || value === "" ? "-" : String(value)}
      </Text>
    </div>
  )
}

/**
 * The provider by the flow that paid ("Sipay (3D)" / "Sipay (direct)"): Medusa 2.21.2's own payment
 * section prints the raw provider id (pp_sipay_sipay) and offers a plugin no way to name it.
 */
function providerName(view: View, t: (key: string) => string): string {
  const paying = view.attempts.find((attempt) => attempt.invoice_id === view.invoice_id) ?? view.attempts.at(-1)
  return paying?.flow === "2d" ? t("orderPayment.providerDirect") : t("orderPayment.provider3d")
}

/** Captures part (or all) of an uncaptured pre-authorization through the plugin's capture route. */
function PartialCapture({ view, onCaptured }: { view: View; onCaptured: () => Promise<void> }) {
  const { t, locale } = useSipayT()
  const [amount, setAmount] = useState(view.payment.amount)
  const [busy, setBusy] = useState(false)
  const queryClient = useQueryClient()
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    setBusy(true)
    try {
      await adminRequest(`/admin/sipay/payments/${view.payment.id}/capture`, { method: "POST", json: { amount } })
      toast.success(t("orderPayment.capturedToast", { amount: formatAmount(amount, view.payment.currency_code, locale) }))
      // The order page's own payment section reads the dashboard's cache of the order.
      await queryClient.invalidateQueries({ queryKey: ["orders"] })
      await onCaptured()
    } catch (error) {
      toast.error((error as Error).message)
    } finally {
      setBusy(false)
    }
  }
  return (
    <form onSubmit={submit} className="flex items-end gap-x-2 px-6 py-4" aria-label={t("orderPayment.captureForm")}>
      <div className="flex flex-1 flex-col gap-y-1">
        <Label htmlFor="sipay-capture-amount" size="xsmall" weight="plus">{t("orderPayment.captureAmount", { max: formatAmount(view.payment.amount, view.payment.currency_code, locale) })}</Label>
        <Input id="sipay-capture-amount" size="small" inputMode="decimal" value={amount} onChange={(e) => setAmount(e.target.value)} />
      </div>
      <Button type="submit" size="small" variant="secondary" isLoading={busy}>{t("orderPayment.capture")}</Button>
    </form>
  )
}

/** The gateway's view of the order's Sipay payment, its attempts, and a refresh from the gateway. */
const OrderSipayPaymentWidget = ({ data: order }: DetailWidgetProps<AdminOrder>) => {
  const { t, locale } = useSipayT()
  const [view, setView] = useState<View | null>(null)
  const [absent, setAbsent] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [refreshing, setRefreshing] = useState(false)
  const path = `/admin/sipay/orders/${order.id}/payment`

  useEffect(() => {
    adminRequest<{ payment: View }>(path)
      .then(({ payment }) => setView(payment))
      .catch((failure: Error) => (failure instanceof AdminApiError && failure.status === 404 ? setAbsent(true) : setError(failure.message)))
  }, [path])

  const refresh = useCallback(async () => {
    setRefreshing(true)
    try {
      setView((await adminRequest<{ payment: View }>(`${path}/refresh`, { method: "POST" })).payment)
      setError(null)
    } catch (failure) {
      setError((failure as Error).message)
    } finally {
      setRefreshing(false)
    }
  }, [path])

  if (absent) {
    return <></>
  }
  const currency = view?.payment.currency_code
  return (
    <Container className="divide-y p-0" data-testid="sipay-order-payment">
      <div className="flex items-center justify-between px-6 py-4">
        <Heading level="h2">{t("orderPayment.title")}</Heading>
        <Button size="small" variant="secondary" onClick={refresh} isLoading={refreshing} disabled={!view}>
          {t("orderPayment.refresh")}
        </Button>
      </div>
      {(error || view?.gateway_error) && (
        <div className="px-6 py-4">
          <Alert variant="error" data-testid="sipay-gateway-error">{error ?? view?.gateway_error}</Alert>
        </div>
      )}
      {!view && !error && <Text size="small" className="text-ui-fg-subtle px-6 py-4">{t("orderPayment.asking")}</Text>}
      {view && (
        <>
          <div className="px-6 py-4">
            <div className="flex flex-wrap items-center gap-2 pb-2">
              <StatusBadge color={STATUS_COLOR[view.status ?? ""] ?? "grey"} data-testid="sipay-status">{view.status ? gatewayText(view.status, t) : t("orderPayment.notAsked")}</StatusBadge>
              {view.status_reason && <Text size="small" className="text-ui-fg-subtle" data-testid="sipay-status-reason">{gatewayText(view.status_reason, t)}</Text>}
              {view.chargeback && <StatusBadge color="red" data-testid="sipay-chargeback">{t("orderPayment.chargeback")}</StatusBadge>}
            </div>
            <Row label={t("orderPayment.provider")} value={providerName(view, t)} testId="sipay-provider" />
            <Row label={t("orderPayment.invoiceId")} value={view.invoice_id} testId="sipay-invoice-id" />
            <Row label={t("orderPayment.gatewayOrderNo")} value={view.gateway_order_no} />
            <Row label={t("orderPayment.card")} value={view.masked_card} />
            <Row label={t("orderPayment.installments")} value={installmentsText(view.installments, t)} />
            <Row label={t("orderPayment.transactionType")} value={gatewayText(view.transaction_type, t)} testId="sipay-transaction-type" />
            <Row label={t("orderPayment.captured")} value={formatAmount(view.payment.captured_amount, currency, locale)} />
            <Row label={t("orderPayment.refunded")} value={formatAmount(view.refunded_amount, currency, locale)} testId="sipay-refunded" />
            {view.pre_authorization && (
              <Row
                label={t("orderPayment.captureBefore")}
                value={t("orderPayment.deadline", { date: formatLocalDate(view.pre_authorization.deadline, locale), days: view.pre_authorization.days_left, count: view.pre_authorization.days_left })}
                testId="sipay-deadline"
              />
            )}
            {(view.chargebacks ?? []).map((chargeback) => (
              <Row
                key={chargeback.id}
                label={t("orderPayment.chargeback")}
                value={t("orderPayment.chargebackSeen", { amount: formatAmount(chargeback.amount, chargeback.currency_code, locale), at: formatLocalDateTime(chargeback.detected_at, locale) })}
                testId="sipay-chargeback-record"
              />
            ))}
            <Text size="xsmall" className="text-ui-fg-muted pt-1">{t("orderPayment.checked", { at: formatLocalDateTime(view.checked_at, locale) })}</Text>
            <Text size="xsmall" className="text-ui-fg-muted" data-testid="sipay-ledger-synced">
              {view.ledger_synced_at ? t("orderPayment.ledgerSynced", { at: formatLocalDateTime(view.ledger_synced_at, locale) }) : t("orderPayment.notInLedger")}
            </Text>
          </div>
          {view.pre_authorization && <PartialCapture view={view} onCaptured={refresh} />}
          <div className="px-6 py-4" data-testid="sipay-attempts">
            <Text size="small" weight="plus" className="pb-1">{t("orderPayment.attempts")}</Text>
            {view.attempts.map((attempt) => (
              <div key={attempt.invoice_id} className="flex items-center justify-between gap-x-2 py-1" data-invoice-id={attempt.invoice_id}>
                <Text size="xsmall" leading="compact" className="font-mono">
                  #{attempt.attempt_number} {attempt.flow.toUpperCase()} · {attempt.invoice_id}
                  {attempt.error_message ? ` · ${attempt.error_message}` : ""}
                </Text>
                <StatusBadge color={ATTEMPT_COLOR[attempt.status] ?? "grey"}>{ATTEMPT_COLOR[attempt.status] ? t(`orderPayment.attemptStatus.${attempt.status}`) : attempt.status}</StatusBadge>
              </div>
            ))}
            {!view.attempts.length && <Text size="xsmall" className="text-ui-fg-muted">{t("orderPayment.noAttempts")}</Text>}
          </div>
        </>
      )}
    </Container>
  )
}

export const config = defineWidgetConfig({
  zone: "order.details.side.after",
})

export default OrderSipayPaymentWidget
