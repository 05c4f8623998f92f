import { en } from "../../i18n/en"
import { gatewayWord, installmentsText, paymentTypeText, saleStateText } from "../../lib/gateway-values"
import { formatGatewayTime, formatLocalDateTime, formatNumber, isGatewayTime, type Translate } from "../../lib/i18n"

/** Fields the record gives as an id and its label: one row each, in words. */
const PAIRS: Record<string, readonly string[]> = {
  transaction_state: ["transaction_state_id", "transaction_state_label"],
  payment_type: ["payment_type_id", "payment_type_label"],
  currency: ["currency_id", "currency_code"],
}

/** The sale's own fields in the drawer's order: what it is, its money, its card, where it came from, who. */
export const SALE_FIELD_ORDER = [
  "invoice_id", "order_id", "payment_id", "id", "transaction_state", "payment_type", "payment_source", "created_at", "updated_at",
  "currency", "product_price", "gross", "merchant_commission", "net", "total_refunded_amount", "refunded_chargeback_fee", "rolling_amount",
  "settlement_date_bank", "settlement_date_merchant",
  "credit_card_no", "card_holder_bank", "card_issuer_name", "card_program", "installment", "auth_code", "result", "pos_name",
  "dpl_id", "recurring_id", "gsm_number", "ip", "merchant_id", "user_id", "user_name", "operator",
] as const

/** The record's nested objects, in the interface's order (others the gateway adds come after them). */
export const NESTED = ["rolling_balance", "sale_billing", "merchant_sale", "refund_history", "sale_recurring", "sale_recurring_history", "sale_integrator", "userdata", "merchant"]

/** Money: two decimals in the user's locale. */
const AMOUNTS = new Set([
  "product_price", "gross", "net", "merchant_commission", "total_refunded_amount", "refunded_chargeback_fee", "rolling_amount",
  "amount", "recurring_amount", "commission_amount", "commission_fixed", "merchant_commission_fixed", "end_user_commission_fixed", "cot_fixed",
])

/** Ids where 0 means "none" (no payment link, no recurring plan). */
const ZERO_IS_NONE = new Set(["dpl_id", "recurring_id"])

export const isNested = (value: unknown): value is object => value !== null && typeof value === "object"

/** A key in words when the plugin has no label for it: "new_field_name" → "New field name". */
export function humanise(name: string): string {
  const words = name.replace(/([a-z\d])([A-Z])/g, "$1 $2").replace(/[_\-.\s]+/g, " ").trim().toLowerCase()
  return words ? words[0].toUpperCase() + words.slice(1) : name
}

export function fieldLabel(name: string, t: Translate): string {
  return Object.prototype.hasOwnProperty.call(en.sales.fields, name) ? t(`sales.fields.${name}`) : humanise(name)
}

export function nestedLabel(name: string, t: Translate): string {
  return Object.prototype.hasOwnProperty.call(en.sales.nested, name) ? t(`sales.nested.${name}`) : humanise(name)
}

/** One value as the merchant reads it: words for the gateway's words, amounts and dates in the user's locale. */
export function fieldValue(name: string, value: unknown, t: Translate, locale: string): string {
  if (value === null || value === undefined || value === "") return "-"
  if (typeof value === "boolean") return value ? t("values.yes") : t("values.no")
  if (name === "installment") return installmentsText(value as number, t)
  if (name === "recurring_payment_cycle" && ["D", "M", "Y"].includes(String(value))) return t(`values.cycles.${value}`)
  if (ZERO_IS_NONE.has(name) && Number(value) === 0) return "-"
  if (AMOUNTS.has(name) && Number.isFinite(Number(value))) return formatNumber(value as number, locale)
  if (typeof value === "number") return name.endsWith("_percentage") ? value.toLocaleString(locale) : String(value)
  const text = String(value)
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(text)) return formatLocalDateTime(text, locale)
  if (isGatewayTime(text)) return t("values.istanbul", { date: formatGatewayTime(text, locale) })
  return gatewayWord(text, t) ?? text
}

export type FieldRow = { name: string; label: string; value: string }

/** The sale's scalar fields as rows: each pair as one, the known ones in order, then any other the gateway added. */
export function saleRows(sale: Record<string, unknown>, t: Translate, locale: string): FieldRow[] {
  const used = new Set<string>(["medusa"])
  const rows: FieldRow[] = []
  for (const name of SALE_FIELD_ORDER) {
    const pair = PAIRS[name]
    if (pair) {
      pair.forEach((key) => used.add(key))
      if (pair.every((key) => sale[key] === undefined)) continue
      const value =
        name === "transaction_state"
          ? saleStateText(sale as { transaction_state_id: number; transaction_state_label: string }, t)
          : name === "payment_type"
            ? paymentTypeText(sale.payment_type_id, t)
            : String(sale.currency_code || sale.currency_id)
      rows.push({ name, label: fieldLabel(name, t), value })
    } else if (name in sale && !isNested(sale[name])) {
      used.add(name)
      rows.push({ name, label: fieldLabel(name, t), value: fieldValue(name, sale[name], t, locale) })
    }
  }
  for (const [name, value] of Object.entries(sale)) {
    if (!used.has(name) && !isNested(value)) rows.push({ name, label: fieldLabel(name, t), value: fieldValue(name, value, t, locale) })
  }
  return rows
}

/** The record's nested objects: the interface's first, then any other the gateway added. */
export function nestedNames(sale: Record<string, unknown>): string[] {
  return [...NESTED, ...Object.keys(sale).filter((name) => name !== "medusa" && !NESTED.includes(name) && isNested(sale[name]))]
}
