import { model } from "@medusajs/framework/utils"

/** A chargeback the ledger saw (state 11): recorded once per sale, on the order it paid for. */
export const Chargeback = model
  .define("sipay_chargeback", {
    id: model.id({ prefix: "scb" }).primaryKey(),
    sale_id: model.text().unique(),
    invoice_id: model.text().index(),
    order_id: model.text().nullable(),
    payment_id: model.text().nullable(),
    amount: model.bigNumber(),
    currency_code: model.text(),
    detected_at: model.dateTime(),
  })
  .indexes([{ on: ["order_id"] }])
