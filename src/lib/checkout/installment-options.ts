import { CurrencyCode, SipayClient, SipayError } from "../sipay"
import { CheckoutSettings } from "../settings"
import { feeRuleFor, installmentFeeMinor, installmentPrice } from "./installment-fees"

export type InstallmentOffer = {
  /**
   * `amount_to_be_paid`: the total for that count (the amount plus the store's installment fee for it);
   * `fee`: that fee ("0.00" when the store absorbs it); `per_installment`: one installment, rounded half up;
   * `card_scheme`: the card's brand as the gateway names it (VISA, MASTERCARD, TROY, …).
   */
  installments: {
    installments_number: number
    amount_to_be_paid: string | null
    fee: string
    per_installment: string
    label: string | null
    card_program: string | null
    card_scheme: string | null
  }[]
  agricultural: { maturity_periods: number[]; payment_frequencies: number[] } | null
}

/**
 * What a card may pay in: the gateway's POS options for its BIN (getpos), capped by the store's
 * policy, and the agricultural terms when the store offers them and the card has them. Each count's
 * total is the amount plus the store's fee for it (Settings -> Sipay: absorbed by default, else the
 * gateway's rate from getpos's payable_amount or the merchant's own).
 */
export async function installmentOffer(
  client: SipayClient,
  settings: CheckoutSettings,
  query: { bin: string; amount: string; currencyCode: CurrencyCode; recurring?: boolean }
): Promise<InstallmentOffer> {
  const key = JSON.stringify([
    query.bin.slice(0, 6),
    query.amount,
    query.currencyCode,
    Boolean(query.recurring),
    settings.maxInstallments,
    settings.agriculturalInstallments,
    settings.installmentFees,
  ])
  const cache = offerCacheOf(client)
  const now = Date.now()
  const known = cache.get(key)
  if (known && known.expiresAt > now) {
    return known.offer
  }
  const offer = await askOffer(client, settings, query)
  cache.delete(key)
  if (cache.size >= OFFER_CACHE_MAX) {
    // The oldest entry goes first (a Map keeps insertion order).
    cache.delete(cache.keys().next().value!)
  }
  cache.set(key, { offer, expiresAt: now + OFFER_CACHE_TTL_MS })
  return offer
}

/** How long a card's offer is reused in this process, and how many offers are kept at most. */
export const OFFER_CACHE_TTL_MS = 10 * 60 * 1000
export const OFFER_CACHE_MAX = 1000

/**
 * One short in-process cache per gateway client (one per credential set): the hosted page and the
 * storefront's card form ask getpos/installments once per card BIN, amount, currency and the
 * store's installment settings, not on every page view or keystroke.
 */
const offerCaches = new WeakMap<SipayClient, Map<string, { offer: InstallmentOffer; expiresAt: number }>>()

function offerCacheOf(client: SipayClient): Map<string, { offer: InstallmentOffer; expiresAt: number }> {
  let cache = offerCaches.get(client)
  if (!cache) {
    cache = new Map()
    offerCaches.set(client, cache)
  }
  return cache
}

async function askOffer(
  client: SipayClient,
  settings: CheckoutSettings,
  query: { bin: string; amount: string; currencyCode: CurrencyCode; recurring?: boolean }
): Promise<InstallmentOffer> {
  const bin = query.bin.slice(0, 6)
  let options: Awaited<ReturnType<SipayClient["getPos"]>> = []
  try {
    options = await client.getPos({ bin, amount: query.amount, currencyCode: query.currencyCode, isRecurring: query.recurring })
  } catch (error) {
    // A card without a POS (102) still gets single payment: the gateway decides at payment time.
    if (!(error instanceof SipayError) || error.statusCode !== 102) {
      throw error
    }
  }
  const seen = new Map<number, InstallmentOffer["installments"][number]>()
  for (const option of options) {
    const count = option.installmentsNumber ?? 0
    if (count >= 1 && count <= settings.maxInstallments && !seen.has(count)) {
      const fee = installmentFeeMinor(query.amount, feeRuleFor(settings.installmentFees, count), option.payableAmount)
      if (fee === null) continue
      const price = installmentPrice(query.amount, count, fee)
      seen.set(count, { installments_number: count, amount_to_be_paid: price.total, fee: price.fee, per_installment: price.per_installment, label: option.title, card_program: option.cardProgram, card_scheme: option.cardScheme })
    }
  }
  if (!seen.has(1)) {
    const price = installmentPrice(query.amount, 1, 0n)
    seen.set(1, { installments_number: 1, amount_to_be_paid: price.total, fee: price.fee, per_installment: price.per_installment, label: null, card_program: null, card_scheme: options[0]?.cardScheme ?? null })
  }
  let agricultural: InstallmentOffer["agricultural"] = null
  if (settings.agriculturalInstallments) {
    const terms = await client.getInstallments({ bin, amount: query.amount, currencyCode: query.currencyCode })
    if (terms.maturityPeriods.length && terms.paymentFrequencies.length) {
      agricultural = { maturity_periods: terms.maturityPeriods, payment_frequencies: terms.paymentFrequencies }
    }
  }
  return { installments: [...seen.values()].sort((a, b) => a.installments_number - b.installments_number), agricultural }
}
