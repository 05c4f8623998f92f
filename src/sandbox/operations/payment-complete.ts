import { CODES, fail, requireField } from "../core/codes"
import type { Gateway } from "../core/gateway"
import { requireRequestHash } from "../core/request-hash"
import { envelope, type Reply } from "../http/io"
import type { RequestContext } from "../http/router"
import { resultHash, resultSecret, sendSaleWebhook } from "../payments/result"
import { settleAuthorized } from "../payments/sales"
import { requestMerchant } from "./merchant-request"

/** POST /payment/complete: the merchant completes or cancels a 3D payment sent with payment_completed_by=merchant. */
export function completePayment(ctx: RequestContext, gateway: Gateway): Reply {
  const merchant = requestMerchant(ctx, gateway)
  const invoiceId = requireField(ctx.body, "invoice_id")
  const orderId = requireField(ctx.body, "order_id")
  const status = requireField(ctx.body, "status")
  if (status !== "complete" && status !== "cancel") fail(CODES.VALIDATION, "The status must be complete or cancel.")
  requireRequestHash(ctx.body, merchant.app_secret, [merchant.merchant_key, invoiceId, orderId, status])
  const sale = gateway.store.findSale(merchant.merchant_key, invoiceId)
  if (!sale || sale.order_id !== orderId) fail(CODES.TRANSACTION_NOT_FOUND, "Transaction not found")
  if (!sale.awaiting_merchant) {
    fail(CODES.NOT_APPROVED, sale.state === "pending" ? "The payment has not been authorized at the bank yet." : "The payment is not awaiting completion by the merchant.")
  }
  if (status === "complete") settleAuthorized(gateway, sale)
  else {
    Object.assign(sale, { state: "failed", awaiting_merchant: false, status_code: CODES.TRANSACTION_FAILED, status_description: "transaction failed", error: "Cancelled by the merchant", reason: "Cancelled" })
  }
  sale.updated_at_ms = gateway.clock.now()
  gateway.store.save()
  ctx.after(() => sendSaleWebhook(gateway, sale))
  const word = status === "complete" ? "Completed" : "Failed"
  return envelope(CODES.SUCCESS, status === "complete" ? "Payment completed" : "Payment cancelled", {
    invoice_id: sale.invoice_id,
    order_id: sale.order_id,
    transaction_status: word,
    hash_key: resultHash(sale, resultSecret(gateway, merchant, "payment_complete"), word),
  })
}
