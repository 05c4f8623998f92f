import { parseAmount } from "../core/amounts"
import { CODES, fail, requireField } from "../core/codes"
import type { Gateway } from "../core/gateway"
import { requireRequestHash } from "../core/request-hash"
import { envelope, type Reply } from "../http/io"
import type { RequestContext } from "../http/router"
import type { SaleRecord } from "../types"
import { requestMerchant } from "./merchant-request"

/** Why a sale cannot be confirmed or cancelled now, or null when it is a reserved pre-authorization. */
function notReserved(sale: SaleRecord): string | null {
  if (sale.preauth?.state === "reserved") return null
  if (sale.preauth?.state === "confirmed") return "The pre-authorization has already been completed."
  if (sale.preauth?.state === "cancelled") return "The pre-authorization has already been cancelled."
  if (sale.preauth?.state === "expired") return "The pre-authorization has expired."
  if (sale.transaction_type !== "Pre-Authorization") return "The transaction is not a pre-authorization."
  return sale.state === "failed" ? "The pre-authorization failed." : "The pre-authorization has not been authorized yet."
}

/** POST /api/confirmPayment: complete (status 1, total <= reserved) or cancel (status 2) a reserved pre-authorization. */
export function confirmPayment(ctx: RequestContext, gateway: Gateway): Reply {
  const merchant = requestMerchant(ctx, gateway)
  const invoiceId = requireField(ctx.body, "invoice_id")
  const status = requireField(ctx.body, "status")
  if (status !== "1" && status !== "2") fail(CODES.VALIDATION, "The status must be 1 (complete) or 2 (cancel).")
  requireRequestHash(ctx.body, merchant.app_secret, [merchant.merchant_key, invoiceId, status])
  const sale = gateway.store.findSale(merchant.merchant_key, invoiceId)
  if (!sale) fail(CODES.TRANSACTION_NOT_FOUND, "Transaction not found")
  const problem = notReserved(sale)
  if (problem) fail(CODES.NOT_APPROVED, problem)
  const now = gateway.clock.now()
  const preauth = sale.preauth!
  if (status === "1") {
    const total = parseAmount(requireField(ctx.body, "total"))
    if (total === null || total === 0) fail(CODES.VALIDATION, "The total must be a positive amount.")
    if (total > sale.total_minor) fail(CODES.NOT_APPROVED, "The total exceeds the pre-authorized amount.")
    Object.assign(preauth, { state: "confirmed", settled_at_ms: now })
    sale.captured_minor = total
    sale.transaction_type = "Auth"
  } else {
    Object.assign(preauth, { state: "cancelled", settled_at_ms: now })
    Object.assign(sale, { state: "failed", reason: "Cancelled" })
  }
  sale.updated_at_ms = now
  gateway.store.save()
  return envelope(CODES.SUCCESS, status === "1" ? "Payment confirmed" : "Payment cancelled", {
    transaction_status: status === "1" ? "Completed" : "Cancelled",
    order_id: sale.order_id,
    invoice_id: sale.invoice_id,
  })
}
