import { amountsEqual, formatAmountOrNull } from "./amount"
import { validateHashKey } from "./hash"
import { parseStatusCode } from "./status-codes"
import type { CommissionRow, PaymentResult, PosOption, ResultHashParts, TransactionStatus, VerifiedResult } from "./types"

/** Reading the gateway's answers into typed results; pure functions, no I/O. */

/** A scalar field as a string; the first value when a query parser produced an array. */
export function text(value: unknown): string | null {
  const first = Array.isArray(value) ? value[0] : value
  if (first === null || first === undefined) {
    return null
  }
  return typeof first === "object" ? null : String(first)
}

export function integer(value: unknown): number | null {
  return parseStatusCode(text(value))
}

function paymentStatusOf(value: unknown): 0 | 1 | null {
  const parsed = integer(value)
  return parsed === 1 ? 1 : parsed === 0 ? 0 : null
}

/** The decrypted result hash (status|total|invoice_id|order_id|currency_code), or null when it does not decrypt. */
export function decryptResultHash(hashKey: unknown, appSecret: string): ResultHashParts | null {
  const key = text(hashKey)
  const parts = key ? validateHashKey(key, appSecret) : null
  if (!parts || parts.length < 5) {
    return null
  }
  const [status, total, invoiceId, orderId, currencyCode] = parts
  return { status, total, invoiceId, orderId, currencyCode }
}

function totalMatches(hashTotal: string, expected: string): boolean {
  try {
    return amountsEqual(hashTotal, expected)
  } catch {
    return false
  }
}

/** The paySmart2D answer. Success needs code 100, payment_status 1 and a result hash that matches this payment. */
export function toPaymentResult(
  body: Record<string, any>,
  expected: { invoiceId: string; total: string; currencyCode: string },
  appSecret: string
): PaymentResult {
  const data: Record<string, any> = body.data !== null && typeof body.data === "object" ? body.data : {}
  const statusCode = parseStatusCode(body.status_code ?? data.status_code)
  const paymentStatus = paymentStatusOf(data.payment_status ?? body.payment_status) ?? 0
  const hashParts = decryptResultHash(data.hash_key ?? body.hash_key, appSecret)
  const orderNo = text(data.order_no ?? data.order_id)
  const hashVerified =
    hashParts !== null &&
    hashParts.invoiceId === expected.invoiceId &&
    totalMatches(hashParts.total, expected.total) &&
    hashParts.currencyCode === expected.currencyCode &&
    (orderNo === null || hashParts.orderId === orderNo)
  return {
    success: statusCode === 100 && paymentStatus === 1 && hashVerified && hashParts?.status === "1",
    statusCode,
    statusDescription: text(body.status_description ?? data.status_description) ?? "",
    orderNo,
    invoiceId: text(data.invoice_id) ?? expected.invoiceId,
    paymentStatus,
    transactionType: text(data.transaction_type),
    maskedCardNumber: text(data.credit_card_no),
    errorCode: text(data.error_code) ?? "",
    error: text(data.error) ?? "",
    hashVerified,
    hashParts,
    raw: body,
  }
}

/**
 * A 3D redirect (query or form) or a sale webhook (form or JSON), trusted only when its hash_key decrypts
 * with the app secret and names the same invoice as the fields. Reads the interface's and the live names.
 */
export function verifyResultFields(fields: Record<string, unknown>, appSecret: string): VerifiedResult | null {
  if (fields === null || typeof fields !== "object") {
    return null
  }
  const parts = decryptResultHash(fields.hash_key, appSecret)
  if (!parts || parts.invoiceId !== text(fields.invoice_id)) {
    return null
  }
  const total = formatAmountOrNull(parts.total)
  if (total === null) {
    return null
  }
  return {
    // Only "1" means paid; anything else the gateway signs is a failure.
    status: parts.status === "1" ? "1" : "0",
    total,
    invoiceId: parts.invoiceId,
    orderId: parts.orderId,
    currencyCode: parts.currencyCode,
    paymentStatus: paymentStatusOf(fields.payment_status),
    transactionType: text(fields.transaction_type),
    statusCode: integer(fields.status_code),
    maskedCardNumber: text(fields.credit_card_no),
    errorCode: text(fields.error_code) ?? "",
    error: text(fields.error) ?? "",
    serviceStatus: text(fields.service_status ?? fields.sipay_status),
    servicePaymentMethod: text(fields.service_payment_method ?? fields.sipay_payment_method),
    raw: fields,
  }
}

