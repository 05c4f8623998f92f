import { model } from "@medusajs/framework/utils"
import { PaymentLink } from "./payment-link"

/** One dpl/sendemail request: its recipients, when, and whether the gateway accepted it (with its error if not). */
export const PaymentLinkEmail = model.define("sipay_payment_link_email", {
  id: model.id({ prefix: "splem" }).primaryKey(),
  recipients: model.json(),
  sent_at: model.dateTime(),
  outcome: model.enum(["sent", "failed"]),
  /** The gateway's statuscode, or the client's error code when no answer came. */
  error_code: model.text().nullable(),
  error_message: model.text().nullable(),
  payment_link: model.belongsTo(() => PaymentLink, { mappedBy: "emails" }),
})
