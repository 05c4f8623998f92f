import { formatAmount, parseAmount } from "../core/amounts"
import { CODES, fail, optionalField, requireField } from "../core/codes"
import type { Gateway } from "../core/gateway"
import { requireRequestHash } from "../core/request-hash"
import { envelope, type Reply } from "../http/io"
import type { RequestContext } from "../http/router"
import { newReferenceNumber } from "../payments/sales"
import { requestMerchant } from "./merchant-request"

/** POST /api/refund: partial or full, up to captured minus refunded, on completed Auth sales. */
export function refund(ctx: RequestContext, gateway: Gateway): Reply {
  const merchant = requestMerchant(ctx, gateway)
  const appId = requireField(ctx.body, "app_id")
  const appSecret = requireField(ctx.body, "app_secret")
  if (appId !== merchant.app_id || appSecret !== merchant.app_secret) fail(CODES.INVALID_CREDENTIALS, "Invalid credentials")
  const invoiceId = requireField(ctx.body, "invoice_id")
  const amountText = requireField(ctx.body, "amount")
  const amount = parseAmount(amountText)
  if (amount === null || amount === 0) fail(CODES.VALIDATION, "The amount must be a positive amount.")
  requireRequestHash(ctx.body, merchant.app_secret, [amountText, invoiceId, merchant.merchant_key], 0)
  const refundTransactionId = optionalField(ctx.body, "refund_transaction_id") || null
  const sales = gateway.store.salesOf(merchant.merchant_key)
  if (refundTransactionId && sales.some((s) => s.refunds.some((r) => r.refund_transaction_id === refundTransactionId))) {
    fail(CODES.REFUND_ID_REUSED, "The refund_transaction_id has already been used.")
  }
  const sale = gateway.store.findSale(merchant.merchant_key, invoiceId)
  if (!sale) fail(CODES.TRANSACTION_NOT_FOUND, "Transaction not found")
  if (sale.state !== "completed" || sale.transaction_type !== "Auth" || sale.captured_minor === 0) {
    fail(CODES.REFUND_FAILED, "Refund failed: the transaction has not been captured.")
  }
  const refundable = sale.captured_minor - sale.refunded_minor
  if (amount > refundable) fail(CODES.REFUND_FAILED, `Refund failed: at most ${formatAmount(refundable)} can be refunded.`)
  const now = gateway.clock.now()
  const record = { amount_minor: amount, ref_no: newReferenceNumber(), refund_transaction_id: refundTransactionId, created_at_ms: now }
  sale.refunds.push(record)
  sale.refunded_minor += amount
  sale.updated_at_ms = now
  gateway.store.save()
  return envelope(CODES.SUCCESS, "Refund successful", { order_no: sale.order_id, invoice_id: sale.invoice_id, ref_no: record.ref_no })
}
