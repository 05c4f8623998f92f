import { SipayError } from "./errors"
import { cardPaymentFields, validateCard, validatePaymentRequest } from "./payment-fields"
import { text, toPaymentResult } from "./results"
import { expectSuccess, type GatewayAnswer, type GatewayCall } from "./transport"
import type { CardBrand, CardInput, PaymentRequest, PaymentResult, SavedCardPayer, StoredCard } from "./types"
import { hashPartsOf, signFields, type OperationName } from "./wire"
import { generateHashKey } from "./hash"

/**
 * Cards stored at the gateway for a merchant's customer (a numeric customer_number), and payments
 * with them: saveCard, getCardTokens, editCard, deleteCard, payByCardToken (3D: the bank's page as
 * HTML for the shopper's browser) and payByCardTokenNonSecure (direct). Shapes and hash parts as the
 * published clients send them (sipay-node src/resources/cards.ts, the PHP SDK's card requests).
 * A card token is a secret: it is never logged (redact.ts) and StoredCard is its only carrier.
 */

type Credentials = { merchantKey: string; appSecret: string }
type Caller = { call(request: GatewayCall): Promise<GatewayAnswer>; url(operation: OperationName): string; credentials(): Credentials }

const CUSTOMER_NUMBER = /^\d{1,18}$/

function invalid(operation: string, description: string): SipayError {
  return new SipayError({ operation, description, code: "validation", retryable: false })
}

function customerNumberOf(operation: string, value: string | number): string {
  const number = String(value).trim()
  if (!CUSTOMER_NUMBER.test(number)) {
    throw invalid(operation, "customerNumber must be 1 to 18 digits")
  }
  return number
}

function cardTokenOf(operation: string, value: string): string {
  if (typeof value !== "string" || !/^[A-Za-z0-9_-]{8,128}$/.test(value)) {
    throw invalid(operation, "cardToken must be the token the gateway gave the card")
  }
  return value
}

/** The brand of a card from its first digits (the list gives the masked number only). */
export function cardBrandOf(bin: string): CardBrand {
  const digits = String(bin).replace(/\D/g, "")
  const two = Number(digits.slice(0, 2))
  const four = Number(digits.slice(0, 4))
  if (digits.startsWith("9792") || digits.startsWith("65")) return "troy"
  if (digits.startsWith("4")) return "visa"
  if ((two >= 51 && two <= 55) || (four >= 2221 && four <= 2720)) return "mastercard"
  if (two === 34 || two === 37) return "amex"
  return "unknown"
}

const integerOrNull = (value: unknown) => (value === undefined || value === null || value === "" || !Number.isFinite(Number(value)) ? null : Number(value))

/** One entry of getCardTokens' `data` (PHP SDK CardMapper, sipay-node SavedCard): expiry only if the gateway sends it. */
export function toStoredCard(entry: Record<string, any>): StoredCard | null {
  const cardToken = text(entry.card_token)
  const masked = text(entry.card_number)
  if (!cardToken || !masked) {
    return null
  }
  const digits = masked.replace(/[^0-9*]/g, "")
  const bin = /^\d{6}/.exec(digits)?.[0] ?? ""
  return {
    id: text(entry.id) ?? cardToken,
    cardToken,
    maskedNumber: masked,
    last4: /\d{4}$/.exec(digits)?.[0] ?? "",
    brand: cardBrandOf(bin),
    bank: text(entry.card_issuer_bank),
    expiryMonth: integerOrNull(entry.expiry_month),
    expiryYear: integerOrNull(entry.expiry_year),
    createdAt: text(entry.created_at),
  }
}

export class SipayCardStorage {
  constructor(private readonly gateway: Caller) {}

  /** Stores a card for a customer; answers its token (a secret: give it to no one but the gateway). */
  async save(customerNumber: string | number, card: Omit<CardInput, "cvv">, customer: { name: string; email: string; phone?: string }): Promise<{ cardToken: string }> {
    const operation = "saveCard"
    validateCard(operation, { ...card, cvv: "000" })
    const { merchantKey, appSecret } = this.gateway.credentials()
    const fields = {
      merchant_key: merchantKey,
      customer_number: customerNumberOf(operation, customerNumber),
      card_holder_name: card.holderName.trim(),
      card_number: card.number.replace(/[\s-]/g, ""),
      expiry_month: String(Number(card.expiryMonth)),
      expiry_year: card.expiryYear.trim().length === 2 ? `20${card.expiryYear.trim()}` : card.expiryYear.trim(),
      customer_name: customer.name,
      customer_email: customer.email,
      customer_phone: customer.phone ?? "",
    }
    const answer = await this.gateway.call({ operation, url: this.gateway.url(operation), body: signFields("saveCard", fields, appSecret) })
    expectSuccess(operation, answer)
    const cardToken = text(answer.envelope.card_token ?? answer.envelope.data?.card_token)
    if (!cardToken) {
      throw new SipayError({ operation, description: "the gateway answered no card_token", code: "invalid_response" })
    }
    return { cardToken }
  }

