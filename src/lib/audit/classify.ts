import { PRE_AUTHORIZATION_DAYS } from "../pre-authorization-days"
import { preAuthorizationDeadline } from "../sales-report/pre-authorization"
import type { SaleOwner } from "../sales-report/sale-owner"
import { fromMinorUnits } from "../sipay/amount"
import {
  NOTICE_KINDS,
  type AuditCurrencyTotals,
  type AuditInput,
  type AuditLine,
  type AuditReport,
  type AuditSaleInput,
  type Finding,
  type FindingKind,
  type MedusaPaymentFacts,
} from "./types"

/**
 * The audit's verdict on a gateway day, pure: each sale of the day (the ledger's copy of the
 * gateway's record) beside what it is to Medusa (resolveSaleOwners) and Medusa's payment, classified
 * into differences (books and gateway disagree) and notices (they agree, the merchant has something
 * to do). The facts are gathered by src/workflows/audit.
 */

/** getTransactions states (lib/sales-report/states.ts): money taken, a reservation, nothing taken yet. */
const CAPTURED_STATES = new Set([1, 4, 5, 11])
const PRE_AUTHORIZED_STATE = 6
const PENDING_STATE = 3
const CHARGEBACK_STATE = 11

const money = (minor: bigint) => fromMinorUnits(minor)
const same = (a: string, b: string) => a.trim().toUpperCase() === b.trim().toUpperCase()

/** What the gateway holds of a sale: captured (and refunded of it), or reserved. */
export function gatewayHolding(sale: AuditSaleInput["sale"]): { captured: bigint; refunded: bigint; reserved: bigint } {
  if (CAPTURED_STATES.has(sale.transaction_state_id)) return { captured: sale.gross_minor, refunded: sale.refunded_minor, reserved: 0n }
  if (sale.transaction_state_id === PRE_AUTHORIZED_STATE) return { captured: 0n, refunded: 0n, reserved: sale.gross_minor }
  return { captured: 0n, refunded: sale.refunded_minor, reserved: 0n }
}

/** The order a finding links to: the one the sale paid, else the one its cart or phone order got otherwise. */
function orderOf(owner: SaleOwner): string | null {
  return "order_id" in owner ? owner.order_id : null
}

type Draft = Omit<Finding, "severity" | "invoice_id" | "sale_id" | "sale_created_at" | "currency_code" | "order_id" | "payment_id"> &
  Partial<Pick<Finding, "order_id" | "payment_id">>

/** How Medusa's payment and the gateway's sale differ in money, if they do (one finding at most). */
function moneyDifference(item: AuditSaleInput, payment: MedusaPaymentFacts): Draft | null {
  const { sale } = item
  const held = gatewayHolding(sale)
  const currencyDiffers = !same(payment.currency_code, sale.currency_code)
  const differ = (gateway: bigint, medusa: bigint): Draft => ({ kind: "amounts_differ", gateway_amount: money(gateway), medusa_amount: money(medusa), amount: money(gateway > medusa ? gateway - medusa : medusa - gateway) })

  if (sale.transaction_state_id === PRE_AUTHORIZED_STATE) {
    // A reservation: Medusa must show it authorized, for the same amount, nothing captured, not cancelled.
    if (payment.captured_minor > 0n) return differ(0n, payment.captured_minor)
    if (payment.canceled) return differ(held.reserved, 0n)
    if (currencyDiffers || payment.amount_minor !== held.reserved) return differ(held.reserved, payment.amount_minor)
    return null
  }
  if (CAPTURED_STATES.has(sale.transaction_state_id)) {
    if (currencyDiffers || payment.captured_minor !== held.captured) return differ(held.captured, payment.captured_minor)
    if (held.refunded > payment.refunded_minor) {
      const all = held.refunded >= held.captured && payment.refunded_minor === 0n
      return all
        ? { kind: "order_money_given_back", gateway_amount: money(held.captured - held.refunded), medusa_amount: money(payment.captured_minor), amount: money(held.refunded) }
        : { kind: "refund_missing_in_medusa", gateway_amount: money(held.refunded), medusa_amount: money(payment.refunded_minor), amount: money(held.refunded - payment.refunded_minor) }
    }
    if (payment.refunded_minor > held.refunded) {
      return { kind: "refund_missing_at_gateway", gateway_amount: money(held.refunded), medusa_amount: money(payment.refunded_minor), amount: money(payment.refunded_minor - held.refunded) }
    }
    return null
  }
  // Failed, cancelled (a reservation released or lapsed) or still pending at the gateway: no money there.
  if (sale.transaction_state_id === PENDING_STATE) return null
  if (payment.captured_minor > payment.refunded_minor) return differ(0n, payment.captured_minor - payment.refunded_minor)
  if (!payment.canceled && payment.captured_minor === 0n) {
    return { kind: "order_money_given_back", gateway_amount: money(0n), medusa_amount: money(payment.amount_minor), amount: money(payment.amount_minor) }
  }
  return null
}

