import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { SIPAY_MODULE } from "../../modules/sipay"
import type SipayModuleService from "../../modules/sipay/service"
import { parseInvoiceId } from "../../providers/sipay/utils/session-data"
import {
  decideSaleOwner,
  dplIdOf,
  type AttemptFacts,
  type OrderLinkFacts,
  type PaymentFacts,
  type SaleKey,
  type SaleOwner,
} from "../../lib/sales-report/sale-owner"

type PaymentRow = { id: string; payment_collection_id: string; payment_session_id?: string | null; data?: Record<string, unknown> | null }

const text = (value: unknown) => (typeof value === "string" && value !== "" ? value : null)
const unique = <T>(values: T[]) => [...new Set(values)]

/** Medusa's payments (its payment module) with the order each one's collection belongs to (Medusa's link). */
async function paymentsWithOrders(container: MedusaContainer, filter: { payment_session_id?: string[]; id?: string[] }): Promise<PaymentFacts[]> {
  const ids = filter.id ?? filter.payment_session_id ?? []
  if (!ids.length) return []
  const rows = (await container
    .resolve(Modules.PAYMENT)
    .listPayments(filter, { select: ["id", "data", "payment_collection_id", "payment_session_id"] })) as unknown as PaymentRow[]
  const collections = unique(rows.map((row) => row.payment_collection_id))
  const orders = new Map<string, string>()
  if (collections.length) {
    const { data } = await container
      .resolve(ContainerRegistrationKeys.QUERY)
      .graph({ entity: "order_payment_collection", fields: ["order_id", "payment_collection_id"], filters: { payment_collection_id: collections } })
    for (const link of data as { order_id: string; payment_collection_id: string }[]) orders.set(link.payment_collection_id, link.order_id)
  }
  return rows.map((row) => ({
    id: row.id,
    payment_collection_id: row.payment_collection_id,
    payment_session_id: row.payment_session_id ?? null,
    invoice_id: text(row.data?.invoice_id),
    gateway_order_no: text(row.data?.gateway_order_no),
    order_id: orders.get(row.payment_collection_id) ?? null,
  }))
}

async function ordersOfCarts(container: MedusaContainer, cartIds: string[]): Promise<Map<string, string>> {
  const orders = new Map<string, string>()
  if (!cartIds.length) return orders
  const { data } = await container.resolve(ContainerRegistrationKeys.QUERY).graph({ entity: "cart", fields: ["id", "order.id"], filters: { id: cartIds } })
  for (const cart of data as { id: string; order?: { id: string } | null }[]) if (cart.order?.id) orders.set(cart.id, cart.order.id)
  return orders
}

/**
 * What each gateway sale is to Medusa (lib/sales-report/sale-owner.ts), answered in one pass for a
 * batch: this plugin's attempts and payment links, Medusa's payments of their sessions and the
 * orders of those payments and carts. Takes the app's container (the plugin module's own container
 * cannot reach the payment module). The answers are in the order of `sales`; attempts the caller
 * has just read may be passed in (`known`) instead of being read again.
 */
export async function resolveSaleOwners(container: MedusaContainer, sales: readonly SaleKey[], known: { attempts?: AttemptFacts[] } = {}): Promise<SaleOwner[]> {
  const sipay = container.resolve<SipayModuleService>(SIPAY_MODULE)
  const knownInvoices = new Set((known.attempts ?? []).map((attempt) => attempt.invoice_id))
  const checkoutInvoices = unique(sales.map((sale) => sale.invoice_id).filter((id) => parseInvoiceId(id) && !knownInvoices.has(id)))
  const dplIds = unique(sales.filter((sale) => !parseInvoiceId(sale.invoice_id)).map(dplIdOf).filter((id): id is number => id !== null))

  const [readAttempts, orderLinks, paymentLinks] = await Promise.all([
    checkoutInvoices.length
      ? sipay.listPaymentAttempts({ invoice_id: checkoutInvoices }, { select: ["invoice_id", "session_id", "cart_id", "status", "gateway_order_no", "error_message"] })
      : Promise.resolve([]),
    dplIds.length ? sipay.listOrderPaymentLinks({ dpl_id: dplIds }) : Promise.resolve([]),
    dplIds.length ? sipay.listPaymentLinks({ dpl_id: dplIds }, { select: ["id", "dpl_id"] }) : Promise.resolve([]),
  ])
  const attempts = new Map([...(known.attempts ?? []), ...(readAttempts as AttemptFacts[])].map((attempt) => [attempt.invoice_id, attempt]))
  const [sessionPayments, linkPayments, cartOrders] = await Promise.all([
    paymentsWithOrders(container, { payment_session_id: unique([...attempts.values()].map((attempt) => attempt.session_id)) }),
    paymentsWithOrders(container, { id: orderLinks.map((link) => link.payment_id).filter((id): id is string => Boolean(id)) }),
    ordersOfCarts(container, unique([...attempts.values()].map((attempt) => attempt.cart_id).filter((id): id is string => Boolean(id)))),
  ])
  const linkFacts = new Map<number, OrderLinkFacts>(
    orderLinks.map((link) => {
      const refused = ((link.refused_sales as unknown as { invoice_id: string; reason: string }[] | null) ?? []).filter((entry) => typeof entry?.invoice_id === "string")
      return [
        Number(link.dpl_id),
        {
          id: link.id,
          order_id: link.order_id,
          settled_invoice_id: link.settled_invoice_id ?? null,
          payment_id: link.payment_id ?? null,
          refused_invoice_ids: refused.map((entry) => entry.invoice_id),
          refusal_reasons: Object.fromEntries(refused.map((entry) => [entry.invoice_id, entry.reason])),
        },
      ]
    })
  )
  const plainLinks = new Map(paymentLinks.map((link) => [Number(link.dpl_id), link.id]))

  return sales.map((sale) => {
    const attempt = attempts.get(sale.invoice_id) ?? null
    const dplId = attempt ? null : dplIdOf(sale)
    const orderLink = dplId !== null ? linkFacts.get(dplId) ?? null : null
    return decideSaleOwner({
      sale,
      attempt,
      sessionPayments: attempt ? sessionPayments.filter((payment) => payment.payment_session_id === attempt.session_id) : [],
      cartOrderId: attempt?.cart_id ? cartOrders.get(attempt.cart_id) ?? null : null,
      orderLink,
      linkPayment: orderLink?.payment_id ? linkPayments.find((payment) => payment.id === orderLink.payment_id) ?? null : null,
      paymentLinkId: dplId !== null && !orderLink ? plainLinks.get(dplId) ?? null : null,
    })
  })
}

export async function resolveSaleOwner(container: MedusaContainer, sale: SaleKey, known: { attempts?: AttemptFacts[] } = {}): Promise<SaleOwner> {
  const [owner] = await resolveSaleOwners(container, [sale], known)
  return owner
}

/** The same answer as a workflow step, for workflows that act on a gateway sale. */
export const resolveSaleOwnerStep = createStep("sipay-resolve-sale-owner", async (sale: SaleKey, { container }) => new StepResponse(await resolveSaleOwner(container, sale)))
