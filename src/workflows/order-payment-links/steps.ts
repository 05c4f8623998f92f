import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { SIPAY_MODULE } from "../../modules/sipay"
import type SipayModuleService from "../../modules/sipay/service"
import { formatAmount } from "../../lib/sipay/amount"
import { PAID_COLLECTION_STATUSES } from "../../lib/order-payment-links/settlement"
import type { CustomerLanguage } from "../../lib/customer-language"
import { customerLanguageOf, readStoreFacts } from "../steps/store-facts"

export type PhoneOrder = {
  order_id: string
  display_id: number | null
  amount: string
  currency_code: string
  email: string | null
  store_name: string | null
  /** The language of the link's texts: the order's locale, else the store's first, else the option. */
  language: CustomerLanguage
}

/**
 * The order a link is made for: a draft order, or an order with nothing paid; not cancelled; one
 * active link at a time (a single-use link per total).
 */
export const loadPhoneOrderStep = createStep("sipay-load-phone-order", async (input: { order_id: string }, { container }) => {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "order",
    fields: ["id", "display_id", "status", "total", "currency_code", "email", "locale", "payment_collections.status"],
    filters: { id: input.order_id },
  })
  const order = data[0] as Record<string, any> | undefined
  if (!order) {
    throw new MedusaError(MedusaError.Types.NOT_FOUND, `Order ${input.order_id} was not found`)
  }
  if (order.status === "canceled") {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `Order ${input.order_id} is cancelled`)
  }
  if ((order.payment_collections ?? []).some((c: any) => PAID_COLLECTION_STATUSES.includes(String(c?.status)))) {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `Order ${input.order_id} is already paid`)
  }
  const amount = formatAmount(order.total)
  if (!(Number(amount) > 0)) {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `Order ${input.order_id} has nothing to pay`)
  }
  const sipay = container.resolve<SipayModuleService>(SIPAY_MODULE)
  const previous = await sipay.listOrderPaymentLinks({ order_id: order.id })
  if (previous.length) {
    const links = await sipay.listPaymentLinks({ id: previous.map((p) => p.payment_link_id) })
    const active = links.find((link) => link.status === "ACTIVE")
    if (active) {
      throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `Order ${input.order_id} already has an active payment link (${active.link}); wait until it expires or is paid`)
    }
  }
  const store = await readStoreFacts(query)
  const phoneOrder: PhoneOrder = {
    order_id: order.id,
    display_id: order.display_id ?? null,
    amount,
    currency_code: String(order.currency_code).toUpperCase(),
    email: order.email ?? null,
    store_name: store.name,
    language: customerLanguageOf(order.locale, store, sipay.getOptions().defaultLocale),
  }
  return new StepResponse(phoneOrder)
})

/** Which order the link was made for, and whether its e-mail went out. */
export const recordOrderPaymentLinkStep = createStep(
  "sipay-record-order-payment-link",
  async (
    input: { order_id: string; payment_link_id: string; dpl_id: number; amount: string; currency_code: string; email: string; email_outcome: string; email_error: string | null },
    { container }
  ) => {
    const sipay = container.resolve<SipayModuleService>(SIPAY_MODULE)
    const created = await sipay.createOrderPaymentLinks(input as any)
    return new StepResponse(created, created.id)
  },
  async (id, { container }) => {
    if (id) await container.resolve<SipayModuleService>(SIPAY_MODULE).deleteOrderPaymentLinks(id)
  }
)
