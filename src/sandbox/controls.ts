import { runSweepers, type Gateway } from "./core/gateway"
import { faultProblem, type FaultKind, type FaultOperation } from "./faults"
import { json } from "./http/io"
import type { RequestContext, Route } from "./http/router"
import { canChargeBack, TRANSACTION_STATES } from "./transactions/states"
import { maskCard, TEST_CARDS } from "./cards"
import { newSaleIds } from "./payments/sales"
import type { Currency, Merchant, SaleRecord } from "./types"

const DAY_MS = 24 * 3600 * 1000
const SEED_MAX = 1_000_000
const SEED_CURRENCIES = ["TRY", "USD", "EUR"]

/**
 * POST seed-sales {"count", "date"?, "merchant_key"?, "amount"?, "currency"?, "invoice_prefix"?}:
 * `count` completed, captured 2D sales (published Visa test card) dated through the Istanbul day
 * `date` (default the sandbox's today), made in one pass and saved once (O(n): the data file, if
 * any, is written once, not per sale). For volume tests and the bench; no webhooks are sent.
 */
function seedSales(ctx: RequestContext, gateway: Gateway) {
  const count = Number(ctx.body.count)
  if (!Number.isInteger(count) || count < 1 || count > SEED_MAX) return json({ error: `count must be an integer from 1 to ${SEED_MAX}` }, 400)
  const date = ctx.body.date === undefined ? new Date(gateway.clock.now() + 3 * 3600 * 1000).toISOString().slice(0, 10) : String(ctx.body.date)
  const dayStart = Date.parse(`${date}T00:00:00+03:00`)
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || Number.isNaN(dayStart)) return json({ error: "date must be YYYY-MM-DD" }, 400)
  const merchant = ctx.body.merchant_key === undefined ? gateway.merchants.all[0] : gateway.merchants.byKey(String(ctx.body.merchant_key))
  if (!merchant) return json({ error: "unknown merchant_key" }, 404)
  const amount = ctx.body.amount === undefined ? 149.9 : Number(ctx.body.amount)
  if (!Number.isFinite(amount) || amount <= 0) return json({ error: "amount must be a positive number" }, 400)
  const currency = String(ctx.body.currency ?? "TRY")
  if (!SEED_CURRENCIES.includes(currency)) return json({ error: `currency must be one of ${SEED_CURRENCIES.join(", ")}` }, 400)
  const prefix = String(ctx.body.invoice_prefix ?? `seed_${date.replace(/-/g, "")}_${gateway.store.nextId("seed_batch")}`)
  const card = TEST_CARDS[0]
  const totalMinor = Math.round(amount * 100)
  const sales = gateway.store.state.sales
  for (let index = 0; index < count; index++) {
    const at = dayStart + Math.floor((index * DAY_MS) / count)
    const sale: SaleRecord = {
      ...newSaleIds(gateway, at),
      merchant_key: merchant.merchant_key,
      invoice_id: `${prefix}_${index + 1}`,
      invoice_description: "Seeded sale",
      integration: "2D",
      state: "completed",
      transaction_type: "Auth",
      currency_code: currency as Currency,
      installments: 1,
      total_minor: totalMinor,
      captured_minor: totalMinor,
      refunded_minor: 0,
      refunds: [],
      preauth: null,
      awaiting_merchant: false,
      payment_completed_by: "app",
      status_code: 100,
      status_description: "Payment process successful",
      error: "",
      md_status: "",
      auth_code: String(100000 + (index % 900000)),
      reason: "",
      card: { masked: maskCard(card.number), bin: card.number.slice(0, 6), last4: card.number.slice(-4), holder_name: "Ayşe Yılmaz", outcome: card.outcome, scheme: card.scheme, program: card.program, card_type: card.card_type, bank: card.bank },
      items: [{ name: "Seeded item", price_minor: totalMinor, quantity: 1, description: "" }],
      payer: {},
      return_url: "",
      cancel_url: "",
      response_method: "POST",
      sale_webhook_key: "",
      recurring: null,
      agricultural: null,
      bank_session: null,
      lang: "tr",
      dpl_id: 0,
      recurring_id: 0,
      created_at_ms: at,
      updated_at_ms: at,
    }
    sales.push(sale)
  }
  gateway.store.save()
  return json({ seeded: count, date, invoice_prefix: prefix, first_invoice_id: `${prefix}_1`, last_invoice_id: `${prefix}_${count}` })
}

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

