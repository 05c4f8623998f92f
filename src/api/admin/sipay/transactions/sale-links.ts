import type { MedusaContainer } from "@medusajs/framework/types"
import type { SaleRecord } from "../../../../lib/sipay"
import type { SaleLinks, SaleView } from "../../../../lib/sales-report"
import type { SaleOwner } from "../../../../lib/sales-report/sale-owner"
import { parseInvoiceId } from "../../../../providers/sipay/utils/session-data"
import { resolveSaleOwners } from "../../../../workflows/sale-owner/resolve-sale-owners"

const dplIdOf = (sale: SaleRecord) => (Number.isInteger(Number(sale.dpl_id)) && Number(sale.dpl_id) > 0 ? Number(sale.dpl_id) : null)

/** What the Sales page shows of a sale's owner: the order the sale paid, and, for a sale given back, the order its cart got from another sale. */
function linksOf(sale: SaleRecord, owner: SaleOwner): SaleLinks {
  const invoice = parseInvoiceId(sale.invoice_id)
  const paid = owner.kind === "payment" || owner.kind === "recurring_charge"
  return {
    order_id: paid ? owner.order_id : null,
    related_order_id: !paid && "order_id" in owner ? owner.order_id : null,
    sale_kind: owner.kind,
    payment_session_id: invoice?.sessionId ?? (owner.kind === "payment" ? owner.session_id : null),
    attempt_number: invoice?.attempt ?? null,
    payment_link_id: owner.kind === "payment_link" ? owner.payment_link_id : null,
    order_link_id: "order_link_id" in owner ? owner.order_link_id : null,
  }
}

/** Each record as the gateway gave it, plus what it is to Medusa (`medusa`, from resolveSaleOwners). */
export async function withSaleLinks(container: MedusaContainer, sales: SaleRecord[]): Promise<SaleView[]> {
  const owners = await resolveSaleOwners(
    container,
    sales.map((sale) => ({ invoice_id: String(sale.invoice_id ?? ""), gateway_order_id: sale.order_id === undefined || sale.order_id === null ? null : String(sale.order_id), dpl_id: dplIdOf(sale) }))
  )
  return sales.map((sale, index) => ({ ...sale, medusa: linksOf(sale, owners[index]) }))
}
