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

/** "Vade farkı (3 taksit)" from the message table's text with {count}. */
export function feeLineTitle(text: string, installments: number): string {
  return text.replace("{count}", String(installments))
}
