import { amountNumber } from "../core/amounts"
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
  if (!sale || sale.order_id !== orderId) {
    // QNBpay's published failure (trgino/qnbpay-woocommerce docs/paymentcontrolrefund_completepaymentapi.md).
    return envelope(CODES.TRANSACTION_NOT_FOUND, `Pending sale not found against order_id ${orderId}`, { data: { invoice_id: invoiceId, order_id: orderId } })
  }
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
  const description = status === "complete" ? "Payment Successfully Completed" : "Payment cancelled"
  const ok = status === "complete"
  // The result in `data`, as published (QNBpay docs, same platform; the PHP SDK's CompletePaymentMapper and
  // sipay-node's PaymentCompleteResponse read data.*).
  return envelope(CODES.SUCCESS, description, {
    data: {
      sipay_status: ok ? 1 : 0,
      order_no: sale.order_id,
      order_id: sale.order_id,
      invoice_id: sale.invoice_id,
      status_code: ok ? CODES.SUCCESS : sale.status_code,
      status_description: description,
      sipay_payment_method: 1,
      credit_card_no: sale.card.masked,
      transaction_type: sale.transaction_type,
      payment_status: ok ? 1 : 0,
      payment_method: 1,
      error_code: ok ? CODES.SUCCESS : sale.status_code,
      error: ok ? description : sale.error,
      auth_code: sale.auth_code,
      installment: sale.installments,
      amount: amountNumber(sale.total_minor),
      status: word,
      transaction_status: word,
      hash_key: resultHash(sale, resultSecret(gateway, merchant, "payment_complete"), word),
    },
  })
}
