import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import { formatAmount } from "../../../../../../lib/sipay/amount"
import { linkBaseOf } from "../../../../../../lib/payment-links"
import { createOrderPaymentLinkWorkflow } from "../../../../../../workflows/order-payment-links/create-order-payment-link"
import { refreshPaymentLinkWorkflow } from "../../../../../../workflows/payment-links"
import { settleOrderPaymentLinks } from "../../../../../../workflows/order-payment-links/settle-links"
import { sipayModuleOf } from "../../../../../sipay-responses"
import { CreateOrderPaymentLinkBody } from "./validators"

/** A single-use link for the (draft or unpaid) order's total, e-mailed to the customer in the same action. */
export const POST = async (req: AuthenticatedMedusaRequest, res: MedusaResponse) => {
  const parsed = CreateOrderPaymentLinkBody.safeParse(req.body ?? {})
  if (!parsed.success) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, parsed.error.issues.map((issue) => issue.message).join("; "))
  }
  const sipay = sipayModuleOf(req)
  await createOrderPaymentLinkWorkflow(req.scope).run({
    input: { order_id: req.params.id, email: parsed.data.email ?? null, link_base: linkBaseOf(sipay.getClient().panelBaseUrl) },
  })
  res.status(201).json({ order_payment_links: await orderLinksView(req, req.params.id, false) })
}

/** The order's links, each brought up to date from the sales ledger (paid, expired or still open) and settled (the order paid once, other payments given back), and whether the order changed since. */
export const GET = async (req: AuthenticatedMedusaRequest, res: MedusaResponse) => {
  res.json({ order_payment_links: await orderLinksView(req, req.params.id, true) })
}

async function orderLinksView(req: AuthenticatedMedusaRequest, orderId: string, refresh: boolean) {
  const sipay = sipayModuleOf(req)
  const query = req.scope.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({ entity: "order", fields: ["id", "total", "currency_code"], filters: { id: orderId } })
  const order = data[0] as Record<string, any> | undefined
  if (!order) {
    throw new MedusaError(MedusaError.Types.NOT_FOUND, `Order ${orderId} was not found`)
  }
  let bound = await sipay.listOrderPaymentLinks({ order_id: orderId }, { order: { created_at: "DESC" } })
  if (refresh && bound.length) {
    for (const entry of bound) await refreshPaymentLinkWorkflow(req.scope).run({ input: { id: entry.payment_link_id } })
    await settleOrderPaymentLinks(req.scope, { order_id: orderId })
    bound = await sipay.listOrderPaymentLinks({ order_id: orderId }, { order: { created_at: "DESC" } })
  }
  const views: Record<string, unknown>[] = []
  for (const entry of bound) {
    const link = await sipay.retrievePaymentLink(entry.payment_link_id)
    const amount = formatAmount(entry.amount as never)
    views.push({
      id: entry.id,
      payment_link_id: link.id,
      dpl_id: entry.dpl_id,
      link: link.link,
      amount,
      currency_code: entry.currency_code,
      email: entry.email,
      email_outcome: entry.email_outcome,
      email_error: entry.email_error ?? null,
      /** ACTIVE (unpaid, payable), USED (paid), EXPIRED (unpaid, no longer payable), from the ledger's sales of the link. */
      status: link.status,
      number_of_uses: link.number_of_uses,
      expire_date: link.expire_date,
      synced_at: link.synced_at ?? null,
      order_total_changed: formatAmount(order.total) !== amount || String(order.currency_code).toUpperCase() !== entry.currency_code,
      /** paid (the order is paid: payment_id), refunded (its payment given back: refused_sales), open (payable until expire_date), expired (unpaid), processing (paid at the gateway, not yet settled). */
      state: linkStateOf(entry, link.status),
      settled_invoice_id: entry.payment_id ? entry.settled_invoice_id : null,
      payment_id: entry.payment_id ?? null,
      settled_at: entry.settled_at ?? null,
      converted_draft: entry.converted_draft,
      /** Payments of the link the order did not keep, each given back at the gateway: why, how much, when. */
      refused_sales: entry.refused_sales ?? [],
      settle_error: entry.settle_error ?? null,
      created_at: entry.created_at,
    })
  }
  return views
}

function linkStateOf(entry: { payment_id?: string | null; refused_sales?: unknown }, gatewayStatus: string): "paid" | "refunded" | "open" | "expired" | "processing" {
  if (entry.payment_id) return "paid"
  if (Array.isArray(entry.refused_sales) && entry.refused_sales.length) return "refunded"
  if (gatewayStatus === "ACTIVE") return "open"
  return gatewayStatus === "EXPIRED" ? "expired" : "processing"
}