/** Every `merchant_key` held in the state (sales, tokens, plans, stored cards, links) moved from one key to another. */
function moveMerchantKey(node: unknown, from: string, to: string): void {
  if (Array.isArray(node)) {
    for (const entry of node) moveMerchantKey(entry, from, to)
  } else if (node && typeof node === "object") {
    const record = node as Record<string, unknown>
    for (const [key, value] of Object.entries(record)) {
      if (key === "merchant_key" && value === from) record[key] = to
      else if (value && typeof value === "object") moveMerchantKey(value, from, to)
    }
  }
}

/**
 * POST merchant {"merchant_key"?, "new_merchant_key"?, "is_3d"?, "sale_webhooks"?, "recurring_webhooks"?}:
 * what a merchant changes on the merchant panel, applied to the merchant of `merchant_key` (default the
 * first): a regenerated merchant key (a store still sending the old one gets 14 "Merchant not found"),
 * the 2D/3D permission, the webhook keys. Answers the merchant as it now is.
 */
function changeMerchant(ctx: RequestContext, gateway: Gateway) {
  const merchant = ctx.body.merchant_key === undefined ? gateway.merchants.all[0] : gateway.merchants.byKey(String(ctx.body.merchant_key))
  if (!merchant) return json({ error: "unknown merchant_key" }, 404)
  const { new_merchant_key: newKey, is_3d: is3d, sale_webhooks: saleWebhooks, recurring_webhooks: recurringWebhooks } = ctx.body as Record<string, unknown>
  if (newKey !== undefined && (typeof newKey !== "string" || newKey === "" || (newKey !== merchant.merchant_key && gateway.merchants.byKey(newKey)))) {
    return json({ error: "new_merchant_key must be a non-empty key no other merchant has" }, 400)
  }
  if (is3d !== undefined && ![0, 1, 2, 4].includes(Number(is3d))) return json({ error: "is_3d must be 0, 1, 2 or 4" }, 400)
  for (const [name, map] of [["sale_webhooks", saleWebhooks], ["recurring_webhooks", recurringWebhooks]] as const) {
    if (map !== undefined && (!map || typeof map !== "object" || Array.isArray(map) || !Object.values(map).every((url) => typeof url === "string"))) {
      return json({ error: `${name} must map keys to URLs` }, 400)
    }
  }
  if (typeof newKey === "string" && newKey !== merchant.merchant_key) {
    moveMerchantKey(gateway.store.state, merchant.merchant_key, newKey)
    merchant.merchant_key = newKey
  }
  if (is3d !== undefined) merchant.is_3d = Number(is3d) as Merchant["is_3d"]
  if (saleWebhooks !== undefined) merchant.sale_webhooks = { ...(saleWebhooks as Record<string, string>) }
  if (recurringWebhooks !== undefined) merchant.recurring_webhooks = { ...(recurringWebhooks as Record<string, string>) }
  gateway.store.save()
  return json({ merchant_id: merchant.merchant_id, merchant_key: merchant.merchant_key, is_3d: merchant.is_3d, sale_webhooks: merchant.sale_webhooks, recurring_webhooks: merchant.recurring_webhooks })
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
  { method: "POST", path: "/__sandbox/merchant", handle: changeMerchant },
  { method: "POST", path: "/__sandbox/seed-sales", handle: seedSales },
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
