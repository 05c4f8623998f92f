import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import type { MedusaRequest } from "@medusajs/framework/http"
import { recurringPlanOfCart, type RecurringPlan } from "../lib/checkout/recurring"
import type { RecurringPlanView } from "../lib/shopper-messages"

type Query = { graph: (config: any) => Promise<{ data: unknown[] }> }

/** The plan of a cart whose products are recurring (product metadata `sipay_recurring`), or null. */
export function planOfItems(items: { product?: { metadata?: Record<string, unknown> | null } | null }[] | null | undefined): RecurringPlan | null {
  const plan = recurringPlanOfCart((items ?? []).map((item) => item.product?.metadata ?? null))
  return plan && typeof plan === "object" ? plan : null
}

/** The recurring plan of the cart `cartId` pays with, or null (also for an unknown cart). */
export async function recurringPlanOfCartId(req: MedusaRequest, cartId: string): Promise<RecurringPlan | null> {
  const query = req.scope.resolve<Query>(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({ entity: "cart", fields: ["id", "items.product.metadata"], filters: { id: cartId } })
  return planOfItems((data[0] as { items?: any[] } | undefined)?.items)
}

/** The recurring plan of the cart a payment collection belongs to, or null. */
export async function recurringPlanOfCollection(req: MedusaRequest, collectionId: string): Promise<RecurringPlan | null> {
  const query = req.scope.resolve<Query>(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({ entity: "payment_collection", fields: ["cart.items.product.metadata"], filters: { id: collectionId } })
  return planOfItems((data[0] as { cart?: { items?: any[] } } | undefined)?.cart?.items)
}

/** What a storefront shows of a plan: each charge's amount (the cart's total), how many, how often. */
export function planView(plan: RecurringPlan, amount: string, currencyCode: string): RecurringPlanView {
  return { payment_number: plan.paymentNumber, cycle: plan.cycle, interval: plan.interval, amount, currency_code: currencyCode.toUpperCase() }
}

/** A recurring cart's installment offer: single payment only, the plan beside it (no gateway call: nothing to choose). */
export function singlePaymentOffer(plan: RecurringPlan, amount: string, currencyCode: string) {
  return {
    installments: [{ installments_number: 1, amount_to_be_paid: amount, label: null, card_program: null, card_scheme: null }],
    agricultural: null,
    recurring_plan: planView(plan, amount, currencyCode),
  }
}
