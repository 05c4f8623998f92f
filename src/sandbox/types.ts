/** Shapes shared by the sandbox's parts. The gateway's wire names are kept where they are stored as-is. */

import type { LaterCharges } from "./cards"

export type Is3d = 0 | 1 | 2 | 4

export type MerchantConfig = {
  merchant_id: number | string
  merchant_key: string
  app_id: string
  app_secret: string
  /** 0 = 2D only, 1 = 2D or 3D, 2 = 3D only, 4 = branded/hosted (3D only here). Default 1. */
  is_3d?: Is3d
  /** Installment counts assigned to the merchant. Default [1, 2, 3, 6, 9, 12]. */
  installments?: number[]
  /** Sale webhook key -> URL, as assigned on the merchant panel. */
  sale_webhooks?: Record<string, string>
  /** Recurring webhook key -> URL. */
  recurring_webhooks?: Record<string, string>
  /** Shown on the bank page. */
  name?: string
  /** Cells of the commission table (/api/commissions, getpos) that differ from the default table (core/commissions.ts). */
  commissions?: CommissionOverride[]
}

/** One cell of the commission table: a card program and an installment count, with the rates that differ. */
export type CommissionOverride = {
  card_program: string
  installment: number
  merchant_commission_percentage?: number
  merchant_commission_fixed?: number
  user_commission_percentage?: number
  user_commission_fixed?: number
}

/** A merchant as a config file may give it: credentials left out are derived from the data file's seed. */
export type MerchantSetting = Omit<MerchantConfig, "merchant_id" | "merchant_key" | "app_id" | "app_secret"> &
  Partial<Pick<MerchantConfig, "merchant_id" | "merchant_key" | "app_id" | "app_secret">>

export type Merchant = Required<MerchantConfig>

export type Currency = "TRY" | "USD" | "EUR"

export type TokenRecord = { token: string; merchant_key: string; expires_at_ms: number }

export type TransactionType = "Auth" | "Pre-Authorization"

/**
 * Lifecycle of a sale:
 * - "pending": 3D bank page not finished (or awaiting /payment/complete, see awaiting_merchant)
 * - "completed": money taken (Auth) or reserved (Pre-Authorization, see preauth)
 * - "failed": declined, cancelled on the bank page, or cancelled by the merchant
 */
export type SaleState = "pending" | "completed" | "failed"

export type PreAuthState = "reserved" | "confirmed" | "cancelled" | "expired"

export type RefundRecord = {
  amount_minor: number
  ref_no: string
  refund_transaction_id: string | null
  created_at_ms: number
}

export type SaleItem = { name: string; price_minor: number; quantity: number; description: string }

export type CardSnapshot = {
  masked: string
  bin: string
  last4: string
  holder_name: string
  /** The test card's outcome (cards.ts), so the number itself is never stored. */
  outcome: string
  /** How the card's later recurring charges go (cards.ts); absent: approved. */
  later_charges?: LaterCharges
  scheme: string
  program: string
  card_type: string
  bank: string
}

export type RecurringRequest = {
  payment_number: number
  cycle: "D" | "M" | "Y"
  interval: number
  webhook_key: string
}

export type SaleRecord = {
  id: number
  order_id: string
  transaction_id: string
  merchant_key: string
  invoice_id: string
  invoice_description: string
  integration: "2D" | "3D"
  state: SaleState
  transaction_type: TransactionType
  currency_code: Currency
  installments: number
  total_minor: number
  /** Amount actually taken: total for Auth, confirmed total after a pre-auth completion, 0 otherwise. */
  captured_minor: number
  refunded_minor: number
  refunds: RefundRecord[]
  preauth: { state: PreAuthState; reserved_at_ms: number; settled_at_ms: number | null } | null
  /** 3D with payment_completed_by=merchant: authorised at the bank, waiting for /payment/complete. */
  awaiting_merchant: boolean
  payment_completed_by: "app" | "merchant"
  status_code: number
  status_description: string
  error: string
  md_status: string
  auth_code: string
  /** checkstatus `reason` beyond the state: decline text, 'Cancelled', 'Expired'. */
  reason: string
  card: CardSnapshot
  items: SaleItem[]
  payer: Record<string, string>
  return_url: string
  cancel_url: string
  response_method: "GET" | "POST"
  sale_webhook_key: string
  recurring: RecurringRequest | null
  agricultural: { maturity_period: number; payment_frequency: number } | null
  /** Secret of the bank page link for 3D sales. */
  bank_session: string | null
  lang: "tr" | "en"
  /** The payment link a payer paid through (0: none). */
  dpl_id: number
  /** The recurring plan the sale belongs to, first payment included (0: not recurring). */
  recurring_id: number
  /** Set by the chargeback test control: the sale is then state 11 'Chargebacked'. */
  chargeback_at_ms?: number | null
  /** A payment with a stored card (payByCardToken, payByCardTokenNonSecure): which card, of which customer. */
  saved_card?: { id: number; customer_number: string } | null
  created_at_ms: number
  updated_at_ms: number
}

export type WebhookLogEntry = {
  kind: "sale" | "recurring" | "refund"
  url: string
  key: string
  body: Record<string, string>
  /** HTTP status of the receiver's answer; 0 when the delivery failed (see error). */
  status: number
  error?: string
  attempt: number
  sent_at: string
}

export type OutboxEntry = { to: string; subject: string; link: string; dpl_id: number; sent_at: string }

/** A multi-use payment link (DPL) as stored; the wire record is built by links/view.ts. */
export type PaymentLink = {
  id: number
  merchant_key: string
  token: string
  amount_minor: number
  currency_id: 1 | 2 | 3
  is_amount_set_by_user: 0 | 1
  name_of_product: string
  description: string
  /** The accepted product_photo: its content type and size only, not its bytes. */
  photo: { content_type: string; size: number; filename: string }
  expires_at_ms: number
  /** Hours from creation to expiry (the record's expire_time). */
  expire_time: number
  /** 0 = unlimited. */
  max_number_of_uses: number
  number_of_uses: number
  status: "ACTIVE" | "EXPIRED" | "USED"
  is_email_send: 0 | 1
  /** The submitted text fields, echoed as data.inputs. */
  inputs: Record<string, string>
  created_at_ms: number
  updated_at_ms: number
}

export type RecurringCharge = {
  recurring_number: number
  sale_id: number
  order_id: string
  amount_minor: number
  status: "Completed" | "Failed"
  attempts: number
  action_date_ms: number
}

/** The schedule opened by a completed payment with order_type 1; its first payment is charge 1. */
export type RecurringPlan = {
  id: number
  plan_code: string
  merchant_key: string
  invoice_id: string
  first_sale_id: number
  currency_code: Currency
  amount_minor: number
  cycle: RecurringRequest["cycle"]
  interval: number
  payment_number: number
  webhook_key: string
  status: "Active" | "Stopped" | "Completed"
  /** Charge n is due at anchor + (n - 1) × interval cycles (Istanbul calendar). */
  anchor_ms: number
  charges: RecurringCharge[]
  created_at_ms: number
  updated_at_ms: number
}

/**
 * A card stored by saveCard, bound to its merchant and a numeric customer_number. Like a sale it
 * keeps no card number: its bin and last 4 digits find the test card's outcome when it pays.
 */
export type SavedCardRecord = {
  id: number
  card_token: string
  card_user_key: string
  merchant_key: string
  customer_number: string
  customer_name: string
  customer_email: string
  customer_phone: string
  holder_name: string
  bin: string
  last4: string
  expiry_month: number
  expiry_year: number
  created_at_ms: number
  updated_at_ms: number
}