/** The chargeback of a sale: recorded by the store on the order the sale paid (a notice), or not (a difference). */
function chargebackFinding(item: AuditSaleInput): Draft | null {
  const { owner, sale } = item
  if (sale.transaction_state_id !== CHARGEBACK_STATE || owner.kind === "not_ours") return null
  const expected = owner.kind === "payment" || owner.kind === "recurring_charge" ? owner.order_id : null
  const amount = { gateway_amount: money(sale.gross_minor), medusa_amount: null, amount: money(sale.gross_minor) }
  if (item.chargeback && item.chargeback.order_id === expected) return { kind: "chargeback", ...amount }
  return { kind: "chargeback_not_recorded", ...amount, recorded_order_id: item.chargeback ? item.chargeback.order_id : null }
}

/** A reservation the gateway cancels soon: the pre-authorization watch's rule (the same warning days). */
function lapseFinding(item: AuditSaleInput, input: AuditInput): Draft | null {
  const { sale, owner, payment } = item
  if (sale.transaction_state_id !== PRE_AUTHORIZED_STATE || owner.kind !== "payment" || !payment || payment.canceled || payment.captured_minor > 0n) return null
  const { deadline, days_left } = preAuthorizationDeadline(new Date(sale.created_at), input.now)
  if (PRE_AUTHORIZATION_DAYS - days_left < input.preAuthorizationWarningDays) return null
  return { kind: "pre_authorization_lapsing", gateway_amount: money(sale.gross_minor), medusa_amount: money(payment.amount_minor), amount: money(sale.gross_minor), deadline, days_left }
}

/**
 * Refunds the ledger booked before the fix (issue 24, N1): a refund noted as recorded from the sales
 * ledger, without the server's mark, on another payment of the session of a given-back sale (the
 * kept payment, whose data names another invoice). The order's money went back to the shopper.
 */
function oldLedgerRefunds(item: AuditSaleInput, seen: Set<string>): Draft[] {
  const { sale, owner } = item
  if (owner.kind !== "given_back" || sale.refunded_minor === 0n) return []
  const found: Draft[] = []
  for (const payment of item.sessionPayments) {
    if (!payment.invoice_id || payment.invoice_id === sale.invoice_id) continue
    for (const refund of payment.refunds) {
      if (!refund.recorded_from_ledger || refund.marked || seen.has(refund.id)) continue
      seen.add(refund.id)
      found.push({
        kind: "old_ledger_refund",
        order_id: payment.order_id,
        payment_id: payment.id,
        gateway_amount: money(sale.refunded_minor),
        medusa_amount: money(payment.refunded_minor),
        amount: money(refund.amount_minor),
        refund_id: refund.id,
        payment_invoice_id: payment.invoice_id,
      })
    }
  }
  return found
}

const isNotice = (kind: FindingKind) => (NOTICE_KINDS as readonly string[]).includes(kind)

