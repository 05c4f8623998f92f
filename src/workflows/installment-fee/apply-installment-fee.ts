import { ContainerRegistrationKeys, MedusaError, Modules } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { addToCartWorkflow, createPaymentSessionsWorkflow, deleteLineItemsWorkflow } from "@medusajs/medusa/core-flows"
import { SIPAY_MODULE } from "../../modules/sipay"
import type SipayModuleService from "../../modules/sipay/service"
import { feeRuleFor, installmentFeeMinor } from "../../lib/checkout/installment-fees"
import { amountWithoutFeeLine, FEE_LINE_KEY, feeLineIsCurrent, feeLineOf, feeLineTitle, type CartForFee, type FeeLineFacts } from "../../lib/checkout/fee-line"
import { fromMinorUnits, toMinorUnits, type CurrencyCode } from "../../lib/sipay"
import { shopperMessage } from "../../lib/shopper-messages"
import { ATTEMPT_LOCKS, underLock } from "../../lib/shared-state/lock-timings"
import { cartOfCollection, collectionOfCart } from "../steps/load-attempt-context"
import { customerLanguageOf, readStoreFacts } from "../steps/store-facts"

export type ApplyInstallmentFeeInput = {
  session_id: string
  installments_number: number
  /** The card's first 6 digits: needed when the count's fee is the gateway's rate for the card. */
  bin?: string
  /** When given, the session must pay this cart. */
  cart_id?: string
}

/** The session to pay on (a new one when the fee changed the cart's total), and the fee now in the cart. */
export type AppliedInstallmentFee = { session_id: string; fee: string; changed: boolean }

const CART_FIELDS = ["id", "total", "currency_code", "locale", "customer_id", "items.id", "items.variant_id", "items.total", "items.unit_price", "items.quantity", "items.metadata"]

/**
 * The fee the shopper's installment choice costs becomes a line of the cart before the attempt starts
 * (custom-priced here on the server, not discountable, not shippable); back to no fee removes it. A
 * change of the cart's total makes Medusa delete the cart's payment sessions: a new session of the
 * same provider is created at once, and the caller continues on it. Under the cart's fee lock, so two
 * choices at once leave one line. Nothing to undo: the line is what the shopper chose, and the next
 * choice puts it right. Run by the attempt's start (start-payment-attempt.ts) when the line it read
 * is not the choice's, or the fee is the gateway's rate for the card.
 */
