import { formatAmount } from "../core/amounts"
import { formatIstanbul } from "../core/clock"
import type { Gateway } from "../core/gateway"
import { newAuthCode, newSaleIds } from "../payments/sales"
import type { RecurringPlan, SaleRecord } from "../types"
import { CODES } from "../core/codes"
import { CHARGE_TRIES, nextChargeAt, retryDue } from "./schedule"

/** A first payment of order_type 1 whose money was taken (a pre-authorization once completed) and whose plan is not opened yet. */
function awaitsPlan(sale: SaleRecord): boolean {
  return sale.recurring !== null && sale.recurring_id === 0 && sale.state === "completed" && sale.captured_minor > 0
}

/** Opens the plan of a completed recurring payment; that payment is charge 1. plan_code = its order_no. */
function openPlan(gateway: Gateway, sale: SaleRecord): RecurringPlan {
  const request = sale.recurring!
  const anchor = sale.updated_at_ms
  const plan: RecurringPlan = {
    id: gateway.store.nextId("recurring_plan", 1),
    plan_code: sale.order_id,
    merchant_key: sale.merchant_key,
    invoice_id: sale.invoice_id,
    first_sale_id: sale.id,
    currency_code: sale.currency_code,
    amount_minor: sale.total_minor,
    cycle: request.cycle,
    interval: request.interval,
    payment_number: request.payment_number,
    webhook_key: request.webhook_key,
    status: request.payment_number > 1 ? "Active" : "Completed",
    anchor_ms: anchor,
    charges: [{ recurring_number: 1, sale_id: sale.id, order_id: sale.order_id, amount_minor: sale.total_minor, status: "Completed", attempts: 1, action_date_ms: anchor }],
    created_at_ms: anchor,
    updated_at_ms: anchor,
  }
  sale.recurring_id = plan.id
  gateway.store.state.recurring_plans.push(plan)
  return plan
}

/** Whether the card takes this try of a later charge (cards.ts `laterCharges`). */
function approves(first: SaleRecord, attempt: number): boolean {
  if (first.card.later_charges === "decline_always") return false
  if (first.card.later_charges === "decline_once") return attempt > 1
  return true
}

/**
 * One try of a later charge, dated when it was due: an Auth sale on the first payment's card,
 * completed or declined. A declined charge is tried again a day later, up to CHARGE_TRIES tries;
 * after the last one the plan stops.
 */
function chargePlan(gateway: Gateway, plan: RecurringPlan, dueAt: number): void {
  const first = gateway.store.state.sales.find((sale) => sale.id === plan.first_sale_id)!
  const retry = retryDue(plan)
  const attempt = retry ? retry.attempts + 1 : 1
  const approved = approves(first, attempt)
  const sale: SaleRecord = {
    ...structuredClone(first),
    ...newSaleIds(gateway, dueAt),
    integration: "2D",
    state: approved ? "completed" : "failed",
    transaction_type: "Auth",
    installments: 1,
    total_minor: plan.amount_minor,
    captured_minor: approved ? plan.amount_minor : 0,
    refunded_minor: 0,
    refunds: [],
    preauth: null,
    awaiting_merchant: false,
    status_code: approved ? CODES.SUCCESS : CODES.TRANSACTION_FAILED,
    status_description: approved ? "Payment process successful" : "transaction failed",
    error: approved ? "" : "Insufficient funds",
    md_status: "",
    auth_code: approved ? newAuthCode() : "",
    reason: approved ? "" : "Insufficient funds",
    items: [{ name: first.invoice_description || "Recurring payment", price_minor: plan.amount_minor, quantity: 1, description: "" }],
    sale_webhook_key: "",
    recurring: null,
    bank_session: null,
    dpl_id: 0,
    recurring_id: plan.id,
    chargeback_at_ms: null,
    created_at_ms: dueAt,
    updated_at_ms: dueAt,
  }
  gateway.store.state.sales.push(sale)
  const tried = { sale_id: sale.id, order_id: sale.order_id, amount_minor: plan.amount_minor, status: approved ? ("Completed" as const) : ("Failed" as const), attempts: attempt, action_date_ms: dueAt }
  const charge = retry ? Object.assign(retry, tried) : { recurring_number: plan.charges.length + 1, ...tried }
  if (!retry) plan.charges.push(charge)
  plan.updated_at_ms = dueAt
  if (!approved && attempt >= CHARGE_TRIES) plan.status = "Stopped"
  else if (approved && plan.charges.length >= plan.payment_number) plan.status = "Completed"
  sendRecurringWebhook(gateway, plan, charge)
}

/** The reference's recurring webhook: form-encoded, no hash (the merchant checks merchant_key and queries the plan). */
function sendRecurringWebhook(gateway: Gateway, plan: RecurringPlan, charge: RecurringPlan["charges"][number]): void {
  const url = gateway.merchants.byKey(plan.merchant_key)?.recurring_webhooks[plan.webhook_key]
  if (!url) return
  gateway.webhooks.send({
    kind: "recurring",
    url,
    key: plan.webhook_key,
    operation: "recurring_webhook",
    body: {
      merchant_key: plan.merchant_key,
      invoice_id: plan.invoice_id,
      order_id: charge.order_id,
      product_price: formatAmount(charge.amount_minor),
      plan_code: plan.plan_code,
      recurring_number: String(charge.recurring_number),
      status: charge.status,
      attempts: String(charge.attempts),
      action_date: formatIstanbul(charge.action_date_ms),
    },
  })
}

/** Sweeper: opens plans of completed recurring payments, then makes every charge whose date the clock has passed, once each. */
export function chargeRecurringPlans(gateway: Gateway, now: number): boolean {
  let changed = false
  for (const sale of gateway.store.state.sales.filter(awaitsPlan)) {
    openPlan(gateway, sale)
    changed = true
  }
  for (const plan of gateway.store.state.recurring_plans) {
    for (let due = nextChargeAt(plan); due !== null && due <= now; due = nextChargeAt(plan)) {
      chargePlan(gateway, plan, due)
      changed = true
    }
  }
  return changed
}
