import type { AccountHolderDTO, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"

/**
 * A customer's account holders of the Sipay providers, always found through Medusa's customer link
 * (never from a request): each stands for the customer's number at the gateway's card storage (both
 * providers' holders carry the same number).
 */

export const SIPAY_PROVIDER_IDS = ["pp_sipay_sipay", "pp_sipay-2d_sipay"] as const

type Query = { graph: (config: Record<string, unknown>) => Promise<{ data: unknown[] }> }

export type CustomerForHolder = { id: string; email?: string | null; first_name?: string | null; last_name?: string | null; phone?: string | null }

/** The customer's Sipay account holders (a soft-deleted customer's too: the link outlives the delete). */
export async function sipayHoldersOf(container: MedusaContainer, customerId: string): Promise<AccountHolderDTO[]> {
  const query = container.resolve<Query>(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({ entity: "customer_account_holder", fields: ["account_holder_id"], filters: { customer_id: customerId } })
  const ids = (data as { account_holder_id?: string }[]).map((row) => row.account_holder_id).filter((id): id is string => Boolean(id))
  if (!ids.length) {
    return []
  }
  const { data: holders } = await query.graph({
    entity: "account_holder",
    fields: ["id", "provider_id", "external_id", "email", "data", "metadata", "created_at"],
    filters: { id: ids, provider_id: [...SIPAY_PROVIDER_IDS] },
  })
  return holders as AccountHolderDTO[]
}

export function customerNumberOf(holder: Pick<AccountHolderDTO, "external_id" | "data">): string | null {
  const number = String((holder.data as Record<string, unknown> | null)?.customer_number ?? holder.external_id ?? "")
  return /^\d{1,18}$/.test(number) ? number : null
}

/** The customer's number at the gateway, or null when they never had a Sipay account holder (so no card). */
export async function customerNumberOfCustomer(container: MedusaContainer, customerId: string): Promise<{ number: string; holder: AccountHolderDTO } | null> {
  for (const holder of await sipayHoldersOf(container, customerId)) {
    const number = customerNumberOf(holder)
    if (number) {
      return { number, holder }
    }
  }
  return null
}

/**
 * The customer's account holder, created (and linked) as Medusa does for a logged-in payment session
 * when there is none yet: a session started before the shopper signed in has none.
 */
export async function ensureCustomerHolder(container: MedusaContainer, customer: CustomerForHolder, providerId: string): Promise<{ number: string; holder: AccountHolderDTO }> {
  const known = await customerNumberOfCustomer(container, customer.id)
  if (known) {
    return known
  }
  const paymentModule = container.resolve(Modules.PAYMENT)
  const holder = await paymentModule.createAccountHolder({
    provider_id: providerId,
    context: { customer: { id: customer.id, email: customer.email ?? "", first_name: customer.first_name ?? undefined, last_name: customer.last_name ?? undefined, phone: customer.phone ?? undefined } as never },
  })
  await container.resolve(ContainerRegistrationKeys.LINK).create({ [Modules.CUSTOMER]: { customer_id: customer.id }, [Modules.PAYMENT]: { account_holder_id: holder.id } })
  const number = customerNumberOf(holder)
  if (!number) {
    throw new Error(`the Sipay account holder of ${customer.id} has no customer number`)
  }
  return { number, holder }
}
