import type { SaleRecord } from "../sipay/types"

/** A ledger row of one gateway sale: the columns the admin filters, sorts and sums, plus the record itself. */
export type LedgerRow = {
  sale_id: string
  day: string
  sale_created_at: string
  invoice_id: string
  gateway_order_id: string | null
  transaction_state_id: number
  transaction_state_label: string
  currency_code: string
  currency_id: number
  payment_type_id: number
  gross: string
  net: string
  merchant_commission: string
  total_refunded_amount: string
  installment: number
  dpl_id: number | null
  recurring_id: number | null
  credit_card_no: string | null
  record: SaleRecord
}

const GATEWAY_TIME = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})/

const ZONED = /(Z|[+-]\d{2}:?\d{2})$/

/**
 * A gateway time as an ISO instant: with a zone (created_at is "…T…Z") as written; without one
 * ("YYYY-MM-DD HH:mm:ss"), Istanbul time (UTC+3 all year); the day's start when absent or unreadable.
 */
export function gatewayInstant(text: unknown, day: string): string {
  const value = String(text ?? "").trim()
  if (ZONED.test(value)) {
    const zoned = Date.parse(value.replace(/(\.\d{3})\d+/, "$1"))
    if (!Number.isNaN(zoned)) return new Date(zoned).toISOString()
  }
  const found = GATEWAY_TIME.exec(value)
  return new Date(found ? `${found[1]}T${found[2]}+03:00` : `${day}T00:00:00+03:00`).toISOString()
}

function amount(value: unknown): string {
  const number = Number(value)
  return Number.isFinite(number) ? String(number) : "0"
}

function integer(value: unknown, fallback = 0): number {
  const number = Number(value)
  return Number.isInteger(number) ? number : fallback
}

function positiveOrNull(value: unknown): number | null {
  const number = Number(value)
  return Number.isInteger(number) && number > 0 ? number : null
}

/** The row of a sale of getTransactions for `day` (the day it was asked for, which is the sale's creation day). */
export function toLedgerRow(record: SaleRecord, day: string): LedgerRow | null {
  if (record === null || typeof record !== "object" || record.id === undefined || record.id === null || String(record.id) === "") {
    return null
  }
  return {
    sale_id: String(record.id),
    day,
    sale_created_at: gatewayInstant(record.created_at, day),
    invoice_id: String(record.invoice_id ?? ""),
    gateway_order_id: record.order_id === undefined || record.order_id === null ? null : String(record.order_id),
    transaction_state_id: integer(record.transaction_state_id),
    transaction_state_label: String(record.transaction_state_label ?? ""),
    currency_code: String(record.currency_code ?? ""),
    currency_id: integer(record.currency_id),
    payment_type_id: integer(record.payment_type_id),
    gross: amount(record.gross),
    net: amount(record.net),
    merchant_commission: amount(record.merchant_commission),
    total_refunded_amount: amount(record.total_refunded_amount),
    installment: integer(record.installment, 1),
    dpl_id: positiveOrNull(record.dpl_id),
    recurring_id: positiveOrNull(record.recurring_id),
    credit_card_no: record.credit_card_no ? String(record.credit_card_no) : null,
    record,
  }
}

/** What the plugin last acted on for a sale: its state and refunded total. */
export function actedOnSignature(row: { transaction_state_id: number; total_refunded_amount: string | number }): string {
  return `${row.transaction_state_id}|${Number(row.total_refunded_amount)}`
}
