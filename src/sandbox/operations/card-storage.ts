import { validateHashKey } from "../../lib/sipay/hash"
import { luhnValid } from "../cards"
import { CODES, fail, optionalField, requireField } from "../core/codes"
import type { Gateway } from "../core/gateway"
import { envelope, type Reply } from "../http/io"
import type { RequestContext } from "../http/router"
import { checkExpiry } from "../payments/request"
import { cardListEntry, cardsOfCustomer, customerNumberOf, newCardSecrets, storedCardOf } from "../saved-cards/records"
import { requestMerchant } from "./merchant-request"

/**
 * Card storage: saveCard, getCardTokens, editCard, deleteCard, with the fields, hash parts and
 * answers of the published clients (sipay-node src/resources/cards.ts and src/types; the PHP SDK's
 * CreateCardRequest, UpdateCardRequest, DeleteCardRequest, RetrieveCardListRequest and mappers).
 */

const text = (body: Record<string, unknown>, field: string) => (body[field] === undefined || body[field] === null ? "" : String(body[field]))

/** The request's hash_key signs one of `layouts` (each the parts in order), with the app secret; else 90. */
function requireHashOf(body: Record<string, unknown>, secret: string, layouts: string[][]): void {
  const parts = validateHashKey(requireField(body, "hash_key"), secret)
  const signed = parts ? parts.join("|") : null
  if (signed === null || !layouts.some((layout) => layout.join("|") === signed)) fail(CODES.INVALID_HASH, "Invalid hash key.")
}

/**
 * POST /api/saveCard. The two published clients sign it differently: the PHP SDK
 * merchant_key|customer_number|card_holder_name|card_number|expiry_month|expiry_year, sipay-node the
 * same without card_number; both are accepted. Answers the new card's token at the top level.
 */
export function saveCard(ctx: RequestContext, gateway: Gateway): Reply {
  const merchant = requestMerchant(ctx, gateway)
  for (const field of ["card_holder_name", "card_number", "expiry_month", "expiry_year", "customer_number", "hash_key"]) requireField(ctx.body, field)
  const body = ctx.body
  const customerNumber = customerNumberOf(body, merchant)
  const signed = [merchant.merchant_key, text(body, "customer_number"), text(body, "card_holder_name")]
  const expiry = [text(body, "expiry_month"), text(body, "expiry_year")]
  requireHashOf(body, merchant.app_secret, [[...signed, text(body, "card_number"), ...expiry], [...signed, ...expiry]])
  const holderName = text(body, "card_holder_name").trim()
  if (holderName.length > 100) fail(CODES.VALIDATION, "The card holder name may not be greater than 100 characters.")
  const number = text(body, "card_number").replace(/\s+/g, "")
  if (!luhnValid(number)) fail(CODES.VALIDATION, "The card number is not a valid card number.")
  const { month, year } = checkExpiry(body.expiry_month, body.expiry_year, gateway)
  const now = gateway.clock.now()
  const card = {
    id: gateway.store.nextId("saved_card", 1401),
    ...newCardSecrets(),
    merchant_key: merchant.merchant_key,
    customer_number: customerNumber,
    customer_name: optionalField(body, "customer_name"),
    customer_email: optionalField(body, "customer_email"),
    customer_phone: optionalField(body, "customer_phone"),
    holder_name: holderName,
    bin: number.slice(0, 6),
    last4: number.slice(-4),
    expiry_month: month,
    expiry_year: year,
    created_at_ms: now,
    updated_at_ms: now,
  }
  gateway.store.state.saved_cards.push(card)
  gateway.store.save()
  return envelope(CODES.SUCCESS, "The card token saved successfully", { card_token: card.card_token })
}

/** GET (both published clients, a JSON body) or POST /api/getCardTokens: the customer's cards, oldest first. */
export function getCardTokens(ctx: RequestContext, gateway: Gateway): Reply {
  const merchant = requestMerchant(ctx, gateway)
  const cards = cardsOfCustomer(gateway, merchant, customerNumberOf(ctx.body, merchant))
  return envelope(CODES.SUCCESS, "Data fetched successfully", { data: cards.map((card) => cardListEntry(card, merchant)) })
}

/** POST /api/editCard: new expiry (and holder name), hash merchant_key|customer_number|card_token; the token stays. */
export function editCard(ctx: RequestContext, gateway: Gateway): Reply {
  const merchant = requestMerchant(ctx, gateway)
  for (const field of ["customer_number", "card_token", "expiry_month", "expiry_year", "hash_key"]) requireField(ctx.body, field)
  requireHashOf(ctx.body, merchant.app_secret, [[merchant.merchant_key, text(ctx.body, "customer_number"), text(ctx.body, "card_token")]])
  const card = storedCardOf(ctx.body, merchant, gateway)
  const { month, year } = checkExpiry(ctx.body.expiry_month, ctx.body.expiry_year, gateway)
  const holderName = optionalField(ctx.body, "card_holder_name")
  if (holderName.length > 100) fail(CODES.VALIDATION, "The card holder name may not be greater than 100 characters.")
  Object.assign(card, { expiry_month: month, expiry_year: year, ...(holderName ? { holder_name: holderName } : {}), updated_at_ms: gateway.clock.now() })
  gateway.store.save()
  return envelope(CODES.SUCCESS, "Card updated successfully", { card_token: card.card_token })
}

/** POST /api/deleteCard: hash merchant_key|customer_number|card_token; an unknown (or already deleted) token is invalid (1). */
export function deleteCard(ctx: RequestContext, gateway: Gateway): Reply {
  const merchant = requestMerchant(ctx, gateway)
  for (const field of ["customer_number", "card_token", "hash_key"]) requireField(ctx.body, field)
  requireHashOf(ctx.body, merchant.app_secret, [[merchant.merchant_key, text(ctx.body, "customer_number"), text(ctx.body, "card_token")]])
  const card = storedCardOf(ctx.body, merchant, gateway)
  gateway.store.state.saved_cards = gateway.store.state.saved_cards.filter((candidate) => candidate !== card)
  gateway.store.save()
  return envelope(CODES.SUCCESS, "Card deleted successfully")
}
