import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { SIPAY_MODULE } from "../../modules/sipay"
import { LedgerStore } from "../../modules/sipay/ledger/store"
import type SipayModuleService from "../../modules/sipay/service"
import { classifyTransaction } from "../../lib/sipay/outcome"
import { settleOrderPaymentLinkWorkflow, PHONE_ORDER_PROVIDER_ID } from "./settle-order-payment-link"
import { reverseGatewayPayment } from "../steps/reverse-payment"
import { AdvisoryLockTimeout, withAdvisoryLock, type AdvisoryLockDatabase } from "../../lib/shared-state/advisory-lock"
import { formatAmount } from "../../lib/sipay/amount"
import { decideLinkSale, PAID_COLLECTION_STATUSES, type RefusalReason } from "../../lib/order-payment-links/settlement"

/** How long a run waits for another run settling the same link before leaving it to that run. */
const LINK_LOCK_WAIT_MS = 60_000

export type RefusedSale = { invoice_id: string; reason: RefusalReason; amount: string | null; currency_code: string | null; outcome: "refunded" | "cancelled" | "nothing_to_reverse"; at: string }
export type OrderLinkSettlement = { order_link_id: string; invoice_id: string; action: "settled" | "adopted" | "refunded" | "not_charged" | "waiting" | "failed"; reason?: RefusalReason; error?: string }

type OrderView = {
  id: string
  status: string
  is_draft_order: boolean
  total: unknown
  currency_code: string
  payment_collections?: { status: string; payments?: { id: string; provider_id: string; data: Record<string, unknown> | null; canceled_at: unknown }[] }[]
}

/**
 * Settles every phone-order link whose sales the ledger holds and the plugin has not finished with
 * (all of them, or one order's), or one sale of one link (`sale`: the sale webhook, which names the
 * sale, so no ledger row is needed and the gateway is asked about that invoice only): the link's one
 * good payment pays its order once, every other charged sale is given back once, with the reason
 * recorded on the link. Called by the ledger sync (job, "sync now"), the sale webhook and the order's
 * link view, concurrently and repeatedly: a per-link advisory lock serializes them and the link's
 * row says what is done.
 */
export async function settleOrderPaymentLinks(
  container: MedusaContainer,
  filter: { order_id?: string; sale?: { dpl_id: number; invoice_id: string } } = {}
): Promise<OrderLinkSettlement[]> {
  const pg = container.resolve(ContainerRegistrationKeys.PG_CONNECTION) as any
  const result = filter.sale
    ? await pg.raw(`SELECT id FROM sipay_order_payment_link WHERE deleted_at IS NULL AND dpl_id = ? AND NOT (? = ANY(handled_invoice_ids))`, [filter.sale.dpl_id, filter.sale.invoice_id])
    : await pg.raw(
        `SELECT DISTINCT l.id FROM sipay_order_payment_link l
         JOIN sipay_ledger_sale s ON s.dpl_id = l.dpl_id AND s.deleted_at IS NULL
         WHERE l.deleted_at IS NULL AND NOT (s.invoice_id = ANY(l.handled_invoice_ids))${filter.order_id ? " AND l.order_id = ?" : ""}`,
        filter.order_id ? [filter.order_id] : []
      )
  const outcomes: OrderLinkSettlement[] = []
  for (const { id } of (result?.rows ?? []) as { id: string }[]) {
    try {
      const settle = () => settleOrderPaymentLink(container, id, filter.sale ? [filter.sale.invoice_id] : null)
      outcomes.push(...(await withAdvisoryLock(pg as AdvisoryLockDatabase, `sipay:order-link:${id}`, settle, { timeoutMs: LINK_LOCK_WAIT_MS })))
    } catch (error) {
      if (error instanceof AdvisoryLockTimeout) continue
      outcomes.push({ order_link_id: id, invoice_id: "", action: "failed", error: (error as Error)?.message ?? String(error) })
    }
  }
  return outcomes
}

