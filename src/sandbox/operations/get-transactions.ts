import { parseAmount } from "../core/amounts"
import { formatIstanbul, isCalendarDate } from "../core/clock"
import { CODES, fail, optionalField, requireField } from "../core/codes"
import type { Gateway } from "../core/gateway"
import { requireRequestHash } from "../core/request-hash"
import { envelope, type Reply } from "../http/io"
import type { RequestContext } from "../http/router"
import { grossMinor, saleRecordView, PAYMENT_TYPE } from "../transactions/sale-view"
import { transactionState } from "../transactions/states"
import { CURRENCY_IDS } from "../payments/status"
import type { SaleRecord } from "../types"
import { requestMerchant } from "./merchant-request"

/** The signed filters, in the interface's hash order. */
const FILTERS = ["date", "invoiceid", "currency_id", "paymentmethodid", "minamount", "maxamount", "transactionState"] as const

function integerFilter(values: Record<string, string>, field: string): number | null {
  const text = values[field]
  if (text === "") return null
  if (!/^\d+$/.test(text)) fail(CODES.VALIDATION, `The ${field} must be an integer.`)
  return Number(text)
}

function amountFilter(values: Record<string, string>, field: string): number | null {
  if (values[field] === "") return null
  const minor = parseAmount(values[field])
  if (minor === null) fail(CODES.VALIDATION, `The ${field} must be a non-negative number.`)
  return minor
}

function jsonHeader(ctx: RequestContext, header: "accept" | "content-type", name: string): void {
  if (!String(ctx.req.headers[header] ?? "").toLowerCase().includes("application/json")) {
    fail(CODES.VALIDATION, `The ${name} header must be application/json.`)
  }
}

/** A predicate per filter; unused filters (empty or null) match everything. */
function saleFilter(values: Record<string, string>): (sale: SaleRecord) => boolean {
  const currencyId = integerFilter(values, "currency_id")
  const paymentMethodId = integerFilter(values, "paymentmethodid")
  const stateId = integerFilter(values, "transactionState")
  const min = amountFilter(values, "minamount")
  const max = amountFilter(values, "maxamount")
  return (sale) =>
    formatIstanbul(sale.created_at_ms).slice(0, 10) === values.date &&
    (values.invoiceid === "" || sale.invoice_id === values.invoiceid) &&
    (currencyId === null || CURRENCY_IDS[sale.currency_code] === currencyId) &&
    (paymentMethodId === null || paymentMethodId === PAYMENT_TYPE.id) &&
    (stateId === null || transactionState(sale).id === stateId) &&
    (min === null || grossMinor(sale) >= min) &&
    (max === null || grossMinor(sale) <= max)
}

/** POST /api/getTransactions: the merchant's sales of a day (Istanbul), filtered; hash keyed with the merchant_key. */
export function getTransactions(ctx: RequestContext, gateway: Gateway): Reply {
  jsonHeader(ctx, "accept", "Accept")
  jsonHeader(ctx, "content-type", "Content-Type")
  const merchant = requestMerchant(ctx, gateway)
  requireField(ctx.body, "hash_key")
  const date = requireField(ctx.body, "date")
  if (!isCalendarDate(date)) fail(CODES.VALIDATION, "The date must be a date in the format YYYY-MM-DD.")
  const values = Object.fromEntries(FILTERS.map((field) => [field, optionalField(ctx.body, field)]))
  const matches = saleFilter(values)
  requireRequestHash(ctx.body, merchant.merchant_key, FILTERS.map((field) => values[field]))
  const plans = gateway.store.state.recurring_plans
  const data = gateway.store
    .salesOf(merchant.merchant_key)
    .filter(matches)
    .map((sale) => saleRecordView(sale, merchant, plans.find((plan) => plan.id === sale.recurring_id)))
  return envelope(CODES.SUCCESS, "Success", { data })
}
