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
import { CARD_PROGRAMS, commissionRate, userCommission } from "../core/commissions"

function binOf(value: string): string {
  const digits = value.replace(/\s+/g, "")
  if (!/^\d{6,19}$/.test(digits)) fail(CODES.VALIDATION, "The credit_card must be the card's first 6 digits (or the card number).")
  return digits.slice(0, 6)
}

/**
 * POST /api/getpos: one POS entry per installment the merchant and the card's program allow.
 * `payable_amount` (a number) and `amount_to_be_paid` (2 decimals) are what the payer pays for that
 * count: the amount plus the end-user commission of the card program's row in the commission table.
 */
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
    data: counts.map((n) => {
      const rate = commissionRate(merchant, card.program, n)
      const payable = amount + (rate ? userCommission(amount, rate) : 0)
      return {
      pos_id: 1,
      campaign_id: 0,
      allocation_id: 0,
      installments_number: n,
      card_type: card.card_type,
      card_program: card.program,
      card_scheme: card.scheme,
      is_commercial: 0,
      payable_amount: amountNumber(payable),
      amount_to_be_paid: (payable / 100).toFixed(2),
      currency_code: currency,
      currency_id: CURRENCY_IDS[currency],
      title: n === 1 ? "Single payment" : `${n} Installments`,
      }
    }),
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

/**
 * POST /api/commissions (sipay-php-sdk RetrieveCommissionRequest, sipay-node CommissionRequest):
 * `currency_code`, optional `commission_by` (merchant | user) -> `data` keyed by installment count,
 * one row per card program. The merchant is the bearer token's.
 */
export function commissions(ctx: RequestContext, gateway: Gateway): Reply {
  // The published clients send no merchant_key here; one sent must be the token's merchant.
  const merchant = optionalField(ctx.body, "merchant_key") ? requestMerchant(ctx, gateway) : ctx.merchant
  if (!merchant) fail(CODES.MERCHANT_NOT_FOUND, "Merchant not found.")
  const currency = requireField(ctx.body, "currency_code") as Currency
  if (!CURRENCIES.includes(currency)) fail(CODES.INVALID_CURRENCY, "Invalid currency code.")
  const by = optionalField(ctx.body, "commission_by") || "merchant"
  if (by !== "merchant" && by !== "user") fail(CODES.VALIDATION, "The commission_by must be merchant or user.")
  if (merchant.installments.length === 0) fail(CODES.NO_INSTALLMENTS, "No installments assigned to the merchant.")
  const programs = [...CARD_PROGRAMS.map((entry) => entry.program), ...merchant.commissions.map((row) => row.card_program)].filter((p, i, all) => all.indexOf(p) === i)
  const data: Record<string, unknown[]> = {}
  for (const installment of merchant.installments) {
    data[String(installment)] = programs.map((program) => {
      const rate = commissionRate(merchant, program, installment)
      const title = CARD_PROGRAMS.find((entry) => entry.program === program)?.title ?? program
      return {
        title,
        card_program: program,
        // "x": the program offers no such installment (the PHP SDK maps 'x' and '-' to null).
        merchant_commission_percentage: rate ? rate.merchant_commission_percentage : "x",
        merchant_commission_fixed: rate ? rate.merchant_commission_fixed : "x",
        user_commission_percentage: rate ? rate.user_commission_percentage : "x",
        user_commission_fixed: rate ? rate.user_commission_fixed : "x",
        currency_code: currency,
        installment,
        pos_id: 1,
        getpos_card_program: program,
      }
    })
  }
  return envelope(CODES.SUCCESS, "Success", { data })
}
