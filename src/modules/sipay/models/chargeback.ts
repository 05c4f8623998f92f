import { model } from "@medusajs/framework/utils"

/**
 * A chargeback the ledger saw (state 11): recorded once per sale, on the order its sale paid. A
 * chargeback of a sale the plugin had given back, of a later recurring charge or of a payment link is
 * recorded too, with what the sale was (`sale_kind`), and on no order but the one that sale paid.
 */
export const Chargeback = model
  .define("sipay_chargeback", {
    id: model.id({ prefix: "scb" }).primaryKey(),
    sale_id: model.text().unique(),
    invoice_id: model.text().index(),
    order_id: model.text().nullable(),
    payment_id: model.text().nullable(),
    /** What the sale was to Medusa (lib/sales-report/sale-owner.ts): payment, given_back, recurring_charge, payment_link. */
    sale_kind: model.text().default("payment"),
    amount: model.bigNumber(),
    currency_code: model.text(),
    detected_at: model.dateTime(),
  })
  .indexes([{ on: ["order_id"] }])
