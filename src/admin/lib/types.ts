/** Shapes of the plugin's admin API, as the admin pages read them. */
export type PaymentLinkEmailSend = {
  id: string
  recipients: string[]
  sent_at: string
  outcome: "sent" | "failed"
  error_code: string | null
  error_message: string | null
}

export type PaymentLink = {
  id: string
  dpl_id: number
  amount: string
  currency: number
  currency_code: string
  is_amount_set_by_user: boolean
  name_of_product: string
  description: string
  expire_date: string
  expire_time: number | null
  max_number_of_uses: number
  number_of_uses: number
  status: string
  is_email_send: number
  token: string
  link: string
  photo_filename: string | null
  photo_content_type: string | null
  photo_size: number | null
  synced_at: string | null
  synced_from: string | null
  created_at: string
  emails: PaymentLinkEmailSend[]
  emailed: { count: number; recipients: string[]; last_sent_at: string | null }
  [field: string]: unknown
}

export type PaymentLinkList = { payment_links: PaymentLink[]; count: number; limit: number; offset: number }

export type SettingsFields = {
  capture: boolean
  three_d_enabled: boolean
  direct_payment_enabled: boolean
  sale_webhook_key: string | null
  recurring_webhook_key: string | null
  max_installments: number
  agricultural_installments: boolean
  storefront_url: string | null
  success_url: string | null
  failure_url: string | null
  /** null: the built-in description, in the customer's language. */
  description_template: string | null
}

export type SettingsAnswer = {
  settings: SettingsFields
  stored: { [K in keyof SettingsFields]: SettingsFields[K] | "" | null }
  defaults: SettingsFields
  updated_at: string | null
  credentials: {
    brand: string | null
    base_url: string
    panel_base_url: string
    link_base_url: string
    merchant_id: string | null
    app_id: string | null
    merchant_key: string | null
    app_secret_configured: boolean
  }
}

export type ConnectionAnswer = {
  ok: boolean
  brand: string | null
  brand_name: string
  is_3d: number
  mode: string
  meaning: string
  warnings: string[]
  /** One per warning, in the same order: what the admin words in the user's language. */
  warning_codes?: string[]
  base_url: string
  tested_at: string
}
