import { model } from "@medusajs/framework/utils"

/**
 * The store owner's checkout settings (one row): each null field falls back to the plugin option.
 * Never credentials: those stay in the options and the environment.
 */
export const CheckoutSetting = model.define("sipay_checkout_setting", {
  id: model.id({ prefix: "sset" }).primaryKey(),
  capture: model.boolean().nullable(),
  three_d_enabled: model.boolean().nullable(),
  direct_payment_enabled: model.boolean().nullable(),
  sale_webhook_key: model.text().nullable(),
  recurring_webhook_key: model.text().nullable(),
  max_installments: model.number().nullable(),
  agricultural_installments: model.boolean().nullable(),
  storefront_url: model.text().nullable(),
  success_url: model.text().nullable(),
  failure_url: model.text().nullable(),
  description_template: model.text().nullable(),
  installment_fees: model.json().nullable(),
  installment_fee_tax: model.text().nullable(),
})
