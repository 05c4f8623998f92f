/**
 * What a gateway sale is to Medusa: the one answer every path acting on a gateway record uses
 * (the ledger's actions, the sale webhook, settling and reconciliation, the order's gateway view,
 * the Sales page, phone-order links, recurring). Pure: the facts are gathered by
 * src/workflows/sale-owner (which reads Medusa's payments and this plugin's records) and decided here.
 */

/** A gateway sale as a caller knows it: the invoice id, and where known its gateway order id and payment link. */
export type SaleKey = { invoice_id: string; gateway_order_id?: string | null; dpl_id?: number | null }

export type SaleSource = "checkout" | "phone_order"

export type SaleOwner =
  /** The Medusa payment this sale paid: the payment's own data names the sale's invoice. */
  | { kind: "payment"; source: SaleSource; invoice_id: string; payment_id: string; payment_collection_id: string; order_id: string | null; session_id: string | null; order_link_id: string | null }
  /** An attempt the plugin gave back itself (the cart changed, was paid by another attempt, the phone order did not keep it): its money is accounted for, never booked on an order. */
  | { kind: "given_back"; source: SaleSource; invoice_id: string; order_id: string | null; reason: string | null; order_link_id: string | null }
  /** One of this store's attempts that no Medusa payment records and the plugin has not given back (yet): pending, failed, or paid and being settled. */
  | { kind: "attempt"; source: SaleSource; invoice_id: string; status: string; session_id: string | null; cart_id: string | null; order_id: string | null; order_link_id: string | null }
  /** A later charge of a recurring plan, made under its first payment's invoice id with another gateway order id. */
  | { kind: "recurring_charge"; invoice_id: string; payment_id: string; order_id: string | null }
  /** A sale of a payment link this plugin made (not a phone order's): no Medusa payment. */
  | { kind: "payment_link"; invoice_id: string; payment_link_id: string }
  /** Not a sale of this store: another integration's, or a link made in the merchant panel. */
  | { kind: "not_ours"; invoice_id: string; reason: string }

export type AttemptFacts = {
  invoice_id: string
  session_id: string
  cart_id: string | null
  status: string
  gateway_order_no: string | null
  error_message: string | null
}

export type PaymentFacts = {
  id: string
  payment_collection_id: string
  payment_session_id: string | null
  /** The payment's data: the sale it records and the gateway order number it was paid with. */
  invoice_id: string | null
  gateway_order_no: string | null
  order_id: string | null
}

export type OrderLinkFacts = {
  id: string
  order_id: string
  settled_invoice_id: string | null
  payment_id: string | null
  refused_invoice_ids: string[]
  refusal_reasons: Record<string, string>
}

export type SaleFacts = {
  sale: SaleKey
  /** This store's attempt with the sale's invoice id, if any. */
  attempt: AttemptFacts | null
  /** Every Medusa payment of the attempt's payment session. */
  sessionPayments: PaymentFacts[]
  /** The order the attempt's cart became, whichever sale paid it. */
  cartOrderId: string | null
  /** The phone-order link of the sale's payment link, and the Medusa payment it recorded. */
  orderLink: OrderLinkFacts | null
  linkPayment: PaymentFacts | null
  /** This plugin's payment link of the sale's dpl id (not a phone order's). */
  paymentLinkId: string | null
}

/** The payment link id of a link sale's invoice id (`dpl<id>_<n>`), as the gateway names them. */
export function linkOfInvoiceId(invoiceId: string): number | null {
  const match = /^dpl(\d+)_\d+$/.exec(invoiceId)
  return match ? Number(match[1]) : null
}

/** The sale's payment link: the record's dpl_id, else the one its invoice id names. */
export function dplIdOf(sale: SaleKey): number | null {
  const recorded = Number(sale.dpl_id)
  return Number.isInteger(recorded) && recorded > 0 ? recorded : linkOfInvoiceId(sale.invoice_id)
}

function differentOrder(sale: SaleKey, known: string | null): boolean {
  const reported = sale.gateway_order_id === undefined || sale.gateway_order_id === null ? "" : String(sale.gateway_order_id)
  return reported !== "" && known !== null && known !== "" && reported !== known
}

export function decideSaleOwner(facts: SaleFacts): SaleOwner {
  const { sale } = facts
  const invoice_id = sale.invoice_id
  if (facts.attempt) {
    const attempt = facts.attempt
    const payment = facts.sessionPayments.find((candidate) => candidate.invoice_id === invoice_id)
    if (payment) {
      if (differentOrder(sale, payment.gateway_order_no ?? attempt.gateway_order_no)) {
        return { kind: "recurring_charge", invoice_id, payment_id: payment.id, order_id: payment.order_id }
      }
      return { kind: "payment", source: "checkout", invoice_id, payment_id: payment.id, payment_collection_id: payment.payment_collection_id, order_id: payment.order_id, session_id: attempt.session_id, order_link_id: null }
    }
    if (attempt.status === "reversed") {
      return { kind: "given_back", source: "checkout", invoice_id, order_id: facts.cartOrderId, reason: attempt.error_message, order_link_id: null }
    }
    return { kind: "attempt", source: "checkout", invoice_id, status: attempt.status, session_id: attempt.session_id, cart_id: attempt.cart_id, order_id: facts.cartOrderId, order_link_id: null }
  }
  const link = facts.orderLink
  if (link) {
    const payment = facts.linkPayment
    if (link.settled_invoice_id === invoice_id && payment && payment.id === link.payment_id && payment.invoice_id === invoice_id) {
      return { kind: "payment", source: "phone_order", invoice_id, payment_id: payment.id, payment_collection_id: payment.payment_collection_id, order_id: payment.order_id ?? link.order_id, session_id: payment.payment_session_id, order_link_id: link.id }
    }
    if (link.refused_invoice_ids.includes(invoice_id)) {
      return { kind: "given_back", source: "phone_order", invoice_id, order_id: link.order_id, reason: link.refusal_reasons[invoice_id] ?? null, order_link_id: link.id }
    }
    return { kind: "attempt", source: "phone_order", invoice_id, status: link.settled_invoice_id === invoice_id ? "settling" : "pending", session_id: null, cart_id: null, order_id: link.order_id, order_link_id: link.id }
  }
  if (facts.paymentLinkId) {
    return { kind: "payment_link", invoice_id, payment_link_id: facts.paymentLinkId }
  }
  return { kind: "not_ours", invoice_id, reason: dplIdOf(sale) !== null ? "a payment link this store did not make" : "no attempt of this store has this invoice id" }
}

/**
 * Defence in depth before anything is recorded on a payment: the sale's invoice must be the one the
 * payment's own data records (a second tab's sale is never booked on the payment the shopper kept).
 */
export function assertPaymentRecordsSale(invoiceId: string, paymentData: Record<string, unknown> | null | undefined, paymentId: string): void {
  const recorded = paymentData?.invoice_id
  if (typeof recorded !== "string" || recorded !== invoiceId) {
    throw new Error(`Sipay: sale ${invoiceId} is not the sale payment ${paymentId} records (${typeof recorded === "string" ? recorded : "none"}): nothing recorded`)
  }
}
