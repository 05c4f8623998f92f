import { amountNumber } from "../core/amounts"
import { formatIstanbul } from "../core/clock"
import { CODES, requireField } from "../core/codes"
import type { Gateway } from "../core/gateway"
import { requireRequestHash } from "../core/request-hash"
import { json, type Reply } from "../http/io"
import type { RequestContext } from "../http/router"
import { commissionFields } from "../payments/result"
import { transactionAmount, transactionStatus } from "../payments/status"
import { recurringFieldsOf } from "../recurring/view"
import type { SaleRecord } from "../types"
import { requestMerchant } from "./merchant-request"

const DAY_MS = 24 * 3600 * 1000

/**
 * Answered as published: the interface's fields plus the live ones the SDKs map (message, bank_status_*,
 * ref_number, cc_no, commissions, settlement_date, card_type; a plan's fields for recurring sales).
 * A one-element array when the checkstatusArray option is on (QNBpay's published sample).
 */
function answer(gateway: Gateway, record: Record<string, unknown>): Reply {
  return json(gateway.conventions.checkstatusArray ? [record] : record)
}

/** An unknown invoice: 31 "Transaction not found" (reference), or 32 with a Failed record (the gateway's docs). */
function unknownInvoice(gateway: Gateway, invoiceId: string): Reply {
  if (gateway.conventions.checkstatusCodes === "reference") {
    return answer(gateway, { status_code: CODES.TRANSACTION_NOT_FOUND, status_description: "Transaction not found" })
  }
  return answer(gateway, {
    status_code: CODES.INVALID_INVOICE_ID,
    status_description: "Invalid invoice id",
    transaction_status: "Failed",
    order_id: "",
    transaction_id: "",
    message: "Invalid invoice id",
    reason: "No Request found for this invoice id",
    bank_status_code: "",
    bank_status_description: "",
    invoice_id: invoiceId,
    total_refunded_amount: 0,
    product_price: 0,
    transaction_amount: 0,
    ref_number: "",
  })
}

/** POST /api/checkstatus: merchant_key, invoice_id, hash_key(invoice_id|merchant_key), include_pending_status. */
export function checkStatus(ctx: RequestContext, gateway: Gateway): Reply {
  const merchant = requestMerchant(ctx, gateway)
  const invoiceId = requireField(ctx.body, "invoice_id")
  requireRequestHash(ctx.body, merchant.app_secret, [invoiceId, merchant.merchant_key])
  const sale = gateway.store.findSale(merchant.merchant_key, invoiceId)
  if (!sale) return unknownInvoice(gateway, invoiceId)
  const includePending = ["true", "1"].includes(String(ctx.body.include_pending_status ?? "").toLowerCase())
  const status = transactionStatus(sale, includePending)
  // A declined sale: 41 "Order Failed" in the gateway's docs, 100 + Failed in the reference convention. A
  // pre-authorization cancelled or expired after it was authorised keeps 100.
  const failedSale = sale.state === "failed" && sale.status_code !== CODES.SUCCESS && gateway.conventions.checkstatusCodes === "published"
  const message = failedSale ? "Order Failed" : `An order has been taken place for this invoice id: ${sale.invoice_id}`
  return answer(gateway, {
    status_code: failedSale ? CODES.TRANSACTION_FAILED : CODES.SUCCESS,
    status_description: failedSale ? message : "Success",
    transaction_status: status.transaction_status,
    order_id: sale.order_id,
    invoice_id: sale.invoice_id,
    transaction_id: sale.transaction_id,
    message,
    product_price: amountNumber(sale.total_minor),
    transaction_amount: amountNumber(transactionAmount(sale)),
    total_refunded_amount: amountNumber(sale.refunded_minor),
    transaction_type: sale.transaction_type,
    installment: sale.installments,
    currency_code: sale.currency_code,
    md_status: sale.md_status,
    reason: status.reason,
    payment_status: status.transaction_status === "Completed" ? 1 : 0,
    ...bankStatus(sale),
    ref_number: "",
    cc_no: sale.card.masked,
    card_type: sale.card.card_type,
    ...commissionFields(sale),
    settlement_date: formatIstanbul(sale.created_at_ms + 2 * DAY_MS).slice(0, 10),
    ...recurringFieldsOf(gateway, sale),
  })
}

/** The bank's answer as the published samples show it: empty unless the bank declined ("Failed # <text>"). */
function bankStatus(sale: SaleRecord): { bank_status_code: string; bank_status_description: string } {
  if (sale.state !== "failed" || sale.status_code === CODES.SUCCESS) return { bank_status_code: "", bank_status_description: "" }
  return { bank_status_code: `Failed # ${sale.status_description}`, bank_status_description: sale.status_description }
}
