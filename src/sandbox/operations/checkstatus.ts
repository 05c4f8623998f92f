import { amountNumber } from "../core/amounts"
import { CODES, fail, requireField } from "../core/codes"
import type { Gateway } from "../core/gateway"
import { requireRequestHash } from "../core/request-hash"
import { envelope, type Reply } from "../http/io"
import type { RequestContext } from "../http/router"
import { transactionAmount, transactionStatus } from "../payments/status"
import { requestMerchant } from "./merchant-request"

/** POST /api/checkstatus: merchant_key, invoice_id, hash_key(invoice_id|merchant_key), include_pending_status. */
export function checkStatus(ctx: RequestContext, gateway: Gateway): Reply {
  const merchant = requestMerchant(ctx, gateway)
  const invoiceId = requireField(ctx.body, "invoice_id")
  requireRequestHash(ctx.body, merchant.app_secret, [invoiceId, merchant.merchant_key])
  const sale = gateway.store.findSale(merchant.merchant_key, invoiceId)
  if (!sale) fail(CODES.TRANSACTION_NOT_FOUND, "Transaction not found")
  const includePending = ["true", "1"].includes(String(ctx.body.include_pending_status ?? "").toLowerCase())
  const status = transactionStatus(sale, includePending)
  return envelope(CODES.SUCCESS, "Success", {
    transaction_status: status.transaction_status,
    order_id: sale.order_id,
    invoice_id: sale.invoice_id,
    transaction_id: sale.transaction_id,
    product_price: amountNumber(sale.total_minor),
    transaction_amount: amountNumber(transactionAmount(sale)),
    total_refunded_amount: amountNumber(sale.refunded_minor),
    transaction_type: sale.transaction_type,
    installment: sale.installments,
    currency_code: sale.currency_code,
    md_status: sale.md_status,
    reason: status.reason,
    payment_status: status.transaction_status === "Completed" ? 1 : 0,
  })
}