function classifySale(item: AuditSaleInput, input: AuditInput, seenRefunds: Set<string>): { line: AuditLine; findings: Finding[] } {
  const { sale, owner, payment } = item
  const held = gatewayHolding(sale)
  const holdsMoney = held.captured > held.refunded || held.reserved > 0n
  const young = input.now.getTime() - new Date(sale.created_at).getTime() < input.settlingSeconds * 1000
  const drafts: Draft[] = []
  let settling = false

  // Money taken at the gateway and no order to show for it: the plugin settles (keeps or gives back) every paid attempt.
  const unowned = owner.kind === "attempt" || owner.kind === "given_back" || (owner.kind === "payment" && owner.order_id === null)
  if (unowned && holdsMoney) {
    if (young) settling = true
    else drafts.push({ kind: "paid_without_order", gateway_amount: money(held.reserved || held.captured - held.refunded), medusa_amount: null, amount: money(held.reserved || held.captured - held.refunded) })
  } else if (owner.kind === "payment" && payment) {
    const difference = moneyDifference(item, payment)
    if (difference) drafts.push(difference)
  }
  drafts.push(...oldLedgerRefunds(item, seenRefunds))
  for (const draft of [chargebackFinding(item), lapseFinding(item, input)]) if (draft) drafts.push(draft)

  const paymentId = owner.kind === "payment" || owner.kind === "recurring_charge" ? owner.payment_id : null
  const findings = drafts.map(
    (draft): Finding => ({
      severity: isNotice(draft.kind) ? "notice" : "difference",
      invoice_id: sale.invoice_id,
      sale_id: sale.sale_id,
      sale_created_at: sale.created_at,
      currency_code: sale.currency_code,
      order_id: orderOf(owner),
      payment_id: paymentId,
      ...draft,
    })
  )
  const line: AuditLine = {
    sale_id: sale.sale_id,
    invoice_id: sale.invoice_id,
    gateway_order_id: sale.gateway_order_id,
    created_at: sale.created_at,
    transaction_state_id: sale.transaction_state_id,
    currency_code: sale.currency_code,
    sale_kind: owner.kind,
    order_id: orderOf(owner),
    payment_id: paymentId,
    gateway: { captured: money(held.captured), refunded: money(held.refunded), reserved: money(held.reserved) },
    medusa: owner.kind === "payment" && payment ? { captured: money(payment.captured_minor), refunded: money(payment.refunded_minor) } : null,
    settling,
    findings: findings.map((finding) => finding.kind),
  }
  return { line, findings }
}

function currencyTotals(items: readonly AuditSaleInput[]): AuditCurrencyTotals[] {
  const sums = new Map<string, { sales: number; gc: bigint; gr: bigint; gv: bigint; mc: bigint; mr: bigint }>()
  const counted = new Set<string>()
  for (const item of items) {
    const currency = item.sale.currency_code.toUpperCase()
    const sum = sums.get(currency) ?? { sales: 0, gc: 0n, gr: 0n, gv: 0n, mc: 0n, mr: 0n }
    const held = gatewayHolding(item.sale)
    sum.sales += 1
    sum.gc += held.captured
    sum.gr += held.refunded
    sum.gv += held.reserved
    if (item.owner.kind === "payment" && item.payment && !counted.has(item.payment.id)) {
      counted.add(item.payment.id)
      sum.mc += item.payment.captured_minor
      sum.mr += item.payment.refunded_minor
    }
    sums.set(currency, sum)
  }
  return [...sums.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([currency_code, s]) => ({
      currency_code,
      sales: s.sales,
      gateway_captured: money(s.gc),
      gateway_refunded: money(s.gr),
      gateway_reserved: money(s.gv),
      medusa_captured: money(s.mc),
      medusa_refunded: money(s.mr),
    }))
}

/** The day's report: every sale's line, the findings (differences first, then notices, each oldest sale first) and the summary. */
export function auditDay(input: AuditInput, ledger: AuditReport["ledger"]): AuditReport {
  const items = [...input.sales].sort((a, b) => a.sale.created_at.localeCompare(b.sale.created_at) || a.sale.sale_id.localeCompare(b.sale.sale_id))
  const seenRefunds = new Set<string>()
  const lines: AuditLine[] = []
  const findings: Finding[] = []
  for (const item of items) {
    const result = classifySale(item, input, seenRefunds)
    lines.push(result.line)
    findings.push(...result.findings)
  }
  findings.sort((a, b) => Number(a.severity === "notice") - Number(b.severity === "notice"))
  const kinds: AuditReport["summary"]["kinds"] = {}
  for (const line of lines) kinds[line.sale_kind] = (kinds[line.sale_kind] ?? 0) + 1
  const differences = findings.filter((finding) => finding.severity === "difference").length
  return {
    day: input.day,
    checked_at: input.now.toISOString(),
    agrees: differences === 0,
    summary: {
      sales: lines.length,
      kinds,
      refunds: items.filter((item) => item.sale.refunded_minor > 0n).length,
      chargebacks: items.filter((item) => item.sale.transaction_state_id === CHARGEBACK_STATE).length,
      settling: lines.filter((line) => line.settling).length,
      differences,
      notices: findings.length - differences,
      totals: currencyTotals(items),
    },
    findings,
    lines,
    ledger,
  }
}
