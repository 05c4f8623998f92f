import { macsEqual, serverMac } from "../../../lib/server-mac"
import { MedusaError, PaymentSessionStatus } from "@medusajs/framework/utils"
import { amountsEqual, formatAmount, type TransactionStatus } from "../../../lib/sipay"
import { classifyTransaction } from "../../../lib/sipay/outcome"
import type { SipaySessionData } from "./session-data"

/**
 * A phone order's payment link is paid on the gateway's own page, so its sale has an invoice id the
 * plugin did not issue (`dpl<id>_<n>`). The session the plugin opens on the order's payment
 * collection is bound to that sale by `phone_order_sale`, written by the server only: an HMAC
 * (key derived from the app secret) over the sale's invoice id, the session id and the order link,
 * so a value planted through the store API, or copied from another session, does not verify.
 */
export type PhoneOrderSale = { invoice_id: string; session_id: string; order_link_id: string; mac: string }

const PURPOSE = "medusa-plugin-sipay/phone-order-sale/v1"

function macOf(appSecret: string, fields: Omit<PhoneOrderSale, "mac">): string {
  return serverMac(appSecret, PURPOSE, JSON.stringify([fields.invoice_id, fields.session_id, fields.order_link_id]))
}

export function signPhoneOrderSale(appSecret: string, fields: Omit<PhoneOrderSale, "mac">): PhoneOrderSale {
  return { ...fields, mac: macOf(appSecret, fields) }
}

/** The session's binding when the server signed it for this very session, else null. */
export function phoneOrderSaleOf(appSecret: string, session: Partial<SipaySessionData> | Record<string, unknown> | undefined | null): PhoneOrderSale | null {
  const value = (session as Record<string, unknown> | undefined)?.phone_order_sale
  if (!value || typeof value !== "object" || Array.isArray(value)) return null
  const b = value as Record<string, unknown>
  if (typeof b.invoice_id !== "string" || typeof b.session_id !== "string" || typeof b.order_link_id !== "string" || typeof b.mac !== "string") return null
  if (b.session_id !== (session as Record<string, unknown>).session_id) return null
  const fields = { invoice_id: b.invoice_id, session_id: b.session_id, order_link_id: b.order_link_id }
  if (!macsEqual(macOf(appSecret, fields), b.mac)) return null
  return { ...fields, mac: b.mac }
}

/** True when `invoiceId` is the bound sale of this session (refund and capture accept it as the session's own). */
export function isBoundPhoneOrderSale(appSecret: string, session: Partial<SipaySessionData> | undefined, invoiceId: unknown): boolean {
  return typeof invoiceId === "string" && phoneOrderSaleOf(appSecret, session)?.invoice_id === invoiceId
}

/**
 * authorizePayment for a bound phone-order session: the gateway is asked (checkstatus) and only a
 * captured sale of exactly the session's amount and currency, as the gateway records them, is taken.
 */
export async function authorizePhoneOrderSale(
  session: SipaySessionData,
  binding: PhoneOrderSale,
  checkStatus: (invoiceId: string) => Promise<TransactionStatus>
): Promise<{ status: PaymentSessionStatus; data: Record<string, unknown> }> {
  const transaction = await checkStatus(binding.invoice_id)
  const outcome = classifyTransaction(transaction)
  const paid = transaction.productPrice ?? transaction.transactionAmount
  const currency = String(transaction.currencyCode ?? "").toUpperCase()
  if (outcome !== "captured") {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `The payment link's sale ${binding.invoice_id} is not captured at the gateway (${outcome})`)
  }
  if (paid === null || !amountsEqual(paid, session.amount) || currency !== String(session.currency_code).toUpperCase()) {
    throw new MedusaError(
      MedusaError.Types.NOT_ALLOWED,
      `The payment link's sale ${binding.invoice_id} (${paid} ${currency}) does not match the session amount ${session.amount} ${session.currency_code}`
    )
  }
  return {
    status: PaymentSessionStatus.CAPTURED,
    data: {
      ...session,
      status: PaymentSessionStatus.CAPTURED,
      invoice_id: binding.invoice_id,
      gateway_order_no: transaction.orderId ?? null,
      transaction_type: transaction.transactionType,
      installments: transaction.installment ?? null,
      captured_amount: formatAmount(transaction.transactionAmount ?? paid),
      gateway_confirmation: null,
    },
  }
}
