import type { AmountInput } from "./amount"
import type { SipayBrand } from "./brands"
import type { SharedTokenStore } from "./token"

export type SipayLogger = {
  debug?(message: string): void
  info?(message: string): void
  warn?(message: string): void
  error?(message: string): void
}

export type SipayClientOptions = {
  brand?: SipayBrand
  baseUrl?: string
  /** Base of the payment-link operations; defaults to baseUrl, or the brand's panel base. */
  panelBaseUrl?: string
  appId: string
  appSecret: string
  merchantKey: string
  merchantId?: string | number
  /** Per request; default 30000. */
  timeoutMs?: number
  logger?: SipayLogger
  /** Shares the token with other processes (a cluster); without it each client fetches its own. */
  tokenStore?: SharedTokenStore
}

export type CurrencyCode = "TRY" | "USD" | "EUR"
export type RecurringCycle = "D" | "M" | "Y"

export type PaymentItem = { name: string; price: AmountInput; quantity: number; description: string }

export type BillingDetails = {
  address1?: string
  address2?: string
  city?: string
  postcode?: string
  state?: string
  country?: string
  email?: string
  phone?: string
}

export type PaymentRequest = {
  invoiceId: string
  invoiceDescription: string
  total: AmountInput
  currencyCode: CurrencyCode
  installmentsNumber: number
  name: string
  surname: string
  items: PaymentItem[]
  returnUrl?: string
  cancelUrl?: string
  transactionType?: "Auth" | "PreAuth"
  saleWebhookKey?: string
  billing?: BillingDetails
  ip?: string
  cardProgram?: string
  recurring?: { paymentNumber: number; cycle: RecurringCycle; interval: number; webhookKey?: string }
  agricultural?: { maturityPeriod: number; paymentFrequency: number }
  responseMethod?: "GET" | "POST"
  paymentCompletedBy?: "app" | "merchant"
}

export type CardInput = { holderName: string; number: string; expiryMonth: string; expiryYear: string; cvv: string }

export type CardBrand = "visa" | "mastercard" | "troy" | "amex" | "unknown"

/**
 * A card stored at the gateway, as getCardTokens lists it. `cardToken` is a secret (it pays with the
 * card): keep it on the server. The list carries no expiry in the published clients: null unless the
 * gateway sends one.
 */
export type StoredCard = {
  /** The gateway's id of the stored card (or its token where the gateway gives no id). */
  id: string
  cardToken: string
  /** 6 + **** + 4, as the gateway masks it. */
  maskedNumber: string
  last4: string
  brand: CardBrand
  bank: string | null
  expiryMonth: number | null
  expiryYear: number | null
  createdAt: string | null
}

/** Who pays with a stored card: its token and the customer it is stored for. */
export type SavedCardPayer = { cardToken: string; customerNumber: string | number; customerName: string; customerEmail: string; customerPhone?: string }

export type TokenInfo = { token: string; is3d: number; expiresAt: Date }

export type ConnectionMode = "2d-only" | "2d-or-3d" | "3d-only" | "hosted" | "unknown"

/** The decrypted parts of a result hash_key: status|total|invoice_id|order_id|currency_code. */
export type ResultHashParts = { status: string; total: string; invoiceId: string; orderId: string; currencyCode: string }

export type PaymentResult = {
  /**
   * status_code 100, payment_status 1 and a result hash that verifies against this request. Code 100 with
   * hashVerified false is not a decline: reconcile with checkStatus.
   */
  success: boolean
  statusCode: number | null
  statusDescription: string
  orderNo: string | null
  invoiceId: string
  paymentStatus: 0 | 1
  transactionType: string | null
  maskedCardNumber: string | null
  errorCode: string
  error: string
  hashVerified: boolean
  hashParts: ResultHashParts | null
  raw: unknown
}

/** A 3D redirect or sale webhook whose hash_key verified. */
export type VerifiedResult = {
  status: "1" | "0"
  /** From the hash, as a 2-decimal string. */
  total: string
  invoiceId: string
  orderId: string
  currencyCode: string
  paymentStatus: 0 | 1 | null
  transactionType: string | null
  statusCode: number | null
  maskedCardNumber: string | null
  errorCode: string
  error: string
  /** service_status (interface) or sipay_status (live gateway). */
  serviceStatus: string | null
  /** service_payment_method or sipay_payment_method. */
  servicePaymentMethod: string | null
  raw: Record<string, unknown>
}

export type TransactionStatus = {
  found: boolean
  status: "Completed" | "Failed" | "Pending" | string
  orderId: string | null
  invoiceId: string
  transactionId: string | null
  productPrice: string | null
  transactionAmount: string | null
  totalRefundedAmount: string
  transactionType: string | null
  installment: number | null
  currencyCode: string | null
  mdStatus: string | null
  reason: string | null
  statusCode: number | null
  raw: unknown
}

export type ConfirmPaymentResult = {
  statusCode: number | null
  transactionStatus: string | null
  orderId: string | null
  invoiceId: string
  raw: unknown
}

export type RefundOptions = { refundTransactionId?: string; refundWebhookKey?: string }
export type RefundResult = { orderNo: string | null; invoiceId: string; refNo: string | null; statusCode: number | null; raw: unknown }

export type CompletePaymentResult = {
  statusCode: number | null
  statusDescription: string
  /** "Completed" or "Failed" (data.status as published; transaction_status in the older top-level shape). */
  status: string | null
  orderId: string | null
  invoiceId: string
  raw: unknown
}

