import { model } from "@medusajs/framework/utils"

/**
 * The sales ledger: one row per sale at the gateway (getTransactions), upserted by the gateway's sale
 * id by the sync job. The Sales page, its totals and CSV, the order widget and payment-link usage read
 * it instead of asking the gateway on every view. `record` is the sale as the gateway gave it (card
 * number masked by the gateway); the other columns are what the admin filters, sorts and sums.
 */
export const LedgerSale = model
  .define("sipay_ledger_sale", {
    id: model.id({ prefix: "sled" }).primaryKey(),
    sale_id: model.text().unique(),
    /** The gateway's calendar day of the sale (Istanbul): getTransactions selects by it. */
    day: model.text(),
    sale_created_at: model.dateTime(),
    invoice_id: model.text().index(),
    gateway_order_id: model.text().nullable(),
    transaction_state_id: model.number(),
    transaction_state_label: model.text(),
    currency_code: model.text(),
    currency_id: model.number(),
    payment_type_id: model.number(),
    gross: model.bigNumber(),
    net: model.bigNumber(),
    merchant_commission: model.bigNumber(),
    total_refunded_amount: model.bigNumber(),
    installment: model.number(),
    dpl_id: model.number().nullable(),
    recurring_id: model.number().nullable(),
    credit_card_no: model.text().nullable(),
    record: model.json(),
    synced_at: model.dateTime(),
    /** "<state id>|<refunded>" of the last state the plugin acted on (panel refund, chargeback); null: nothing yet. */
    acted_on: model.text().nullable(),
  })
  // One index per sort of the Sales page, id as tie-breaker. Migration20261123113200 creates them with
  // the filter (and, for gross, the summed) columns INCLUDEd, and keeps `record` out of line.
  .indexes([
    { on: ["day", "sale_created_at", "id"] },
    { on: ["day", "gross", "id"] },
    { on: ["day", "transaction_state_id", "id"] },
    { on: ["day", "invoice_id", "id"] },
    { on: ["dpl_id"] },
  ])
