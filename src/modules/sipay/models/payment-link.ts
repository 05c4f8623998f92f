import { model } from "@medusajs/framework/utils"
import { PaymentLinkEmail } from "./payment-link-email"

/**
 * A multi-use payment link (DPL) as the gateway returned it (every field of the interface's record,
 * its timestamps as gateway_created_at / gateway_updated_at), the payer-facing address, what was sent
 * as the photo (never the image itself) and each e-mail send.
 */
export const PaymentLink = model
  .define("sipay_payment_link", {
    id: model.id({ prefix: "spl" }).primaryKey(),
    dpl_id: model.number().unique(),
    amount: model.bigNumber(),
    /** The gateway's link currency id: 1 TRY, 2 USD, 3 EUR. */
    currency: model.number(),
    currency_code: model.text(),
    payment_method: model.json().nullable(),
    type: model.number(),
    expire_date: model.text(),
    expire_time: model.number().nullable(),
    max_number_of_uses: model.number().default(0),
    number_of_uses: model.number().default(0),
    gsm: model.json().nullable(),
    email: model.json().nullable(),
    photo: model.json().nullable(),
    name_of_product: model.text().searchable(),
    description: model.text().searchable(),
    merchant_id: model.number().nullable(),
    created_by: model.number().nullable(),
    created_by_name: model.text().nullable(),
    modified_by: model.json().nullable(),
    modified_by_name: model.json().nullable(),
    token: model.text(),
    /** ACTIVE, EXPIRED or USED (the sandbox's values; the interface shows ACTIVE). */
    status: model.text(),
    is_email_send: model.number().default(0),
    distance_sale_status: model.number().nullable(),
    is_amount_set_by_user: model.number(),
    gateway_created_at: model.text().nullable(),
    gateway_updated_at: model.text().nullable(),
    /** data.inputs of the create answer: the gateway's echo of what it received. */
    inputs: model.json().nullable(),
    /** The payer-facing address {link_base}/dplLink/<token>. */
    link: model.text(),
    photo_filename: model.text().nullable(),
    photo_content_type: model.text().nullable(),
    photo_size: model.number().nullable(),
    /** When uses and status were last brought up to date, and from where ("create", "sendemail", "transactions"). */
    synced_at: model.dateTime().nullable(),
    synced_from: model.text().nullable(),
    emails: model.hasMany(() => PaymentLinkEmail, { mappedBy: "payment_link" }),
  })
  .cascades({ delete: ["emails"] })
  .indexes([{ on: ["status"] }])
