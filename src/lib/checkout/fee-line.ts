import { toMinorUnits } from "../sipay"

/**
 * The installment fee's cart line (vade farkı): how the plugin recognises it (a metadata key it alone
 * writes, on a line without a variant) and what it records there. Pure.
 */
export const FEE_LINE_KEY = "sipay_installment_fee"

/** What the line's metadata records: the count chosen, the fee, the amount it was computed on, and the rule. */
export type FeeLineFacts = { installments: number; fee: string; base: string; rule: "absorb" | "gateway" | "own" }

type LineLike = { id: string; variant_id?: string | null; metadata?: Record<string, any> | null; total?: unknown; unit_price?: unknown; quantity?: unknown }

/** The cart's or order's fee line, if any. */
export function feeLineOf<T extends LineLike>(items: T[] | null | undefined): T | undefined {
  return (items ?? []).find((item) => !item.variant_id && item.metadata && typeof item.metadata[FEE_LINE_KEY] === "object" && item.metadata[FEE_LINE_KEY] !== null)
}

/** A cart as the fee is priced on it: its total and its lines (the fee line among them, if any). */
export type CartForFee = { total: unknown; items?: LineLike[] | null }

/** What a cart costs without its installment fee line, in minor units: the amount each count's fee is computed on. Pure. */
export function amountWithoutFeeLine(cart: CartForFee): bigint {
  const line = feeLineOf(cart.items)
  return toMinorUnits(cart.total as never) - (line ? toMinorUnits(line.total as never) : 0n)
}

/**
 * Whether the cart's fee line is already what `fee` for `installments` asks for: one line of that
 * price for that count, or no line when there is no fee. Pure.
 */
export function feeLineIsCurrent(cart: CartForFee, fee: bigint, installments: number): boolean {
  const line = feeLineOf(cart.items)
  if (fee === 0n) {
    return !line
  }
  return Boolean(line && Number(line.quantity) === 1 && toMinorUnits(line.unit_price as never) === fee && line.metadata?.[FEE_LINE_KEY]?.installments === installments)
}

/** "Vade farkı (3 taksit)" from the message table's text with {count}. */
export function feeLineTitle(text: string, installments: number): string {
  return text.replace("{count}", String(installments))
}
