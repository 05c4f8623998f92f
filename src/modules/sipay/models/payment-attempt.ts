import { model } from "@medusajs/framework/utils"

/**
 * One try at paying a payment session: one invoice id at the gateway. A session has attempt 1, 2, ...
 * (a decline, a retried form, a second tab). Only masked card numbers are kept.
 */
export const PaymentAttempt = model
  .define("sipay_payment_attempt", {
    id: model.id({ prefix: "spatt" }).primaryKey(),
    invoice_id: model.text().unique(),
    session_id: model.text().index(),
    cart_id: model.text().nullable(),
    attempt_number: model.number(),
    /** "3d" (hosted page or storefront form) or "2d" (direct). */
    flow: model.text(),
    amount: model.bigNumber(),
    currency_code: model.text(),
    /** "Auth" or "PreAuth", as sent to the gateway. */
    transaction_type: model.enum(["Auth", "PreAuth"]),
    installments: model.number().default(1),
    items: model.json(),
    status: model
      .enum(["pending", "paid", "authorized", "failed", "cancelled", "reversed"])
      .default("pending"),
    gateway_order_no: model.text().nullable(),
    masked_card: model.text().nullable(),
    error_code: model.text().nullable(),
    error_message: model.text().nullable(),
    order_id: model.text().nullable(),
    completed_at: model.dateTime().nullable(),
    metadata: model.json().nullable(),
  })
  .indexes([{ on: ["status"] }])
