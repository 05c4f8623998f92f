import { amountNumber } from "../core/amounts"
import { formatIsoMicro, formatIstanbul } from "../core/clock"
import { CURRENCY_IDS } from "../payments/status"
import { succeeded } from "../payments/result"
import type { Merchant, RecurringPlan, SaleRecord } from "../types"
import { MERCHANT_PRICING, merchantCommissionMinor } from "./pricing"
import { transactionState } from "./states"

const DAY_MS = 24 * 3600 * 1000

export { MERCHANT_PRICING }

/** payment_source (values not shown by the interface): how the sale was made. */
export const PAYMENT_SOURCES = { PAY_3D: 1, PAY_2D: 2, PAYMENT_LINK: 3, RECURRING_CHARGE: 4 } as const

/** payment_type_id 1 'MP Credit Card' is the only type the interface shows, and the only one the sandbox takes. */
export const PAYMENT_TYPE = { id: 1, label: "MP Credit Card" } as const

/** Money taken (captured) or, when nothing was taken, the sale's total. */
export function grossMinor(sale: SaleRecord): number {
  return sale.captured_minor > 0 ? sale.captured_minor : sale.total_minor
}

function commissionMinor(sale: SaleRecord): number {
  return merchantCommissionMinor(sale.captured_minor)
}

/** Keeps the first two letters of each name, as the gateway masks a card holder's name. */
export function maskHolderName(name: string): string {
  return name.trim().split(/\s+/).map((word) => [...word].map((c, i) => (i < 2 ? c : "*")).join("")).join(" ")
}

function paymentSource(sale: SaleRecord, plan: RecurringPlan | undefined): number {
  if (plan && plan.first_sale_id !== sale.id) return PAYMENT_SOURCES.RECURRING_CHARGE
  if (sale.dpl_id) return PAYMENT_SOURCES.PAYMENT_LINK
  return sale.integration === "3D" ? PAYMENT_SOURCES.PAY_3D : PAYMENT_SOURCES.PAY_2D
}

function bankResult(sale: SaleRecord): string {
  if (sale.state === "pending" && !sale.awaiting_merchant) return "Pending"
  return succeeded(sale) ? "Approved" : sale.error || sale.status_description
}

function recurringParts(sale: SaleRecord, plan: RecurringPlan | undefined) {
  const charge = plan?.charges.find((c) => c.sale_id === sale.id)
  if (!plan || !charge) return { sale_recurring: null, sale_recurring_history: [] }
  return {
    sale_recurring: {
      id: plan.id, sale_id: sale.id, plan_code: plan.plan_code, recurring_number: charge.recurring_number,
      recurring_payment_number: plan.payment_number, recurring_payment_cycle: plan.cycle,
      recurring_payment_interval: plan.interval, recurring_amount: amountNumber(plan.amount_minor), status: plan.status,
    },
    sale_recurring_history: [{
      id: charge.recurring_number, sale_id: sale.id, recurring_number: charge.recurring_number, status: charge.status,
      attempts: charge.attempts, action_date: formatIstanbul(charge.action_date_ms),
    }],
  }
}

/** A sale as getTransactions returns it: every field and nested object of the interface's sale table. */
export function saleRecordView(sale: SaleRecord, merchant: Merchant, plan: RecurringPlan | undefined): Record<string, unknown> {
  const state = transactionState(sale)
  const userId = Number(merchant.merchant_id)
  const commission = commissionMinor(sale)
  const settlementMerchant = formatIstanbul(sale.created_at_ms + 2 * DAY_MS)
  return {
    id: sale.id,
    user_id: userId,
    merchant_id: userId,
    payment_id: sale.transaction_id,
    transaction_state_id: state.id,
    transaction_state_label: state.label,
    merchant_commission: amountNumber(commission),
    gross: amountNumber(grossMinor(sale)),
    net: amountNumber(sale.captured_minor - commission),
    payment_type_id: PAYMENT_TYPE.id,
    payment_type_label: PAYMENT_TYPE.label,
    product_price: amountNumber(sale.total_minor),
    total_refunded_amount: amountNumber(sale.refunded_minor),
    card_holder_bank: sale.card.bank,
    operator: "",
    user_name: "",
    dpl_id: sale.dpl_id,
    currency_id: CURRENCY_IDS[sale.currency_code],
    currency_code: sale.currency_code,
    invoice_id: sale.invoice_id,
    order_id: sale.order_id,
    credit_card_no: sale.card.masked,
    installment: sale.installments,
    rolling_amount: 0,
    gsm_number: sale.payer.bill_phone ?? "",
    payment_source: paymentSource(sale, plan),
    card_program: sale.card.program || null,
    card_issuer_name: sale.card.bank || null,
    result: bankResult(sale),
    settlement_date_merchant: settlementMerchant,
    settlement_date_bank: formatIstanbul(sale.created_at_ms + DAY_MS),
    created_at: formatIsoMicro(sale.created_at_ms),
    updated_at: formatIsoMicro(sale.updated_at_ms),
    recurring_id: sale.recurring_id,
    ip: sale.payer.ip ?? "",
    auth_code: sale.auth_code,
    refunded_chargeback_fee: 0,
    pos_name: "Sandbox POS",
    rolling_balance: { id: sale.id, sale_id: sale.id, effective_date: settlementMerchant },
    sale_billing: { id: sale.id, sale_id: sale.id, card_holder_name: maskHolderName(sale.card.holder_name) },
    merchant_sale: { id: sale.id, sale_id: sale.id, ...MERCHANT_PRICING },
    refund_history: sale.refunds.map((refund, index) => ({
      id: index + 1, sale_id: sale.id, amount: amountNumber(refund.amount_minor), ref_no: refund.ref_no,
      refund_transaction_id: refund.refund_transaction_id, created_at: formatIsoMicro(refund.created_at_ms),
    })),
    ...recurringParts(sale, plan),
    sale_integrator: {
      id: sale.id, sale_id: sale.id, integrator_id: 1, commission_percentage: 0, commission_fixed: 0, commission_amount: 0,
      amount: amountNumber(grossMinor(sale)), integratordata: { id: 1, integrator_name: "Sipay Sandbox", status: 1 },
    },
    userdata: { id: userId, name: merchant.name },
    merchant: { user_id: userId, name: merchant.name, mcc: "5999" },
  }
}
