import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import type { SaleRecord } from "../../../../lib/sipay"
import type { SaleLinks, SaleView } from "../../../../lib/sales-report"
import { parseInvoiceId } from "../../../../providers/sipay/utils/session-data"
import { SIPAY_MODULE } from "../../../../modules/sipay"
import type SipayModuleService from "../../../../modules/sipay/service"

/** Medusa order ids of our invoice ids: from the attempt, else from its cart's order. */
async function ordersOfInvoices(container: MedusaContainer, invoiceIds: string[]): Promise<Map<string, string>> {
  const orders = new Map<string, string>()
  if (!invoiceIds.length) {
    return orders
  }
  const sipay = container.resolve<SipayModuleService>(SIPAY_MODULE)
  const attempts = await sipay.listPaymentAttempts({ invoice_id: invoiceIds }, { select: ["invoice_id", "order_id", "cart_id"] })
  const byCart = new Map<string, string[]>()
  for (const attempt of attempts) {
    if (attempt.order_id) {
      orders.set(attempt.invoice_id, attempt.order_id)
    } else if (attempt.cart_id) {
      byCart.set(attempt.cart_id, [...(byCart.get(attempt.cart_id) ?? []), attempt.invoice_id])
    }
  }
  if (byCart.size) {
    const query = container.resolve(ContainerRegistrationKeys.QUERY)
    const { data: carts } = await query.graph({ entity: "cart", fields: ["id", "order.id"], filters: { id: [...byCart.keys()] } })
    for (const cart of carts as { id: string; order?: { id: string } | null }[]) {
      for (const invoiceId of cart.order?.id ? byCart.get(cart.id) ?? [] : []) {
        orders.set(invoiceId, cart.order!.id)
      }
    }
  }
  return orders
}

/** This plugin's payment link records of the gateway's dpl ids. */
async function paymentLinksOf(container: MedusaContainer, dplIds: number[]): Promise<Map<number, string>> {
  if (!dplIds.length) {
    return new Map()
  }
  const sipay = container.resolve<SipayModuleService>(SIPAY_MODULE)
  const links = await sipay.listPaymentLinks({ dpl_id: dplIds }, { select: ["id", "dpl_id"] })
  return new Map(links.map((link) => [Number(link.dpl_id), link.id]))
}

const dplIdOf = (sale: SaleRecord) => (Number.isInteger(Number(sale.dpl_id)) && Number(sale.dpl_id) > 0 ? Number(sale.dpl_id) : null)

/** Each record as the gateway gave it, plus what the plugin knows (`medusa`). */
export async function withSaleLinks(container: MedusaContainer, sales: SaleRecord[]): Promise<SaleView[]> {
  const ours = [...new Set(sales.map((sale) => sale.invoice_id).filter((id) => parseInvoiceId(id)))]
  const [orders, links] = await Promise.all([
    ordersOfInvoices(container, ours),
    paymentLinksOf(container, [...new Set(sales.map(dplIdOf).filter((id): id is number => id !== null))]),
  ])
  return sales.map((sale) => {
    const invoice = parseInvoiceId(sale.invoice_id)
    const dplId = dplIdOf(sale)
    const medusa: SaleLinks = {
      order_id: orders.get(sale.invoice_id) ?? null,
      payment_session_id: invoice?.sessionId ?? null,
      attempt_number: invoice?.attempt ?? null,
      payment_link_id: dplId === null ? null : links.get(dplId) ?? null,
    }
    return { ...sale, medusa }
  })
}
