import { runSweepers, type Gateway } from "./core/gateway"
import { faultProblem, type FaultKind, type FaultOperation } from "./faults"
import { json } from "./http/io"
import type { RequestContext, Route } from "./http/router"
import { canChargeBack, TRANSACTION_STATES } from "./transactions/states"

function clockBody(gateway: Gateway) {
  return { now: new Date(gateway.clock.now()).toISOString(), offset_seconds: gateway.clock.offset / 1000 }
}

/** POST chargeback {"invoice_id", "merchant_key"?}: the issuer takes a captured sale's money back (state 11). */
function chargeBack(ctx: RequestContext, gateway: Gateway) {
  const invoiceId = String(ctx.body.invoice_id ?? "")
  const merchantKey = ctx.body.merchant_key === undefined ? null : String(ctx.body.merchant_key)
  const sale = gateway.store.state.sales.find((s) => s.invoice_id === invoiceId && (merchantKey === null || s.merchant_key === merchantKey))
  if (!sale) return json({ error: `no sale with invoice_id ${JSON.stringify(invoiceId)}` }, 404)
  if (!canChargeBack(sale)) return json({ error: "only a captured, completed sale that was not charged back can be charged back" }, 409)
  sale.chargeback_at_ms = gateway.clock.now()
  sale.updated_at_ms = sale.chargeback_at_ms
  gateway.store.save()
  const state = TRANSACTION_STATES.CHARGEBACKED
  return json({ invoice_id: sale.invoice_id, order_id: sale.order_id, transaction_state_id: state.id, transaction_state_label: state.label })
}

/** The test controls under {link_base}/__sandbox/ (contracts.md), mounted only with testControls. */
export const CONTROL_ROUTES: Route[] = [
  { method: "GET", path: "/__sandbox/clock", handle: (_ctx, gateway) => json(clockBody(gateway)) },
  {
    method: "POST",
    path: "/__sandbox/clock",
    handle: (ctx, gateway) => {
      const seconds = Number(ctx.body.advance_seconds)
      if (!Number.isFinite(seconds) || seconds < 0) return json({ error: "advance_seconds must be a non-negative number" }, 400)
      gateway.clock.advance(seconds)
      gateway.store.state.clock_offset_ms = gateway.clock.offset
      gateway.store.save()
      runSweepers(gateway)
      return json(clockBody(gateway))
    },
  },
  { method: "GET", path: "/__sandbox/faults", handle: (_ctx, gateway) => json(gateway.faults.list()) },
  {
    method: "POST",
    path: "/__sandbox/faults",
    handle: (ctx, gateway) => {
      const problem = faultProblem(ctx.body)
      if (problem) return json({ error: problem }, 400)
      const { operation, kind, times, ms } = ctx.body as { operation: FaultOperation; kind: FaultKind; times?: number; ms?: number }
      return json(gateway.faults.add({ operation, kind, times, ms }))
    },
  },
  {
    method: "DELETE",
    path: "/__sandbox/faults",
    handle: (_ctx, gateway) => {
      gateway.faults.clear()
      return json({ cleared: true })
    },
  },
  { method: "GET", path: "/__sandbox/calls", handle: (_ctx, gateway) => json({ ...gateway.store.calls }) },
  {
    method: "DELETE",
    path: "/__sandbox/calls",
    handle: (_ctx, gateway) => {
      gateway.store.calls = {}
      return json({ cleared: true })
    },
  },
  { method: "POST", path: "/__sandbox/chargeback", handle: chargeBack },
  { method: "GET", path: "/__sandbox/outbox", handle: (_ctx, gateway) => json(gateway.store.state.outbox) },
  { method: "GET", path: "/__sandbox/webhooks", handle: (_ctx, gateway) => json(gateway.store.state.webhook_log) },
  { method: "GET", path: "/__sandbox/sales", handle: (_ctx, gateway) => json(gateway.store.state.sales) },
  {
    method: "POST",
    path: "/__sandbox/reset",
    handle: (_ctx, gateway) => {
      gateway.store.reset()
      gateway.clock.offset = 0
      gateway.faults.clear()
      return json({ reset: true })
    },
  },
]