  /** The customer's cards, as the gateway lists them now (an unknown customer has none). */
  async list(customerNumber: string | number): Promise<StoredCard[]> {
    const operation = "getCardTokens"
    const { merchantKey } = this.gateway.credentials()
    const body = { merchant_key: merchantKey, customer_number: customerNumberOf(operation, customerNumber) }
    const answer = await this.gateway.call({ operation, url: this.gateway.url(operation), body })
    expectSuccess(operation, answer)
    const rows: unknown[] = Array.isArray(answer.envelope.data) ? answer.envelope.data : []
    return rows.filter((row): row is Record<string, any> => row !== null && typeof row === "object").flatMap((row) => toStoredCard(row) ?? [])
  }

  /** A new expiry (and holder name) for a stored card; the token stays. */
  async edit(customerNumber: string | number, cardToken: string, change: { expiryMonth: string; expiryYear: string; holderName?: string }): Promise<void> {
    const operation = "editCard"
    const fields = {
      ...this.tokenFields(operation, customerNumber, cardToken),
      expiry_month: String(Number(change.expiryMonth)),
      expiry_year: change.expiryYear.trim(),
      ...(change.holderName ? { card_holder_name: change.holderName.trim() } : {}),
    }
    expectSuccess(operation, await this.gateway.call({ operation, url: this.gateway.url(operation), body: fields }))
  }

  /** Deletes a stored card. An unknown (or already deleted) token is a SipayError of the gateway's code (1). */
  async delete(customerNumber: string | number, cardToken: string): Promise<void> {
    const operation = "deleteCard"
    const body = this.tokenFields(operation, customerNumber, cardToken)
    expectSuccess(operation, await this.gateway.call({ operation, url: this.gateway.url(operation), body }))
  }

  /**
   * A 3D payment with a stored card: the bank's page (HTML) to show in the shopper's browser, which
   * then comes back to returnUrl / cancelUrl like a paySmart3D payment. A refusal is a SipayError.
   */
  async payWith3D(request: PaymentRequest, payer: SavedCardPayer): Promise<{ html: string }> {
    const operation = "payByCardToken"
    validatePaymentRequest(operation, request, { requireUrls: true })
    const answer = await this.gateway.call({ operation, url: this.gateway.url(operation), body: this.paymentBody(operation, request, payer), invoiceId: request.invoiceId })
    if (typeof answer.html === "string" && answer.html.trim() !== "") {
      return { html: answer.html }
    }
    expectSuccess(operation, answer)
    throw new SipayError({ operation, description: "the gateway answered no bank page", code: "outcome_unknown" })
  }

  /** A direct payment with a stored card: like paySmart2D, a declined card is a result with success false. */
  async payDirect(request: PaymentRequest, payer: SavedCardPayer): Promise<PaymentResult> {
    const operation = "payByCardTokenNonSecure"
    validatePaymentRequest(operation, request, { requireUrls: false })
    const body = this.paymentBody(operation, request, payer)
    const answer = await this.gateway.call({ operation, url: this.gateway.url(operation), body, invoiceId: request.invoiceId })
    if (answer.body === null || typeof answer.body !== "object" || Array.isArray(answer.body)) {
      throw new SipayError({ operation, description: "answer is not an object", code: "outcome_unknown" })
    }
    return toPaymentResult(answer.body, { invoiceId: request.invoiceId, total: String(body.total), currencyCode: request.currencyCode }, this.gateway.credentials().appSecret)
  }

  private tokenFields(operation: string, customerNumber: string | number, cardToken: string) {
    const { merchantKey, appSecret } = this.gateway.credentials()
    const fields = { merchant_key: merchantKey, customer_number: customerNumberOf(operation, customerNumber), card_token: cardTokenOf(operation, cardToken) }
    return { ...fields, hash_key: generateHashKey(hashPartsOf("cardToken", fields), appSecret) }
  }

  private paymentBody(operation: string, request: PaymentRequest, payer: SavedCardPayer) {
    const { merchantKey, appSecret } = this.gateway.credentials()
    return {
      ...cardPaymentFields(request, merchantKey, appSecret),
      card_token: cardTokenOf(operation, payer.cardToken),
      customer_number: customerNumberOf(operation, payer.customerNumber),
      customer_name: payer.customerName,
      customer_email: payer.customerEmail,
      customer_phone: payer.customerPhone ?? "",
    }
  }
}
