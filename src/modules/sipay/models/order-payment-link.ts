import { model } from "@medusajs/framework/utils"

/**
 * A single-use payment link made for one order taken by phone (a draft order or an unpaid order):
 * which link, for which total, e-mailed to whom, and what became of it. The link itself is a
 * `sipay_payment_link` row; its payment is found in the sales ledger by dpl_id.
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
  })