/** The checkstatus record: top level, in a one-element array, or under data. */
export function checkStatusRecord(body: unknown): Record<string, any> {
  let record: any = Array.isArray(body) ? body[0] : body
  if (record && typeof record === "object" && record.transaction_status === undefined && record.data && typeof record.data === "object") {
    record = Array.isArray(record.data) ? { ...record, ...record.data[0] } : { ...record, ...record.data }
  }
  return record && typeof record === "object" ? record : {}
}

/**
 * A checkstatus record of a failed sale of this invoice, whatever its code (41 "Order Failed" as the gateway's
 * docs publish): it names the invoice and the sale's order id, so it is not an error about the request.
 */
export function isFailedSaleRecord(record: Record<string, any>, invoiceId: string): boolean {
  return text(record.transaction_status) === "Failed" && text(record.invoice_id) === invoiceId && Boolean(text(record.order_id ?? record.order_no))
}

export function toTransactionStatus(record: Record<string, any>, invoiceId: string, found: boolean, raw: unknown): TransactionStatus {
  return {
    found,
    status: text(record.transaction_status) ?? (found ? "" : "NotFound"),
    orderId: text(record.order_id ?? record.order_no),
    invoiceId: text(record.invoice_id) ?? invoiceId,
    transactionId: text(record.transaction_id),
    productPrice: formatAmountOrNull(record.product_price),
    transactionAmount: formatAmountOrNull(record.transaction_amount),
    totalRefundedAmount: formatAmountOrNull(record.total_refunded_amount) ?? "0.00",
    transactionType: text(record.transaction_type),
    installment: integer(record.installment),
    currencyCode: text(record.currency_code ?? record.currency),
    mdStatus: text(record.md_status),
    reason: text(record.reason),
    statusCode: parseStatusCode(record.status_code),
    raw,
  }
}

export function toPosOption(row: Record<string, any>): PosOption {
  return {
    posId: integer(row.pos_id),
    installmentsNumber: integer(row.installments_number),
    cardType: text(row.card_type),
    cardProgram: text(row.card_program),
    cardScheme: text(row.card_scheme),
    payableAmount: formatAmountOrNull(row.payable_amount),
    amountToBePaid: formatAmountOrNull(row.amount_to_be_paid),
    currencyCode: text(row.currency_code),
    currencyId: integer(row.currency_id),
    title: text(row.title),
    raw: row,
  }
}

export function integerList(value: unknown): number[] {
  return Array.isArray(value) ? value.map(integer).filter((n): n is number => n !== null) : []
}

/** /api/commissions' `data`: an object keyed by installment count, one row per card program ('x' and '-' = not offered). */
export function toCommissionRows(data: unknown): CommissionRow[] {
  if (!data || typeof data !== "object" || Array.isArray(data)) {
    return []
  }
  const rate = (value: unknown): number | null => {
    if (value === null || value === undefined || value === "" || value === "x" || value === "X" || value === "-") return null
    const n = Number(value)
    return Number.isFinite(n) ? n : null
  }
  const rows: CommissionRow[] = []
  for (const [key, cells] of Object.entries(data as Record<string, unknown>)) {
    for (const cell of Array.isArray(cells) ? cells : []) {
      if (!cell || typeof cell !== "object") continue
      const row = cell as Record<string, unknown>
      const installment = integer(row.installment) ?? integer(key)
      const cardProgram = text(row.card_program) ?? text(row.getpos_card_program)
      if (installment === null || !cardProgram) continue
      rows.push({
        installment,
        cardProgram,
        title: text(row.title),
        merchantPercentage: rate(row.merchant_commission_percentage),
        merchantFixed: rate(row.merchant_commission_fixed),
        userPercentage: rate(row.user_commission_percentage),
        userFixed: rate(row.user_commission_fixed),
      })
    }
  }
  return rows
}
