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
  installment_fees: InstallmentFeeRules
  installment_fee_tax: "inclusive" | "exclusive"
}

/** Per installment count ("2".."12"): a count not listed is absorbed by the store. */
export type InstallmentFeeRules = Record<string, { mode: "absorb" } | { mode: "gateway" } | { mode: "own"; percentage: number; fixed: number }>

export type InstallmentPreviewAnswer = {
  amount: string
  currency_code: string
  table: { card_program: string; title: string; options: { installments: number; fee: string; total: string; per_installment: string }[] }[]
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
  /** What an enabled feature lacks (codes the admin words: settings.setupWarnings.<code>). */
  setup_warnings?: { code: string; message: string }[]
  /** Configuration refusals of the last 7 days (settings.problems.<code>). */
  configuration_problems?: { code: string; message: string; last_seen_at: string; count: number }[]
}

export type ConnectionAnswer = {
  ok: boolean
  checks?: { token: string; merchant_key: string }
  /** When ok is false: what the merchant key check found (settings.keyCheck.<code>). */
  problem_code?: string
  problem?: string
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
