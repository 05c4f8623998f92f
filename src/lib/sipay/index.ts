/** medusa-plugin-sipay/client: the standalone CCPayment gateway client (no Medusa imports). */
export { SipayClient } from "./client"
export { SipayCardStorage, cardBrandOf } from "./cards"
export { generateHashKey, validateHashKey } from "./hash"
export type { HashKeyOptions } from "./hash"
export { amountsEqual, formatAmount, fromMinorUnits, toMinorUnits } from "./amount"
export type { AmountInput } from "./amount"
export { BRAND_PRESETS } from "./brands"
export type { BrandPreset, SipayBrand } from "./brands"
export { STATUS_CODES, describeStatusCode } from "./status-codes"
export type { StatusCodeInfo } from "./status-codes"
export { SipayError, isSipayError } from "./errors"
export type { SipayClientErrorCode, SipayErrorInit } from "./errors"
export { redact, maskCardNumber } from "./redact"
export type { RedactOptions } from "./redact"
export { parseExpiresAt } from "./token"
export type { SharedTokenStore } from "./token"
export {
  BILLING_FIELD_NAMES,
  CARD_FIELD_NAMES,
  HASH_PARTS,
  OPERATIONS,
  hashPartsOf,
} from "./wire"
export type { HashedOperation, OperationName } from "./wire"
export { LINK_CURRENCY_IDS } from "./payment-links"
export { decryptResultHash } from "./results"
export { recurringChargeStatus } from "./recurring"
export { webhookFields } from "./webhook-body"
export { classifyTransaction, PRE_AUTHORIZATION } from "./outcome"
export type { GatewayOutcome, TransactionView } from "./outcome"
export type * from "./types"
export { configurationCauseOf, isConfigurationCause, CONFIGURATION_CAUSES } from "./configuration-refusal"
export type { ConfigurationCause } from "./configuration-refusal"
