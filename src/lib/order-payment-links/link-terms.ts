import type { CustomerLanguage } from "../customer-language"
import type { NewPaymentLink } from "../payment-links"

/** How long a phone order's link stays payable (Istanbul days, the gateway's clock). */
export const ORDER_LINK_DAYS = 3

/** A 1x1 PNG: the gateway requires a product photo; a phone order has no single product to show. */
export const ORDER_LINK_PHOTO = {
  content: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  filename: "order.png",
  content_type: "image/png",
}

function istanbulDay(at: Date, plusDays: number): string {
  return new Date(at.getTime() + 3 * 3600_000 + plusDays * 86400_000).toISOString().slice(0, 10)
}

/** What the customer reads on the link's page, in their language: the product name and the description. */
const LINK_TEXTS: Record<CustomerLanguage, { name: (reference: string) => string; description: (reference: string, store: string | null) => string }> = {
  tr: {
    name: (reference) => `Sipariş${reference}`,
    description: (reference, store) => `Sipariş${reference} için ödeme${store ? ` (${store})` : ""}`,
  },
  en: {
    name: (reference) => `Order${reference}`,
    description: (reference, store) => `Payment for order${reference}${store ? ` at ${store}` : ""}`,
  },
}

/** A single-use link for the order's whole total, not editable by the payer, worded in the customer's language. Pure. */
export function orderLinkTerms(
  order: { display_id: number | string | null; amount: string; currency_code: string; store_name?: string | null; language: CustomerLanguage },
  now: Date
): NewPaymentLink {
  const reference = order.display_id === null || order.display_id === undefined ? "" : ` #${order.display_id}`
  const texts = LINK_TEXTS[order.language]
  return {
    amount: order.amount,
    currency_code: order.currency_code.toUpperCase(),
    is_amount_set_by_user: false,
    name_of_product: texts.name(reference).slice(0, 100),
    description: texts.description(reference, order.store_name || null).slice(0, 250),
    expire_date: istanbulDay(now, ORDER_LINK_DAYS),
    expire_hour: 23,
    max_number_of_uses: 1,
  }
}
