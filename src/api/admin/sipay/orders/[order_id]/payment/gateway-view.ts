import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import { formatAmount, fromMinorUnits, toMinorUnits } from "../../../../../../lib/sipay/amount"
import type { TransactionStatus } from "../../../../../../lib/sipay"
import { gatewayDay, orderPaymentView, paidInvoiceId } from "../../../../../../lib/sales-report"
import type { AttemptView, OrderPaymentView } from "../../../../../../lib/sales-report"
import type { PaymentFacts } from "../../../../../../lib/sales-report/order-payment-view"
import { pullInvoiceIntoLedger } from "../../../../../../lib/sales-report/ledger-pull"
import { SIPAY_MODULE } from "../../../../../../modules/sipay"
import { LedgerStore } from "../../../../../../modules/sipay/ledger/store"
import type SipayModuleService from "../../../../../../modules/sipay/service"
import { toMedusaError } from "../../../../../../providers/sipay/core/sipay-base"
import { SIPAY_PROVIDER } from "../../../../../../providers/sipay/utils/provider-ids"
import { resolveSaleOwners } from "../../../../../../workflows/sale-owner/resolve-sale-owners"

/**
 * How long GET serves the gateway's last checkstatus answer for an invoice, unless the payment changed
 * in Medusa since (a capture, a refund, a cancel); POST .../refresh always asks again.
 */
const GATEWAY_ANSWER_TTL_MS = 5 * 60 * 1000
const GATEWAY_ANSWER_LIMIT = 500

type GatewayAnswer = { status: TransactionStatus; at: Date }
const gatewayAnswers = new Map<string, GatewayAnswer>()

function remember(invoiceId: string, answer: GatewayAnswer) {
  gatewayAnswers.delete(invoiceId)
  gatewayAnswers.set(invoiceId, answer)
  if (gatewayAnswers.size > GATEWAY_ANSWER_LIMIT) {
    gatewayAnswers.delete(gatewayAnswers.keys().next().value!)
  }
}

const iso = (value: unknown) => (value ? new Date(value as string).toISOString() : null)
const sum = (rows: { amount: unknown }[] | undefined) => fromMinorUnits((rows ?? []).reduce((total, row) => total + toMinorUnits(row.amount as never), 0n))

/** The order's Sipay payment (the latest one) as Medusa recorded it; 404 when the order has none. */
async function sipayPaymentOf(container: MedusaContainer, orderId: string): Promise<PaymentFacts & { changed_at: number }> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "order",
    fields: [
      "id",
      "payment_collections.payments.*",
      "payment_collections.payments.captures.amount",
      "payment_collections.payments.captures.created_at",
      "payment_collections.payments.refunds.amount",
      "payment_collections.payments.refunds.created_at",
    ],
    filters: { id: orderId },
  })
  const order = data[0] as any
  if (!order) {
    throw new MedusaError(MedusaError.Types.NOT_FOUND, `Order ${orderId} was not found`)
  }
  const payments = (order.payment_collections ?? []).flatMap((c: any) => c?.payments ?? []).filter((p: any) => SIPAY_PROVIDER.test(p.provider_id))
  const payment = payments.sort((a: any, b: any) => String(a.created_at).localeCompare(String(b.created_at))).pop()
  if (!payment) {
    throw new MedusaError(MedusaError.Types.NOT_FOUND, `Order ${orderId} has no Sipay payment`)
  }
  return {
    id: payment.id,
    provider_id: payment.provider_id,
    amount: formatAmount(payment.amount),
    currency_code: payment.currency_code,
    captured_amount: sum(payment.captures),
    refunded_amount: sum(payment.refunds),
    captured_at: iso(payment.captured_at),
    canceled_at: iso(payment.canceled_at),
    data: { ...(payment.data ?? {}), session_id: payment.data?.session_id ?? payment.payment_session_id },
    changed_at: latest([payment.captured_at, payment.canceled_at, ...(payment.captures ?? []).map((c: any) => c.created_at), ...(payment.refunds ?? []).map((r: any) => r.created_at)]),
  }
}

/** The latest of these moments, or 0 when there is none. */
function latest(moments: unknown[]): number {
  return moments.reduce<number>((max, moment) => (moment ? Math.max(max, new Date(moment as string).getTime()) : max), 0)
}

