import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import { SIPAY_MODULE } from "../../modules/sipay"
import { LedgerStore } from "../../modules/sipay/ledger/store"
import type SipayModuleService from "../../modules/sipay/service"
import { auditDay } from "../../lib/audit/classify"
import { auditDayProblem } from "../../lib/audit/day"
import type { AuditReport, AuditSaleFacts, MedusaPaymentFacts } from "../../lib/audit/types"
import { isRecordedRefund } from "../../lib/refunds/recorded-refund"
import { toLedgerRow } from "../../lib/sales-report/ledger-row"
import { toMinorUnits } from "../../lib/sipay/amount"
import { parseInvoiceId } from "../../providers/sipay/utils/session-data"
import { resolveSaleOwners } from "../sale-owner/resolve-sale-owners"
import { RECORDED_REFUND_NOTE } from "../sales-ledger/record-gateway-refund"
import { syncLedgerDay } from "../sales-ledger/sync-ledger"
import { DEFAULT_RECONCILE_AFTER_SECONDS } from "../../lib/reconcile-defaults"

export type AuditDayOptions = {
  /** The audit's clock (default now): reservation ages and "being settled" are measured to it. */
  now?: Date
  /** Pull the day from the gateway into the ledger first even when the ledger has it. */
  refresh?: boolean
}

type Knex = { raw(sql: string, bindings?: readonly unknown[]): Promise<any> }
type PaymentRow = {
  id: string
  amount: unknown
  currency_code: string
  data: Record<string, unknown> | null
  canceled_at: string | null
  payment_collection_id: string
  captures?: { amount: unknown }[] | null
  refunds?: { id: string; amount: unknown; note: string | null; metadata: Record<string, unknown> | null }[] | null
}

const minor = (value: unknown) => toMinorUnits((value ?? 0) as never)
const sum = (entries: { amount: unknown }[] | null | undefined) => (entries ?? []).reduce((total, entry) => total + minor(entry.amount), 0n)
const unique = <T>(values: T[]) => [...new Set(values)]

/** The gateway's sales of the day, as the ledger has them (pulled first if the ledger never had the day, or when asked). */
async function ledgerDay(container: MedusaContainer, day: string, refresh: boolean) {
  const store = new LedgerStore(container.resolve(ContainerRegistrationKeys.PG_CONNECTION))
  let status = (await store.days([day])).get(day)
  let pulledNow = false
  if (refresh || !status?.last_synced_at) {
    const pulled = await syncLedgerDay(container, day)
    if (pulled.error) {
      throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `Sipay audit: the gateway's sales of ${day} could not be read (${pulled.error}); nothing was audited`)
    }
    pulledNow = true
    status = (await store.days([day])).get(day)
  }
  const sales: AuditSaleFacts[] = []
  for await (const records of store.batches({ day })) {
    for (const record of records) {
      const row = toLedgerRow(record, day)
      if (!row) continue
      sales.push({
        sale_id: row.sale_id,
        invoice_id: row.invoice_id,
        gateway_order_id: row.gateway_order_id,
        created_at: row.sale_created_at,
        transaction_state_id: row.transaction_state_id,
        currency_code: row.currency_code,
        gross_minor: minor(row.gross),
        refunded_minor: minor(row.total_refunded_amount),
      })
    }
  }
  return { sales, ledger: { last_synced_at: status?.last_synced_at ?? null, pulled_now: pulledNow } }
}