export async function applyInstallmentFee(container: MedusaContainer, input: ApplyInstallmentFeeInput): Promise<AppliedInstallmentFee> {
  const paymentModule = container.resolve(Modules.PAYMENT)
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const sipay = container.resolve<SipayModuleService>(SIPAY_MODULE)
  // The named cart's link is read at once with the session (not after it, from the session's collection).
  const [[session], settings, namedCollection] = await Promise.all([
    paymentModule.listPaymentSessions({ id: input.session_id }),
    sipay.getCheckoutSettings(),
    input.cart_id !== undefined ? collectionOfCart(query, input.cart_id) : Promise.resolve(null),
  ])
  if (!session) {
    throw new MedusaError(MedusaError.Types.NOT_FOUND, `Payment session ${input.session_id} was not found`)
  }
  const rule = feeRuleFor(settings.installmentFees, Number(input.installments_number))
  const cartId = input.cart_id !== undefined ? (namedCollection === session.payment_collection_id ? input.cart_id : null) : await cartOfCollection(query, session.payment_collection_id)
  if (!cartId) {
    // The attempt's own checks answer these cases with their usual errors.
    return { session_id: session.id, fee: "0.00", changed: false }
  }
  return underLock(container, `sipay:installment-fee:${cartId}`, ATTEMPT_LOCKS.start, async () => {
    const cart = await readCart(query, cartId)
    const line = feeLineOf(cart.items)
    const base = amountWithoutFeeLine(cart as CartForFee)
    let payable: string | null = null
    if (rule.mode === "gateway") {
      if (!input.bin || !/^\d{6}/.test(input.bin)) {
        throw new MedusaError(MedusaError.Types.INVALID_DATA, shopperMessage("installment_fee_needs_card", cart.locale === "en" ? "en" : "tr"))
      }
      const options = await sipay.getClient().getPos({ bin: input.bin.slice(0, 6), amount: fromMinorUnits(base), currencyCode: String(session.currency_code).toUpperCase() as CurrencyCode })
      payable = options.find((option) => option.installmentsNumber === Number(input.installments_number))?.payableAmount ?? null
      if (payable === null) {
        throw new MedusaError(MedusaError.Types.INVALID_DATA, `This card offers no ${input.installments_number} installments`)
      }
    }
    const fee = installmentFeeMinor(fromMinorUnits(base), rule, payable) ?? 0n
    const facts: FeeLineFacts = { installments: Number(input.installments_number), fee: fromMinorUnits(fee), base: fromMinorUnits(base), rule: rule.mode }
    if (feeLineIsCurrent(cart as CartForFee, fee, facts.installments)) {
      return { session_id: session.id, fee: facts.fee, changed: false }
    }
    if (line) {
      await deleteLineItemsWorkflow(container).run({ input: { cart_id: cartId, ids: [line.id] } })
    }
    if (fee > 0n) {
      const language = customerLanguageOf(cart.locale, await readStoreFacts(query), sipay.getOptions().defaultLocale)
      await addToCartWorkflow(container).run({
        input: {
          cart_id: cartId,
          items: [
            {
              title: feeLineTitle(shopperMessage("installment_fee_line", language), facts.installments),
              quantity: 1,
              unit_price: facts.fee,
              is_tax_inclusive: settings.installmentFeeTax === "inclusive",
              is_discountable: false,
              requires_shipping: false,
              metadata: { [FEE_LINE_KEY]: facts },
            } as never,
          ],
        },
      })
    }
    const payOn = await sessionToPayOn(container, session)
    if (payOn !== session.id) {
      // The forms issued on the replaced session were for another total: none of them may become an order.
      await sipay.closeSessionAttempts(session.id, { reason: "installment_fee_changed", replaced_by: payOn })
    }
    return { session_id: payOn, fee: facts.fee, changed: true }
  })
}

async function readCart(query: { graph: (config: any) => Promise<{ data: unknown[] }> }, cartId: string) {
  const { data } = await query.graph({ entity: "cart", fields: CART_FIELDS, filters: { id: cartId } })
  const cart = data[0] as Record<string, any> | undefined
  if (!cart) {
    throw new MedusaError(MedusaError.Types.NOT_FOUND, `Cart ${cartId} was not found`)
  }
  return cart
}

/** The session itself when the cart's total did not move; else a new session of the same provider (Medusa deleted the old one). */
async function sessionToPayOn(container: MedusaContainer, session: { id: string; payment_collection_id: string; provider_id: string }): Promise<string> {
  const paymentModule = container.resolve(Modules.PAYMENT)
  const [still] = await paymentModule.listPaymentSessions({ id: session.id })
  if (still) {
    return still.id
  }
  const { result } = await createPaymentSessionsWorkflow(container).run({
    input: { payment_collection_id: session.payment_collection_id, provider_id: session.provider_id },
  })
  return (result as { id: string }).id
}

/**
 * What a session's cart costs without its installment fee line (the amount each count's fee is computed on),
 * or the session's own amount when no cart pays through it.
 */
export async function amountBeforeFee(query: { graph: (config: any) => Promise<{ data: unknown[] }> }, session: { amount: unknown; payment_collection_id: string }): Promise<string> {
  const cartId = await cartOfCollection(query, session.payment_collection_id)
  return (cartId && (await cartAmountBeforeFee(query, cartId))) ?? fromMinorUnits(toMinorUnits(session.amount as never))
}

/** A cart's total without its installment fee line; null when there is no such cart. */
export async function cartAmountBeforeFee(query: { graph: (config: any) => Promise<{ data: unknown[] }> }, cartId: string): Promise<string | null> {
  const { data } = await query.graph({ entity: "cart", fields: ["id", "total", "items.id", "items.variant_id", "items.total", "items.metadata"], filters: { id: cartId } })
  const cart = data[0] as Record<string, any> | undefined
  if (!cart) {
    return null
  }
  return fromMinorUnits(amountWithoutFeeLine(cart as CartForFee))
}