export type PosQuery = { bin: string; amount: AmountInput; currencyCode: CurrencyCode; is2d?: boolean; isRecurring?: boolean }

export type PosOption = {
  posId: number | null
  installmentsNumber: number | null
  cardType: string | null
  cardProgram: string | null
  cardScheme: string | null
  payableAmount: string | null
  amountToBePaid: string | null
  currencyCode: string | null
  currencyId: number | null
  title: string | null
  raw: Record<string, unknown>
}

export type CommissionsQuery = { currencyCode: CurrencyCode; commissionBy?: "merchant" | "user" }

/** One cell of the commission table: null rates where the program offers no such installment ('x' or '-'). */
export type CommissionRow = {
  installment: number
  cardProgram: string
  title: string | null
  merchantPercentage: number | null
  merchantFixed: number | null
  userPercentage: number | null
  userFixed: number | null
}

export type InstallmentsQuery = { bin?: string; amount?: AmountInput; currencyCode?: CurrencyCode }
export type InstallmentOptions = { installments: number[]; maturityPeriods: number[]; paymentFrequencies: number[]; raw: unknown }

export type TransactionsQuery = {
  date: string
  invoiceId?: string
  currencyId?: number | string
  paymentMethodId?: number | string
  minAmount?: number | string
  maxAmount?: number | string
  transactionState?: number | string
}

/** A sale record of getTransactions, as the interface's table shows it. */
export type SaleRecord = {
  id: number
  user_id: number
  merchant_id: number
  payment_id: string
  transaction_state_id: number
  transaction_state_label: string
  merchant_commission: number
  gross: number
  net: number
  payment_type_id: number
  payment_type_label: string
  product_price: number
  total_refunded_amount: number
  card_holder_bank: string
  operator: string
  user_name: string
  dpl_id: number
  currency_id: number
  currency_code: string
  invoice_id: string
  order_id: string
  credit_card_no: string
  installment: number
  rolling_amount: number
  gsm_number: string
  payment_source: number
  card_program: string | null
  card_issuer_name: string | null
  result: string
  settlement_date_merchant: string
  settlement_date_bank: string
  created_at: string
  updated_at: string
  recurring_id: number
  ip: string
  auth_code: string
  refunded_chargeback_fee: number
  pos_name: string
  rolling_balance?: { id: number; sale_id: number; effective_date: string }
  sale_billing?: { id: number; sale_id: number; card_holder_name: string }
  merchant_sale?: Record<string, number>
  refund_history?: unknown[]
  sale_recurring?: unknown
  sale_recurring_history?: unknown[]
  sale_integrator?: Record<string, unknown>
  userdata?: { id: number; name: string }
  merchant?: { user_id: number; name: string; mcc: string }
  [field: string]: unknown
}

export type PaymentLinkCurrency = 1 | 2 | 3 | CurrencyCode

export type PaymentLinkInput = {
  amount: AmountInput
  currency: PaymentLinkCurrency
  isAmountSetByUser: boolean
  /** name_of_product */
  name: string
  description: string
  photo: { data: Buffer | Uint8Array; filename: string; contentType: string }
  /** "YYYY-MM-DD", or a Date (its Istanbul calendar day). */
  expireDate: string | Date
  expireHour?: number
  maxNumberOfUses?: number
}

/** The payment link record (data.dpl); fields per the interface. */
export type PaymentLinkRecord = {
  id: number
  amount: number | string
  currency: number | string
  token: string
  status?: string
  expire_date?: string
  max_number_of_uses?: number
  number_of_uses?: number
  name_of_product?: string
  description?: string
  is_email_send?: number
  is_amount_set_by_user?: number
  [field: string]: unknown
}

export type PaymentLinkCreated = { dpl: PaymentLinkRecord; inputs: Record<string, unknown>; raw: unknown }
export type PaymentLinkSent = { dpl: PaymentLinkRecord; link: string; raw: unknown }

/** A recurring charge's outcome in one vocabulary: the webhook's Completed and the published history's Success are both "Completed". */
export type RecurringChargeStatus = "Completed" | "Failed"

/** One entry of a plan's transactionHistories, read from either shape. */
export type RecurringCharge = {
  recurringNumber: number | null
  /** null when the gateway's word is not one of the vocabulary's. */
  status: RecurringChargeStatus | null
  /** The word as the gateway sent it. */
  gatewayStatus: string | null
  attempts: number | null
  amount: string | null
  /** The charge's gateway order id, when the answer carries it. */
  orderId: string | null
  actionDate: string | null
  saleId: string | null
  remarks: string | null
}

export type RecurringPlan = {
  /** The plan's fields as the gateway sent them (top level or under data). */
  plan: Record<string, unknown> | null
  planCode: string | null
  /** The order id of the plan's first payment (first_order_id; order_id in the older nested shape). */
  firstOrderId: string | null
  /** The invoice id of the plan's first payment, when the answer carries it. */
  invoiceId: string | null
  recurringStatus: string | null
  nextActionDate: string | null
  transactionHistories: Record<string, unknown>[]
  charges: RecurringCharge[]
  raw: unknown
}
export type RecurringPlanUpdate = { planCode: string; amount?: AmountInput; status?: string | number; paymentNumber?: number }
export type RecurringPlanUpdated = { statusCode: number | null; statusDescription: string; raw: unknown }
