import { formatAmountOrNull } from "./amount"
import { integer, text } from "./results"
import type { RecurringCharge, RecurringChargeStatus, RecurringPlan } from "./types"

/**
 * The one status vocabulary of recurring charges: the recurring webhook says `Completed` / `Failed`
 * (gateway reference), the plan's published history says `Success` / `Failed` (official OpenCart,
 * PrestaShop and WooCommerce modules compare `status == 'Success'`). Any other word is unknown (null).
 */
const CHARGE_STATUS_WORDS: Record<string, RecurringChargeStatus> = {
  completed: "Completed",
  success: "Completed",
  failed: "Failed",
}

export function recurringChargeStatus(value: unknown): RecurringChargeStatus | null {
  const word = text(value)?.trim().toLowerCase()
  return word ? (CHARGE_STATUS_WORDS[word] ?? null) : null
}

const ENVELOPE_FIELDS = new Set(["status_code", "status_description", "message", "data", "transactionHistories"])

function objectOrNull(value: unknown): Record<string, any> | null {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, any>) : null
}

function toCharge(entry: Record<string, any>): RecurringCharge {
  return {
    recurringNumber: integer(entry.recurring_number),
    status: recurringChargeStatus(entry.status),
    gatewayStatus: text(entry.status),
    attempts: integer(entry.attempts),
    amount: formatAmountOrNull(entry.amount),
    orderId: text(entry.order_id ?? entry.order_no),
    actionDate: text(entry.action_date),
    saleId: text(entry.sale_id),
    remarks: text(entry.remarks),
  }
}

/**
 * recurringPlan/query's answer: the plan at the top level (as published: the official modules and
 * sipay-node read it there) or under `data` (an object, or a one-element list).
 */
export function toRecurringPlan(envelope: Record<string, any>, raw: unknown): RecurringPlan {
  const nested = Array.isArray(envelope.data) ? objectOrNull(envelope.data[0]) : objectOrNull(envelope.data)
  const topLevel = Object.fromEntries(Object.entries(envelope).filter(([name]) => !ENVELOPE_FIELDS.has(name)))
  const plan = nested ?? (Object.keys(topLevel).length > 0 ? topLevel : null)
  const histories = nested?.transactionHistories ?? envelope.transactionHistories
  const transactionHistories: Record<string, unknown>[] = Array.isArray(histories) ? histories.filter((entry) => objectOrNull(entry) !== null) : []
  return {
    plan,
    planCode: text(plan?.plan_code),
    /** The plan's first payment: its order id (first_order_id as published, order_id in older shapes) and invoice id when given. */
    firstOrderId: text(plan?.first_order_id ?? plan?.order_id),
    invoiceId: text(plan?.invoice_id),
    recurringStatus: text(plan?.recurring_status),
    nextActionDate: text(plan?.next_action_date),
    transactionHistories,
    charges: transactionHistories.map(toCharge),
    raw,
  }
}
