import { LINK_CURRENCY_IDS } from "../sipay/payment-links"
import type { PaymentLinkRecord } from "../sipay"

/** From the gateway's payment link record (data.dpl) to this plugin's stored row, field for field. Pure. */

export type LinkCurrencyCode = keyof typeof LINK_CURRENCY_IDS

export function currencyCodeOfLink(currency: unknown): LinkCurrencyCode | null {
  const id = Number(currency)
  const entry = Object.entries(LINK_CURRENCY_IDS).find(([, value]) => value === id)
  return (entry?.[0] as LinkCurrencyCode | undefined) ?? null
}

function integer(value: unknown, fallback: number | null = null): number | null {
  const number = Number(value)
  return value === null || value === undefined || value === "" || !Number.isFinite(number) ? fallback : Math.trunc(number)
}

function nullable(value: unknown): unknown {
  return value === undefined ? null : value
}

/** The payer-facing address: {link_base}/dplLink/<token>. */
export function payerLinkOf(linkBase: string, token: string): string {
  return `${linkBase.replace(/\/+$/, "")}/dplLink/${encodeURIComponent(token)}`
}

/**
 * Where the gateway roots payer links. The interface names it {link_base} without giving it; the
 * sandbox serves it at the origin of its base URL, and a sendemail answer's data.link replaces this guess.
 */
export function linkBaseOf(panelBaseUrl: string): string {
  return new URL(panelBaseUrl).origin
}

/** The columns of a stored link that come from the gateway's record. */
export function linkColumnsFrom(dpl: PaymentLinkRecord) {
  const record = dpl as Record<string, unknown>
  return {
    dpl_id: integer(record.id) as number,
    amount: String(record.amount),
    currency: integer(record.currency) as number,
    currency_code: currencyCodeOfLink(record.currency) ?? String(record.currency),
    payment_method: nullable(record.payment_method),
    type: integer(record.type, 2) as number,
    expire_date: String(record.expire_date ?? ""),
    expire_time: integer(record.expire_time),
    max_number_of_uses: integer(record.max_number_of_uses, 0) as number,
    number_of_uses: integer(record.number_of_uses, 0) as number,
    gsm: nullable(record.gsm),
    email: nullable(record.email),
    photo: nullable(record.photo),
    name_of_product: String(record.name_of_product ?? ""),
    description: String(record.description ?? ""),
    merchant_id: integer(record.merchant_id),
    created_by: integer(record.created_by),
    created_by_name: (record.created_by_name as string | null | undefined) ?? null,
    modified_by: nullable(record.modified_by),
    modified_by_name: nullable(record.modified_by_name),
    token: String(record.token ?? ""),
    status: String(record.status ?? "ACTIVE"),
    is_email_send: integer(record.is_email_send, 0) as number,
    distance_sale_status: integer(record.distance_sale_status),
    is_amount_set_by_user: integer(record.is_amount_set_by_user, 0) as number,
    gateway_created_at: (record.created_at as string | null | undefined) ?? null,
    gateway_updated_at: (record.updated_at as string | null | undefined) ?? null,
  }
}

export type LinkColumns = ReturnType<typeof linkColumnsFrom>