/** One link, under its lock: each sale not yet handled (the ledger's, oldest first, or the ones named). */
async function settleOrderPaymentLink(container: MedusaContainer, id: string, named: string[] | null): Promise<OrderLinkSettlement[]> {
  const sipay = container.resolve<SipayModuleService>(SIPAY_MODULE)
  const logger = container.resolve("logger")
  const client = sipay.getClient()
  const ledger = new LedgerStore(container.resolve(ContainerRegistrationKeys.PG_CONNECTION))
  let link = await sipay.retrieveOrderPaymentLink(id)
  const outcomes: OrderLinkSettlement[] = []
  const invoiceIds = named ?? (await ledger.linkSales(Number(link.dpl_id))).map((sale) => sale.invoice_id)
  for (const invoiceId of invoiceIds) {
    const handled: string[] = link.handled_invoice_ids ?? []
    if (handled.includes(invoiceId)) continue
    const record = async (changes: Record<string, unknown>) => {
      link = await sipay.updateOrderPaymentLinks({ id, ...changes } as any)
    }
    try {
      const transaction = await client.checkStatus(invoiceId)
      const order = await loadOrder(container, link.order_id)
      const payments = (order?.payment_collections ?? []).flatMap((collection) => collection.payments ?? []).filter((payment) => !payment.canceled_at)
      const own = payments.find((payment) => payment.provider_id === PHONE_ORDER_PROVIDER_ID && payment.data?.invoice_id === invoiceId)
      if (own) {
        // Paid by an earlier run that stopped before writing it down.
        await record({ settled_invoice_id: invoiceId, payment_id: own.id, settled_at: link.settled_at ?? new Date(), settle_error: null, handled_invoice_ids: [...handled, invoiceId] })
        outcomes.push({ order_link_id: id, invoice_id: invoiceId, action: "adopted" })
        continue
      }
      const decision = decideLinkSale(
        { amount: formatAmount(link.amount as never), currency_code: link.currency_code, settled_invoice_id: link.payment_id ? link.settled_invoice_id : null },
        { invoice_id: invoiceId, outcome: classifyTransaction(transaction), amount: transaction.productPrice ?? transaction.transactionAmount, currency_code: transaction.currencyCode },
        {
          status: order ? order.status : "canceled",
          total: order ? formatAmount(order.total as never) : "0",
          currency_code: String(order?.currency_code ?? "").toUpperCase(),
          paid_otherwise: (order?.payment_collections ?? []).some((collection) => PAID_COLLECTION_STATUSES.includes(String(collection.status))),
        }
      )
      if (decision.action === "wait") {
        outcomes.push({ order_link_id: id, invoice_id: invoiceId, action: "waiting" })
      } else if (decision.action === "not_charged") {
        await record({ handled_invoice_ids: [...handled, invoiceId] })
        outcomes.push({ order_link_id: id, invoice_id: invoiceId, action: "not_charged" })
      } else if (decision.action === "refund") {
        const outcome = await reverseGatewayPayment(client, invoiceId, transaction)
        const refused: RefusedSale = {
          invoice_id: invoiceId,
          reason: decision.reason,
          amount: transaction.productPrice ?? transaction.transactionAmount,
          currency_code: transaction.currencyCode ? transaction.currencyCode.toUpperCase() : null,
          outcome,
          at: new Date().toISOString(),
        }
        await record({ refused_sales: [...((link.refused_sales as unknown as RefusedSale[]) ?? []), refused], handled_invoice_ids: [...handled, invoiceId], settle_error: null })
        logger.info(`Sipay phone order ${link.order_id}: sale ${invoiceId} of link ${link.dpl_id} given back (${decision.reason})`)
        outcomes.push({ order_link_id: id, invoice_id: invoiceId, action: "refunded", reason: decision.reason })
      } else {
        // Claimed first (unique): no other link can take this sale, and a later sale of this link is a second payment.
        await record({ settled_invoice_id: invoiceId, settle_error: null })
        try {
          const { result: payment } = await settleOrderPaymentLinkWorkflow(container).run({
            input: { order_id: link.order_id, order_link_id: id, invoice_id: invoiceId, convert_draft: Boolean(order?.is_draft_order) },
          })
          await record({ payment_id: payment?.id ?? null, settled_at: new Date(), converted_draft: Boolean(order?.is_draft_order), handled_invoice_ids: [...handled, invoiceId] })
          logger.info(`Sipay phone order ${link.order_id}: paid by sale ${invoiceId} of link ${link.dpl_id} (payment ${payment?.id})`)
          outcomes.push({ order_link_id: id, invoice_id: invoiceId, action: "settled" })
        } catch (error) {
          await record({ settled_invoice_id: null, settle_error: (error as Error)?.message ?? String(error) })
          throw error
        }
      }
    } catch (error) {
      const message = (error as Error)?.message ?? String(error)
      if (!link.settle_error) await record({ settle_error: message }).catch(() => undefined)
      logger.warn(`Sipay phone order ${link.order_id}: settling sale ${invoiceId} of link ${link.dpl_id} failed, retried on the next sync: ${message}`)
      outcomes.push({ order_link_id: id, invoice_id: invoiceId, action: "failed", error: message })
    }
  }
  return outcomes
}

async function loadOrder(container: MedusaContainer, orderId: string): Promise<OrderView | null> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "order",
    fields: [
      "id",
      "status",
      "is_draft_order",
      "total",
      "currency_code",
      "payment_collections.status",
      "payment_collections.payments.id",
      "payment_collections.payments.provider_id",
      "payment_collections.payments.data",
      "payment_collections.payments.canceled_at",
    ],
    filters: { id: orderId },
  })
  return (data[0] as OrderView | undefined) ?? null
}
