import { randomInt, randomBytes } from "node:crypto"
import type { Gateway } from "../core/gateway"
import { CODES } from "../core/codes"
import type { SaleRecord } from "../types"
import type { PaymentOrder } from "./request"
import { sendSaleWebhook } from "./result"

function digits(count: number): string {
  let text = String(randomInt(1, 10))
  while (text.length < count) text += String(randomInt(0, 10))
  return text
}

/** A new sale's id, order id and transaction id (the order id starts with the sale's time). */
export function newSaleIds(gateway: Gateway, at: number): Pick<SaleRecord, "id" | "order_id" | "transaction_id"> {
  const id = gateway.store.nextId("sale", 1001)
  return { id, order_id: `${at}${digits(10)}`, transaction_id: `${id}${digits(9)}` }
}

/** Records the sale of a valid request as pending (the bank step or the 2D authorisation follows). */
export function openSale(gateway: Gateway, order: PaymentOrder, lang: "tr" | "en" = "tr"): SaleRecord {
  const now = gateway.clock.now()
  const sale: SaleRecord = {
    ...newSaleIds(gateway, now),
    merchant_key: order.merchant.merchant_key,
    invoice_id: order.invoice_id,
    invoice_description: order.invoice_description,
    integration: order.integration,
    state: "pending",
    transaction_type: order.transaction_type,
    currency_code: order.currency_code,
    installments: order.installments,
    total_minor: order.total_minor,
    captured_minor: 0,
    refunded_minor: 0,
    refunds: [],
    preauth: null,
    awaiting_merchant: false,
    payment_completed_by: order.payment_completed_by,
    status_code: 0,
    status_description: "Pending",
    error: "",
    md_status: "",
    auth_code: "",
    reason: "Pending",
    card: {
      ...order.card_view,
      holder_name: order.holder_name,
      outcome: order.card.outcome,
      ...(order.card.laterCharges ? { later_charges: order.card.laterCharges } : {}),
      scheme: order.card.scheme,
      program: order.card.program,
      card_type: order.card.card_type,
      bank: order.card.bank,
    },
    items: order.items,
    payer: order.payer,
    return_url: order.return_url,
    cancel_url: order.cancel_url,
    response_method: order.response_method,
    sale_webhook_key: order.sale_webhook_key,
    recurring: order.recurring,
    agricultural: order.agricultural,
    bank_session: order.integration === "3D" ? randomBytes(18).toString("base64url") : null,
    lang,
    dpl_id: 0,
    recurring_id: 0,
    saved_card: order.saved_card ? { id: order.saved_card.id, customer_number: order.saved_card.customer_number } : null,
    created_at_ms: now,
    updated_at_ms: now,
  }
  gateway.store.state.sales.push(sale)
  gateway.store.save()
  return sale
}

function decline(sale: SaleRecord, code: number, description: string, error: string, mdStatus: string): void {
  Object.assign(sale, { state: "failed", status_code: code, status_description: description, error, md_status: mdStatus, reason: error })
}

/** What the bank page's cardholder did, or "card" for a 2D authorisation; "link_closed": the payment link was used up or expired meanwhile. */
export type BankAction = "card" | "wrong_code" | "cancelled" | "link_closed"

/** Authorises a pending sale by its card's outcome; sends the sale webhook once the sale is final. */
export function authorizeSale(gateway: Gateway, sale: SaleRecord, action: BankAction, after: (task: () => void) => void): void {
  const is3d = sale.integration === "3D"
  const mdOk = is3d ? "1" : ""
  if (action === "cancelled") decline(sale, CODES.TRANSACTION_FAILED, "transaction failed", "Payment cancelled by the cardholder", "0")
  else if (action === "link_closed") decline(sale, CODES.TRANSACTION_FAILED, "transaction failed", "The payment link has reached its maximum number of uses or expired", "0")
  else if (action === "wrong_code") decline(sale, CODES.TRANSACTION_FAILED, "transaction failed", "3D Secure authentication failed: wrong SMS code", "0")
  else if (is3d && sale.card.outcome === "3d_failure") decline(sale, CODES.TRANSACTION_FAILED, "transaction failed", "3D Secure authentication failed", "0")
  else if (sale.card.outcome === "insufficient_funds") decline(sale, CODES.TRANSACTION_FAILED, "transaction failed", "Insufficient funds", mdOk)
  else if (sale.card.outcome === "blocked") decline(sale, CODES.CARD_BLOCKED, "Card blocked", "The card is blocked", mdOk)
  else {
    Object.assign(sale, {
      status_code: CODES.SUCCESS,
      status_description: is3d ? "success" : "Payment process successful",
      md_status: mdOk,
      auth_code: digits(6),
      reason: "",
    })
    if (sale.payment_completed_by === "merchant") {
      sale.awaiting_merchant = true
      sale.reason = "Pending"
    } else settleAuthorized(gateway, sale)
  }
  sale.updated_at_ms = gateway.clock.now()
  gateway.store.save()
  if (sale.state !== "pending") after(() => sendSaleWebhook(gateway, sale))
}

/** An authorised sale becomes final: money taken (Auth) or reserved (Pre-Authorization). */
export function settleAuthorized(gateway: Gateway, sale: SaleRecord): void {
  sale.state = "completed"
  sale.awaiting_merchant = false
  sale.reason = ""
  if (sale.transaction_type === "Pre-Authorization") {
    sale.preauth = { state: "reserved", reserved_at_ms: gateway.clock.now(), settled_at_ms: null }
  } else {
    sale.captured_minor = sale.total_minor
  }
}

export function newReferenceNumber(): string {
  return digits(12)
}

export function newAuthCode(): string {
  return digits(6)
}
