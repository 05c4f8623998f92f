import { amountNumber } from "../core/amounts"
import { formatIsoMicro, formatIstanbul } from "../core/clock"
import type { Gateway } from "../core/gateway"
import { succeeded } from "../payments/result"
import type { Merchant, PaymentLink } from "../types"

/** The payer-facing address: {link_base}/dplLink/<token>. */
export function linkUrl(gateway: Gateway, link: PaymentLink): string {
  return `${gateway.urls.link_base}/dplLink/${link.token}`
}

/** data.dpl: the interface's payment link record. */
export function linkRecord(link: PaymentLink, merchant: Merchant): Record<string, unknown> {
  return {
    id: link.id,
    amount: amountNumber(link.amount_minor),
    currency: link.currency_id,
    payment_method: null,
    type: 2,
    expire_date: formatIstanbul(link.expires_at_ms),
    expire_time: link.expire_time,
    max_number_of_uses: link.max_number_of_uses,
    number_of_uses: link.number_of_uses,
    gsm: null,
    email: null,
    photo: null,
    name_of_product: link.name_of_product,
    description: link.description,
    merchant_id: Number(merchant.merchant_id),
    created_by: Number(merchant.merchant_id),
    created_by_name: merchant.name,
    modified_by: null,
    modified_by_name: null,
    token: link.token,
    status: link.status,
    is_email_send: link.is_email_send,
    distance_sale_status: 0,
    is_amount_set_by_user: link.is_amount_set_by_user,
    created_at: formatIsoMicro(link.created_at_ms),
    updated_at: formatIsoMicro(link.updated_at_ms),
  }
}

/** Sweeper: counts each link's successful payments and expires links at their date and hour or when used up. */
export function refreshLinks(gateway: Gateway, now: number): boolean {
  let changed = false
  for (const link of gateway.store.state.links) {
    const uses = gateway.store.state.sales.filter((sale) => sale.dpl_id === link.id && succeeded(sale)).length
    const status = now >= link.expires_at_ms ? "EXPIRED" : link.max_number_of_uses > 0 && uses >= link.max_number_of_uses ? "USED" : "ACTIVE"
    if (uses === link.number_of_uses && status === link.status) continue
    Object.assign(link, { number_of_uses: uses, status, updated_at_ms: now })
    changed = true
  }
  return changed
}
