import type { CommissionRow, CurrencyCode, SipayClient } from "../sipay"
import { feeRuleFor, installmentPrice, rateFee, type InstallmentFeeRules, type InstallmentPrice } from "./installment-fees"
import { toMinorUnits, type AmountInput } from "../sipay"

/** One card family's row of a product page's installment table: its options, 1 to the store's maximum. */
export type InstallmentTableRow = { card_program: string; title: string; options: InstallmentPrice[] }

/**
 * The installment table computed locally from the commission table (no getpos per page view): each
 * card program, each count it offers up to the store's maximum, with the fee the store's rule gives
 * (the gateway's rate is the program's end-user commission, as getpos applies it).
 */
export function installmentTable(input: { amount: AmountInput; rules: InstallmentFeeRules; maxInstallments: number; commissions: CommissionRow[] }): InstallmentTableRow[] {
  const base = toMinorUnits(input.amount)
  const rows = new Map<string, InstallmentTableRow>()
  for (const cell of [...input.commissions].sort((a, b) => a.installment - b.installment)) {
    if (cell.installment < 1 || cell.installment > input.maxInstallments || cell.userPercentage === null) continue
    const row = rows.get(cell.cardProgram) ?? { card_program: cell.cardProgram, title: cell.title ?? cell.cardProgram, options: [] }
    rows.set(cell.cardProgram, row)
    if (row.options.some((option) => option.installments === cell.installment)) continue
    const rule = feeRuleFor(input.rules, cell.installment)
    const fee = rule.mode === "absorb" ? 0n : rule.mode === "own" ? rateFee(base, rule.percentage, rule.fixed) : rateFee(base, cell.userPercentage, cell.userFixed ?? 0)
    row.options.push(installmentPrice(input.amount, cell.installment, fee))
  }
  return [...rows.values()]
}

/** How long the commission table is reused in this process (it changes when the gateway's contract does). */
export const COMMISSION_TABLE_TTL_MS = 30 * 60 * 1000

const tables = new WeakMap<SipayClient, Map<string, { rows: Promise<CommissionRow[]>; expiresAt: number }>>()

/** The commission table, one gateway call per client and currency every COMMISSION_TABLE_TTL_MS (concurrent callers share it). */
export function commissionTable(client: SipayClient, currencyCode: CurrencyCode, now = Date.now()): Promise<CommissionRow[]> {
  let cache = tables.get(client)
  if (!cache) {
    cache = new Map()
    tables.set(client, cache)
  }
  const known = cache.get(currencyCode)
  if (known && known.expiresAt > now) {
    return known.rows
  }
  const rows = client.getCommissions({ currencyCode, commissionBy: "user" })
  const entry = { rows, expiresAt: now + COMMISSION_TABLE_TTL_MS }
  cache.set(currencyCode, entry)
  // A failed call is not kept: the next caller asks again.
  rows.catch(() => {
    if (cache!.get(currencyCode) === entry) cache!.delete(currencyCode)
  })
  return rows
}
