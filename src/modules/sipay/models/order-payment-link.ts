import { model } from "@medusajs/framework/utils"

/**
 * A single-use payment link made for one order taken by phone (a draft order or an unpaid order):
 * which link, for which total, e-mailed to whom, and what became of it. The link itself is a
 * `sipay_payment_link` row; its payment is found in the sales ledger by dpl_id. The settlement
 * columns are the durable record that makes paying the order (and giving back a payment that must
 * not be kept) happen once, whichever of the ledger job, "sync now", the webhook or the order's
 * view sees the sale first (src/workflows/order-payment-links/settle-links.ts).
 */
export const OrderPaymentLink = model
  .define("sipay_order_payment_link", {
    id: model.id({ prefix: "sopl" }).primaryKey(),
    order_id: model.text().index(),
    payment_link_id: model.text().unique(),
    dpl_id: model.number().unique(),
    /** The order's total and currency when the link was made: the link's fixed amount. */
    amount: model.bigNumber(),
    currency_code: model.text(),
    email: model.text(),
    /** "sent" or "failed" (the e-mail), as dpl/sendemail answered. */
    email_outcome: model.text(),
    email_error: model.text().nullable(),
    /** The link's sale that paid the order (set before the order is paid, kept once paid): one per link, one link per sale. */
    settled_invoice_id: model.text().unique().nullable(),
    /** Medusa's payment (provider pp_sipay_sipay) recorded for that sale. */
    payment_id: model.text().nullable(),
    settled_at: model.dateTime().nullable(),
    /** Whether settling converted a draft order. */
    converted_draft: model.boolean().default(false),
    /** The last settlement error (retried on the next sync), null when none. */
    settle_error: model.text().nullable(),
    /** Sales of the link the plugin is done with (the settled one, those refunded or not charged): never looked at again. */
    handled_invoice_ids: model.array().default([]),
    /** Every sale of the link the order did not keep: `{ invoice_id, reason, amount, currency_code, outcome, at, error? }`. */
    refused_sales: model.json().default([] as never),
  })
