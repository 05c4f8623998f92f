import { amountNumber } from "../core/amounts"
import { formatIstanbul } from "../core/clock"
import type { Gateway } from "../core/gateway"
import type { RecurringCharge, RecurringPlan, SaleRecord } from "../types"
import { nextChargeAt } from "./schedule"

const CURRENCY_SYMBOLS: Record<string, string> = { TRY: "₺", USD: "$", EUR: "€" }

/**
 * A charge's status in the plan's history as the live gateway publishes it: `Success` or `Failed`
 * (official OpenCart 3 v2.4.4 `catalog/controller/extension/payment/sipay.php:337-356`, PrestaShop 1.6
 * v2.4.5 `recurringwebhook.php:164-206`, WooCommerce `woo-payment-sipay.php:2491`). The recurring
 * webhook says `Completed` for the same charge.
 */
export function historyStatus(charge: RecurringCharge): "Success" | "Failed" {
  return charge.status === "Completed" ? "Success" : "Failed"
}

function saleOf(gateway: Gateway, id: number): SaleRecord | undefined {
  return gateway.store.state.sales.find((sale) => sale.id === id)
}

/**
 * The plan as recurringPlan/query and /update answer it: at the top level, beside status_code, with
 * the field names of sipay-node's RecurringQueryResponse (recurring_id, plan_code, currency, first_amount,
 * recurring_amount, total_amount, payment_number, payment_interval, payment_cycle, first_order_id,
 * merchant_id, card_no, next_action_date, recurring_status, transaction_date, transactionHistories[{id,
 * sale_recurring_id, sale_id, merchant_id, sale_recurring_payment_schedule_id, amount, action_date, status,
 * recurring_number, attempts, remarks}]). The sandbox adds invoice_id, currency_code and
 * completed_payment_number to the plan and invoice_id, order_id, currency_code to each history entry.
 */
export function recurringPlanFields(gateway: Gateway, plan: RecurringPlan, recurringNumber: number | null = null): Record<string, unknown> {
  const next = nextChargeAt(plan)
  const first = saleOf(gateway, plan.first_sale_id)
  const merchantId = gateway.merchants.byKey(plan.merchant_key)?.merchant_id ?? null
  const firstCharge = plan.charges[0]
  return {
    recurring_id: plan.id,
    plan_code: plan.plan_code,
    currency: plan.currency_code,
    currency_symbol: CURRENCY_SYMBOLS[plan.currency_code],
    first_amount: amountNumber(firstCharge?.amount_minor ?? plan.amount_minor),
    recurring_amount: amountNumber(plan.amount_minor),
    total_amount: amountNumber(plan.amount_minor * plan.payment_number),
    payment_number: plan.payment_number,
    payment_interval: plan.interval,
    payment_cycle: plan.cycle,
    first_order_id: firstCharge?.order_id ?? plan.plan_code,
    merchant_id: merchantId,
    card_no: first?.card.masked ?? "",
    next_action_date: next === null ? null : formatIstanbul(next),
    recurring_status: plan.status,
    transaction_date: formatIstanbul(plan.created_at_ms),
    invoice_id: plan.invoice_id,
    currency_code: plan.currency_code,
    completed_payment_number: plan.charges.filter((charge) => charge.status === "Completed").length,
    transactionHistories: plan.charges
      .filter((charge) => recurringNumber === null || charge.recurring_number === recurringNumber)
      .map((charge) => ({
        id: charge.sale_id,
        sale_recurring_id: plan.id,
        sale_id: charge.sale_id,
        merchant_id: merchantId,
        sale_recurring_payment_schedule_id: charge.recurring_number,
        amount: amountNumber(charge.amount_minor),
        action_date: formatIstanbul(charge.action_date_ms),
        status: historyStatus(charge),
        recurring_number: charge.recurring_number,
        attempts: charge.attempts,
        remarks: charge.status === "Completed" ? null : (saleOf(gateway, charge.sale_id)?.error || "transaction failed"),
        invoice_id: plan.invoice_id,
        order_id: charge.order_id,
        currency_code: plan.currency_code,
      })),
  }
}

/** checkstatus of a plan's payment (first payment or charge) adds the plan's fields, as the PHP SDK's mapper reads them. */
export function recurringFieldsOf(gateway: Gateway, sale: SaleRecord): Record<string, unknown> {
  if (!sale.recurring_id) return {}
  const plan = gateway.store.state.recurring_plans.find((p) => p.id === sale.recurring_id)
  if (!plan) return {}
  const next = nextChargeAt(plan)
  return {
    recurring_id: plan.id,
    recurring_plan_code: plan.plan_code,
    next_action_date: next === null ? null : formatIstanbul(next),
    recurring_status: plan.status,
  }
}
