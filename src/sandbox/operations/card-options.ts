import { amountNumber, parseAmount } from "../core/amounts"
import { CODES, fail, optionalField, requireField } from "../core/codes"
import type { Gateway } from "../core/gateway"
import { envelope, type Reply } from "../http/io"
import type { RequestContext } from "../http/router"
import { findCardByBin } from "../cards"
import { CURRENCIES } from "../payments/request"
import { CURRENCY_IDS } from "../payments/status"
import type { Currency } from "../types"
import { requestMerchant } from "./merchant-request"

function binOf(value: string): string {
  const digits = value.replace(/\s+/g, "")
  if (!/^\d{6,19}$/.test(digits)) fail(CODES.VALIDATION, "The credit_card must be the card's first 6 digits (or the card number).")
  return digits.slice(0, 6)
}

/** POST /api/getpos: one POS entry per installment the merchant and the card's program allow. */
export function getPos(ctx: RequestContext, gateway: Gateway): Reply {
  const merchant = requestMerchant(ctx, gateway)
  const bin = binOf(requireField(ctx.body, "credit_card"))
  const amount = parseAmount(requireField(ctx.body, "amount"))
  if (amount === null) fail(CODES.VALIDATION, "The amount must be a non-negative amount.")
  const currency = requireField(ctx.body, "currency_code") as Currency
  if (!CURRENCIES.includes(currency)) fail(CODES.INVALID_CURRENCY, "Invalid currency code.")
  const card = findCardByBin(bin)
  if (!card || card.outcome === "pos_not_defined") fail(CODES.POS_NOT_DEFINED, "Pos was not defined")
  const recurring = ["1", "true"].includes(optionalField(ctx.body, "is_recurring").toLowerCase())
  const counts = merchant.installments.filter((n) => card.installments.includes(n) && (!recurring || n === 1))
  // Rows as the 2021 docs (03.taksit-bilgisi-alma) and sipay-node's PosInfo show them.
  return envelope(CODES.SUCCESS, "Success", {
    data: counts.map((n) => ({
      pos_id: 1,
      campaign_id: 0,
      allocation_id: 0,
      installments_number: n,
      card_type: card.card_type,
      card_program: card.program,
      card_scheme: card.scheme,
      is_commercial: 0,
      payable_amount: amountNumber(amount),
      amount_to_be_paid: (amount / 100).toFixed(2),
      currency_code: currency,
      currency_id: CURRENCY_IDS[currency],
      title: n === 1 ? "Single payment" : `${n} Installments`,
    })),
  })
}

/** POST /api/installments: the merchant's installment counts; the agricultural card's BIN adds its terms. */
export function installments(ctx: RequestContext, gateway: Gateway): Reply {
  const merchant = requestMerchant(ctx, gateway)
  if (merchant.installments.length === 0) fail(CODES.NO_INSTALLMENTS, "No installments assigned to the merchant.")
  const cardField = optionalField(ctx.body, "credit_card")
  const card = cardField ? findCardByBin(binOf(cardField)) : undefined
  const counts = card ? merchant.installments.filter((n) => card.installments.includes(n)) : merchant.installments
  // sipay-node's InstallmentsResponse reads `message` ("Merchant Active Installment" in the docs).
  return envelope(CODES.SUCCESS, "Success", {
    message: "Merchant Active Installment",
    installments: counts,
    ...(card?.agricultural ? { maturity_period: card.agricultural.maturity_period, payment_frequency: card.agricultural.payment_frequency } : {}),
  })
}
