import { generateHashKey } from "../../lib/sipay/hash"
import { amountNumber, formatAmount } from "../core/amounts"
import type { Gateway } from "../core/gateway"
import { MERCHANT_PRICING, merchantCommissionMinor } from "../transactions/pricing"
import type { Merchant, SaleRecord } from "../types"

/** Secret used instead of the app secret under the bad_result_hash fault. */
const WRONG_SECRET = "sandbox-bad-result-hash"

export function succeeded(sale: SaleRecord): boolean {
  return sale.status_code === 100
}

/** The result hash: status|total|invoice_id|order_id|currency_code, status 1 or 0 (or a word for payment/complete). */
export function resultHash(sale: SaleRecord, secret: string, status: string = succeeded(sale) ? "1" : "0"): string {
  return generateHashKey([status, formatAmount(sale.total_minor), sale.invoice_id, sale.order_id, sale.currency_code], secret)
}

/** The merchant's app secret, or a wrong one when a bad_result_hash fault is armed for the operation. */
export function resultSecret(gateway: Gateway, merchant: Merchant, operation: string): string {
  return gateway.faults.take(operation, ["bad_result_hash"]) ? WRONG_SECRET : merchant.app_secret
}

function errorCode(sale: SaleRecord): string {
  return succeeded(sale) ? "100" : String(sale.status_code)
}

/** Which names carry the status and method: the interface's (service_*) or the live gateway's (sipay_*). */
export type ResultNames = "service" | "sipay"

/** Result fields shared by the redirect (service_* by default, sipay_* as an option) and the sale webhook (always sipay_*). */
function resultFields(sale: SaleRecord, ok: boolean, names: ResultNames): Record<string, string> {
  return {
    [`${names}_status`]: ok ? "1" : "0",
    order_no: sale.order_id,
    order_id: sale.order_id,
    invoice_id: sale.invoice_id,
    status_code: String(sale.status_code),
    status_description: sale.status_description,
    [`${names}_payment_method`]: "1",
    payment_method: "1",
    credit_card_no: sale.card.masked,
    transaction_type: sale.transaction_type,
    payment_status: ok ? "1" : "0",
    error_code: errorCode(sale),
    error: sale.error,
  }
}

/** Fields of the 3D browser redirect. */
export function redirectFields(sale: SaleRecord, secret: string, names: ResultNames): Record<string, string> {
  return {
    ...resultFields(sale, succeeded(sale), names),
    md_status: sale.md_status,
    auth_code: sale.auth_code,
    installment: String(sale.installments),
    amount: formatAmount(sale.total_minor),
    hash_key: resultHash(sale, secret),
  }
}

/** Redirect fields of a request refused before any order existed (like the interface's 102 sample: no order, no hash). */
export function earlyFailureFields(invoiceId: string, code: number, description: string, transactionType: string, names: ResultNames): Record<string, string> {
  return {
    [`${names}_status`]: "0",
    order_no: "",
    order_id: "",
    invoice_id: invoiceId,
    status_code: String(code),
    status_description: description,
    [`${names}_payment_method`]: "1",
    payment_method: "1",
    credit_card_no: "",
    transaction_type: transactionType,
    payment_status: "0",
    error_code: String(code),
    error: description,
    md_status: "",
    auth_code: "",
  }
}

/**
 * Commission fields the live answers carry (sipay-node's Payment2DData, the PHP SDK's mappers, QNBpay's
 * checkstatus sample): the sandbox's merchant commission (transactions/pricing) on what was captured,
 * no end-user commission.
 */
export function commissionFields(sale: SaleRecord): Record<string, number> {
  return {
    merchant_commission: amountNumber(merchantCommissionMinor(sale.captured_minor)),
    user_commission: 0,
    merchant_commission_percentage: MERCHANT_PRICING.merchant_commission_percentage,
    merchant_commission_fixed: 0,
  }
}

/** data of the paySmart2D response: the interface's fields plus the live ones both published SDKs map (sipay_status, ...). */
export function directPaymentData(sale: SaleRecord, secret: string): Record<string, unknown> {
  const ok = succeeded(sale)
  return {
    sipay_status: ok ? 1 : 0,
    sipay_payment_method: 1,
    order_no: sale.order_id,
    order_id: sale.order_id,
    invoice_id: sale.invoice_id,
    payment_method: 1,
    credit_card_no: sale.card.masked,
    transaction_type: sale.transaction_type,
    payment_status: ok ? 1 : 0,
    error_code: ok ? 100 : "",
    error: sale.error,
    auth_code: sale.auth_code,
    hash_key: resultHash(sale, secret),
    installment: sale.installments,
    amount: amountNumber(sale.total_minor),
    ...commissionFields(sale),
  }
}

/** The sale webhook's form fields. */
export function saleWebhookBody(sale: SaleRecord, secret: string): Record<string, string> {
  const ok = succeeded(sale) && sale.state === "completed"
  return {
    ...resultFields(sale, ok, "sipay"),
    status: ok ? "Completed" : "Failed",
    total: formatAmount(sale.total_minor),
    currency_code: sale.currency_code,
    hash_key: resultHash(sale, secret, ok ? "1" : "0"),
  }
}

/** Posts the sale webhook if the payment named a key (checked to exist when the payment was accepted). */
export function sendSaleWebhook(gateway: Gateway, sale: SaleRecord): void {
  const merchant = gateway.merchants.byKey(sale.merchant_key)
  const url = merchant?.sale_webhooks[sale.sale_webhook_key]
  if (!merchant || !sale.sale_webhook_key || !url) return
  const body = saleWebhookBody(sale, resultSecret(gateway, merchant, "sale_webhook"))
  gateway.webhooks.send({ kind: "sale", url, key: sale.sale_webhook_key, body, operation: "sale_webhook" })
}
