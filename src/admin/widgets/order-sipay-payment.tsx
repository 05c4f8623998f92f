import { defineWidgetConfig } from "@medusajs/admin-sdk"
import { Alert, Button, Container, Heading, Input, Label, StatusBadge, Text, toast } from "@medusajs/ui"
import type { AdminOrder, DetailWidgetProps } from "@medusajs/framework/types"
import { useQueryClient } from "@tanstack/react-query"
import { FormEvent, useCallback, useEffect, useState } from "react"
import type { OrderPaymentView } from "../../lib/sales-report"
import { adminRequest, AdminApiError, formatMoney } from "../lib/admin-api"

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

/** Captures part (or all) of an uncaptured pre-authorization through the plugin's capture route. */
function PartialCapture({ view, onCaptured }: { view: View; onCaptured: () => Promise<void> }) {
  const [amount, setAmount] = useState(view.payment.amount)
  const [busy, setBusy] = useState(false)
  const queryClient = useQueryClient()
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    setBusy(true)
    try {
      await adminRequest(`/admin/sipay/payments/${view.payment.id}/capture`, { method: "POST", json: { amount } })
      toast.success(`Captured ${formatMoney(amount, view.payment.currency_code)}`)
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
    <form onSubmit={submit} className="flex items-end gap-x-2 px-6 py-4" aria-label="Capture the pre-authorization">
      <div className="flex flex-1 flex-col gap-y-1">
        <Label htmlFor="sipay-capture-amount" size="xsmall" weight="plus">Capture amount (at most {formatMoney(view.payment.amount, view.payment.currency_code)})</Label>
        <Input id="sipay-capture-amount" size="small" inputMode="decimal" value={amount} onChange={(e) => setAmount(e.target.value)} />
      </div>
      <Button type="submit" size="small" variant="secondary" isLoading={busy}>Capture</Button>
    </form>
  )
}

/** The gateway's view of the order's Sipay payment, its attempts, and a refresh from the gateway. */
const OrderSipayPaymentWidget = ({ data: order }: DetailWidgetProps<AdminOrder>) => {
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
        <Heading level="h2">Sipay payment</Heading>
        <Button size="small" variant="secondary" onClick={refresh} isLoading={refreshing} disabled={!view}>
          Refresh from gateway
        </Button>
      </div>
      {(error || view?.gateway_error) && (
        <div className="px-6 py-4">
          <Alert variant="error" data-testid="sipay-gateway-error">{error ?? view?.gateway_error}</Alert>
        </div>
      )}
      {!view && !error && <Text size="small" className="text-ui-fg-subtle px-6 py-4">Asking the gateway…</Text>}
      {view && (
        <>
          <div className="px-6 py-4">
            <div className="flex flex-wrap items-center gap-2 pb-2">
              <StatusBadge color={STATUS_COLOR[view.status ?? ""] ?? "grey"} data-testid="sipay-status">{view.status ?? "Not asked"}</StatusBadge>
              {view.status_reason && <Text size="small" className="text-ui-fg-subtle">{view.status_reason}</Text>}
              {view.chargeback && <StatusBadge color="red" data-testid="sipay-chargeback">Chargeback</StatusBadge>}
            </div>
            <Row label="Invoice id" value={view.invoice_id} testId="sipay-invoice-id" />
            <Row label="Gateway order no" value={view.gateway_order_no} />
            <Row label="Card" value={view.masked_card} />
            <Row label="Installments" value={view.installments} />
            <Row label="Transaction type" value={view.transaction_type} testId="sipay-transaction-type" />
            <Row label="Captured" value={formatMoney(view.payment.captured_amount, currency)} />
            <Row label="Refunded" value={formatMoney(view.refunded_amount, currency)} />
            {view.pre_authorization && (
              <Row
                label="Capture before"
                value={`${new Date(view.pre_authorization.deadline).toLocaleDateString()} (${view.pre_authorization.days_left} day${view.pre_authorization.days_left === 1 ? "" : "s"} left)`}
                testId="sipay-deadline"
              />
            )}
            {(view.chargebacks ?? []).map((chargeback) => (
              <Row
                key={chargeback.id}
                label="Chargeback"
                value={`${formatMoney(chargeback.amount, chargeback.currency_code)} · seen ${new Date(chargeback.detected_at).toLocaleString()}`}
                testId="sipay-chargeback-record"
              />
            ))}
            <Text size="xsmall" className="text-ui-fg-muted pt-1">Gateway checked {new Date(view.checked_at).toLocaleString()}</Text>
            <Text size="xsmall" className="text-ui-fg-muted" data-testid="sipay-ledger-synced">
              {view.ledger_synced_at ? `Sale from the ledger, synced ${new Date(view.ledger_synced_at).toLocaleString()}` : "Sale not in the ledger yet (Refresh from gateway asks now)"}
            </Text>
          </div>
          {view.pre_authorization && <PartialCapture view={view} onCaptured={refresh} />}
          <div className="px-6 py-4" data-testid="sipay-attempts">
            <Text size="small" weight="plus" className="pb-1">Attempts of the session</Text>
            {view.attempts.map((attempt) => (
              <div key={attempt.invoice_id} className="flex items-center justify-between gap-x-2 py-1" data-invoice-id={attempt.invoice_id}>
                <Text size="xsmall" leading="compact" className="font-mono">
                  #{attempt.attempt_number} {attempt.flow.toUpperCase()} · {attempt.invoice_id}
                  {attempt.error_message ? ` · ${attempt.error_message}` : ""}
                </Text>
                <StatusBadge color={ATTEMPT_COLOR[attempt.status] ?? "grey"}>{attempt.status}</StatusBadge>
              </div>
            ))}
            {!view.attempts.length && <Text size="xsmall" className="text-ui-fg-muted">No attempts recorded</Text>}
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