/** The session's attempts, each with what its sale is to Medusa (the order's payment, given back, ...). */
async function attemptsOf(container: MedusaContainer, sipay: SipayModuleService, sessionId: unknown): Promise<AttemptView[]> {
  if (typeof sessionId !== "string" || !sessionId) {
    return []
  }
  const attempts = await sipay.listPaymentAttempts({ session_id: sessionId }, { order: { attempt_number: "ASC" } })
  const owners = await resolveSaleOwners(container, attempts.map((a) => ({ invoice_id: a.invoice_id })), { attempts: attempts as never })
  return attempts.map((a, index) => ({
    sale_kind: owners[index].kind,
    invoice_id: a.invoice_id,
    attempt_number: a.attempt_number,
    flow: a.flow,
    status: a.status,
    transaction_type: a.transaction_type,
    installments: a.installments,
    amount: formatAmount(a.amount as never),
    currency_code: a.currency_code,
    masked_card: a.masked_card ?? null,
    gateway_order_no: a.gateway_order_no ?? null,
    error_code: a.error_code ?? null,
    error_message: a.error_message ?? null,
    created_at: iso(a.created_at),
    completed_at: iso(a.completed_at),
  }))
}

/** checkstatus of the paid invoice. */
async function askGateway(sipay: SipayModuleService, invoiceId: string): Promise<GatewayAnswer> {
  const status = await sipay.getClient().checkStatus(invoiceId).catch((error: unknown) => {
    throw toMedusaError(error, "checkstatus")
  })
  return { status, at: new Date() }
}

/**
 * "Look up at the gateway now": getTransactions of this invoice on each Istanbul day the attempt may
 * be dated (started, completed), and what it answers goes into the ledger too.
 */
async function refreshLedgerSales(sipay: SipayModuleService, ledger: LedgerStore, invoiceId: string, attempt: AttemptView | undefined): Promise<void> {
  const days = new Set([attempt?.created_at, attempt?.completed_at].filter(Boolean).map((at) => gatewayDay(new Date(at!))))
  if (!days.size) {
    days.add(gatewayDay(new Date()))
  }
  await pullInvoiceIntoLedger(sipay.getClient(), ledger, invoiceId, [...days]).catch((error: unknown) => {
    throw toMedusaError(error, "getTransactions")
  })
}

/**
 * The gateway's view of the order's Sipay payment. `fresh` asks the gateway again; otherwise its
 * answer of the last few minutes is reused, and a gateway failure leaves the view with `gateway_error`.
 */
export async function orderPaymentGatewayView(container: MedusaContainer, orderId: string, options: { fresh: boolean }): Promise<OrderPaymentView & { gateway_error: string | null }> {
  const sipay = container.resolve<SipayModuleService>(SIPAY_MODULE)
  const ledger = new LedgerStore(container.resolve(ContainerRegistrationKeys.PG_CONNECTION))
  const payment = await sipayPaymentOf(container, orderId)
  const attempts = await attemptsOf(container, sipay, payment.data.session_id)
  const invoiceId = paidInvoiceId(payment.data)
  let answer: GatewayAnswer | null = null
  let gatewayError: string | null = null
  if (invoiceId) {
    const cached = gatewayAnswers.get(invoiceId)
    // A capture, refund or cancel made since the answer was cached makes it stale: the panel is current after any admin action.
    if (!options.fresh && cached && Date.now() - cached.at.getTime() < GATEWAY_ANSWER_TTL_MS && cached.at.getTime() > payment.changed_at) {
      answer = cached
    } else {
      try {
        answer = await askGateway(sipay, invoiceId)
        if (options.fresh) {
          await refreshLedgerSales(sipay, ledger, invoiceId, attempts.find((a) => a.invoice_id === invoiceId))
        }
        remember(invoiceId, answer)
      } catch (error) {
        if (options.fresh) {
          throw error
        }
        gatewayError = (error as Error).message
      }
    }
  }
  // The sale itself comes from the ledger (synced by the job, or just now by a refresh), never from a getTransactions per view.
  const [ledgerSales, chargebacks] = await Promise.all([
    invoiceId ? ledger.byInvoices([invoiceId]) : Promise.resolve([]),
    sipay.listChargebacks({ order_id: orderId }, { order: { detected_at: "ASC" } }),
  ])
  const view = orderPaymentView({ order_id: orderId, payment, attempts, status: answer?.status ?? null, sales: ledgerSales.map((row) => row.record), now: new Date() })
  return {
    ...view,
    chargeback: view.chargeback || chargebacks.length > 0,
    checked_at: (answer?.at ?? new Date()).toISOString(),
    ledger_synced_at: ledgerSales[0]?.synced_at ?? null,
    chargebacks: chargebacks.map((c) => ({ id: c.id, invoice_id: c.invoice_id, amount: formatAmount(c.amount as never), currency_code: c.currency_code, detected_at: iso(c.detected_at)! })),
    gateway_error: gatewayError,
  }
}