/** Medusa's payments (by id, or of payment sessions) with their money, refunds and order (Medusa's order-collection link). */
async function medusaPayments(container: MedusaContainer, ids: string[], sessionIds: string[], appSecret: string): Promise<Map<string, MedusaPaymentFacts & { payment_session_id: string | null }>> {
  const found = new Map<string, MedusaPaymentFacts & { payment_session_id: string | null }>()
  if (!ids.length && !sessionIds.length) return found
  const db = container.resolve<Knex>(ContainerRegistrationKeys.PG_CONNECTION)
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const fields = ["id", "amount", "currency_code", "data", "canceled_at", "payment_collection_id", "payment_session_id", "captures.amount", "refunds.id", "refunds.amount", "refunds.note", "refunds.metadata"]
  const reads = [ids.length ? { id: ids } : null, sessionIds.length ? { payment_session_id: sessionIds } : null].filter(Boolean)
  const rows = (await Promise.all(reads.map((filters) => query.graph({ entity: "payment", fields, filters: filters as never })))).flatMap(({ data }) => data as unknown as (PaymentRow & { payment_session_id: string | null })[])
  const collections = unique(rows.map((row) => row.payment_collection_id))
  const result = collections.length
    ? await db.raw(`SELECT payment_collection_id, order_id FROM order_payment_collection WHERE deleted_at IS NULL AND payment_collection_id = ANY(?)`, [collections])
    : { rows: [] }
  const orders = new Map<string, string>((result.rows as { payment_collection_id: string; order_id: string }[]).map((row) => [row.payment_collection_id, row.order_id]))
  for (const row of rows) {
    const invoiceId = typeof row.data?.invoice_id === "string" && row.data.invoice_id !== "" ? row.data.invoice_id : null
    found.set(row.id, {
      id: row.id,
      payment_session_id: row.payment_session_id ?? null,
      invoice_id: invoiceId,
      order_id: orders.get(row.payment_collection_id) ?? null,
      currency_code: row.currency_code,
      amount_minor: minor(row.amount),
      captured_minor: sum(row.captures),
      refunded_minor: sum(row.refunds),
      canceled: Boolean(row.canceled_at),
      refunds: (row.refunds ?? []).map((refund) => ({
        id: refund.id,
        amount_minor: minor(refund.amount),
        recorded_from_ledger: refund.note === RECORDED_REFUND_NOTE,
        marked: invoiceId !== null && isRecordedRefund(appSecret, refund.metadata, invoiceId, minor(refund.amount)),
      })),
    })
  }
  return found
}

/**
 * The merchant's audit of one gateway day (lib/audit): every sale of the ledger's day, what it is to
 * Medusa (resolveSaleOwners, the one answer), Medusa's payment, captures, refunds and order, and the
 * store's chargeback records; then the pure classification. Reads only, but for pulling the day into
 * the ledger when the ledger never had it (or `refresh`): it acts on nothing and sends nothing.
 */
export async function auditGatewayDay(container: MedusaContainer, day: string, options: AuditDayOptions = {}): Promise<AuditReport> {
  const now = options.now ?? new Date()
  const problem = auditDayProblem(day, now)
  if (problem) throw new MedusaError(MedusaError.Types.INVALID_DATA, `Sipay audit: ${problem}`)
  const sipay = container.resolve<SipayModuleService>(SIPAY_MODULE)
  const settings = sipay.getOptions()
  const { sales, ledger } = await ledgerDay(container, day, options.refresh ?? false)

  const owners = await resolveSaleOwners(container, sales.map((sale) => ({ invoice_id: sale.invoice_id, gateway_order_id: sale.gateway_order_id })))
  const paymentIds = unique(owners.flatMap((owner) => (owner.kind === "payment" ? [owner.payment_id] : [])))
  // Where the ledger booked refunds before the fix: the other payments of a given-back checkout attempt's session.
  const sessionOf = (invoiceId: string) => parseInvoiceId(invoiceId)?.sessionId ?? null
  const givenBackSessions = unique(owners.flatMap((owner) => (owner.kind === "given_back" && owner.source === "checkout" ? [sessionOf(owner.invoice_id)] : [])).filter((id): id is string => id !== null))
  const [payments, chargebacks] = await Promise.all([
    medusaPayments(container, paymentIds, givenBackSessions, settings.appSecret),
    sales.length ? sipay.listChargebacks({ sale_id: sales.map((sale) => sale.sale_id) }, { select: ["sale_id", "order_id"] }) : Promise.resolve([]),
  ])
  const chargebackOf = new Map(chargebacks.map((record) => [record.sale_id, { order_id: record.order_id ?? null }]))

  return auditDay(
    {
      day,
      now,
      preAuthorizationWarningDays: settings.preAuthorizationWarningDays ?? 17,
      // The reconciliation job takes attempts left pending this long, then backs off by age: ten minutes more covers its first looks.
      settlingSeconds: (settings.reconcileAfterSeconds ?? DEFAULT_RECONCILE_AFTER_SECONDS) + 600,
      sales: sales.map((sale, index) => {
        const owner = owners[index]
        const session = owner.kind === "given_back" && owner.source === "checkout" ? sessionOf(owner.invoice_id) : null
        return {
          sale,
          owner,
          payment: owner.kind === "payment" ? payments.get(owner.payment_id) ?? null : null,
          sessionPayments: session ? [...payments.values()].filter((payment) => payment.payment_session_id === session) : [],
          chargeback: chargebackOf.get(sale.sale_id) ?? null,
        }
      }),
    },
    ledger
  )
}
