import { model } from "@medusajs/framework/utils"

/**
 * A recurring plan the store opened: recorded once, when its first payment settled (the gateway has
 * no list operation, so the admin's list is read from these records). The facts the gateway keeps
 * (status, amount, number of payments, next charge) are refreshed from recurringPlan/query whenever
 * the plan is opened, charged or changed; `history` logs every change the admin made.
 */
export const RecurringPlanRecord = model
  .define("sipay_recurring_plan", {
    id: model.id({ prefix: "srplan" }).primaryKey(),
    plan_code: model.text().unique(),
    /** The invoice id of the plan's first payment (one of this plugin's attempts). */
    invoice_id: model.text().unique(),
    order_id: model.text().index().nullable(),
    customer_id: model.text().index().nullable(),
    email: model.text().nullable(),
    /** The amount of each later charge. */
    amount: model.bigNumber(),
    currency_code: model.text(),
    /** "D", "M" or "Y", every `interval` of them. */
    cycle: model.text(),
    interval: model.number(),
    /** Payments planned, the first included. */
    payment_number: model.number(),
    /** Completed payments, the first included. */
    charges_made: model.number().default(1),
    /** "Active", "Stopped" or "Completed", as the gateway last reported it. */
    status: model.text().default("Active"),
    /** The gateway's next charge date (Istanbul time, "YYYY-MM-DD HH:mm:ss"). */
    next_action_date: model.text().nullable(),
    refreshed_at: model.dateTime().nullable(),
    /** { entries: [{ at, actor, action, value, outcome, message? }] }: every admin action, done or refused. */
    history: model.json().nullable(),
  })
