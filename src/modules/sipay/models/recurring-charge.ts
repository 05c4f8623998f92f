import { model } from "@medusajs/framework/utils"

/** One charge of a recurring plan, as the gateway notified it and confirmed it (recurringPlan/query). */
export const RecurringCharge = model
  .define("sipay_recurring_charge", {
    id: model.id({ prefix: "srchg" }).primaryKey(),
    plan_code: model.text(),
    recurring_number: model.number(),
    /** The invoice id of the plan's first payment (one of this plugin's attempts). */
    invoice_id: model.text().index(),
    gateway_order_id: model.text().nullable(),
    amount: model.bigNumber(),
    currency_code: model.text().nullable(),
    /** "Completed" or "Failed", as the gateway reported the charge. */
    status: model.text(),
    attempts: model.number().nullable(),
    action_date: model.text().nullable(),
    /** The Medusa order of the plan's first payment. */
    order_id: model.text().nullable(),
  })
  .indexes([{ on: ["plan_code", "recurring_number"], unique: true }])
