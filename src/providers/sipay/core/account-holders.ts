import type {
  CreateAccountHolderInput,
  CreateAccountHolderOutput,
  DeleteAccountHolderInput,
  DeleteAccountHolderOutput,
  DeletePaymentMethodInput,
  DeletePaymentMethodOutput,
  ListPaymentMethodsInput,
  ListPaymentMethodsOutput,
  PaymentAccountHolderDTO,
  RetrieveAccountHolderInput,
  RetrieveAccountHolderOutput,
  SavePaymentMethodInput,
  SavePaymentMethodOutput,
  UpdateAccountHolderInput,
  UpdateAccountHolderOutput,
} from "@medusajs/framework/types"
import { MedusaError } from "@medusajs/framework/utils"
import type { SipayClient } from "../../../lib/sipay"
import type { SharedStateDatabase } from "../../../lib/shared-state/database"
import { allocateCustomerNumber } from "../../../lib/saved-cards/customer-numbers"
import { deleteCustomerCard, deleteEveryCustomerCard, listCustomerCards } from "../../../lib/saved-cards/customer-cards"
import { storeCard, type CardToStore } from "../../../lib/saved-cards/store-card"

/**
 * Medusa's account-holder contract on the gateway's card storage. An account holder is the
 * customer's number there (allocated here, once per customer, no gateway call: Medusa creates one on
 * every logged-in customer's payment session). Payment methods are the cards the gateway lists for
 * that number, read each time (the plugin stores no card token); their ids are handles
 * (lib/saved-cards/card-view.ts), never tokens.
 */

export type AccountHolderDeps = { client: SipayClient; appSecret: string; database: () => SharedStateDatabase; savedCardsEnabled: boolean }

/** The customer number an account holder stands for (its external id, also in its data). */
export function customerNumberOfHolder(holder: (Partial<PaymentAccountHolderDTO> & { external_id?: string; email?: string | null }) | undefined): string {
  const number = String((holder?.data as Record<string, unknown> | undefined)?.customer_number ?? holder?.external_id ?? "")
  if (!/^\d{1,18}$/.test(number)) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, "Sipay: the account holder has no customer number")
  }
  return number
}

/**
 * The customer's number (allocated once; no gateway call). With saved cards off, no account holder at
 * all (Medusa then creates none): a store that does not offer them writes nothing for its customers.
 */
export async function createAccountHolder(deps: AccountHolderDeps, { context }: CreateAccountHolderInput): Promise<CreateAccountHolderOutput> {
  if (!deps.savedCardsEnabled) {
    return {} as CreateAccountHolderOutput
  }
  if (context.account_holder?.data?.customer_number) {
    const number = customerNumberOfHolder(context.account_holder)
    return { id: number, data: { customer_number: number } }
  }
  const customerId = context.customer?.id
  if (!customerId) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, "Sipay: an account holder needs the customer")
  }
  const number = await allocateCustomerNumber(deps.database(), customerId)
  return { id: number, data: { customer_number: number } }
}

export async function retrieveAccountHolder({ id }: RetrieveAccountHolderInput): Promise<RetrieveAccountHolderOutput> {
  const number = customerNumberOfHolder({ external_id: id })
  return { id: number, data: { customer_number: number } }
}

/** The gateway keeps nothing of the customer but their number: nothing to change there. */
export async function updateAccountHolder({ context }: UpdateAccountHolderInput): Promise<UpdateAccountHolderOutput> {
  return { data: context.account_holder?.data ?? {} }
}

/** Every card of the customer deleted at the gateway (what is left: safe to repeat). */
export async function deleteAccountHolder(deps: AccountHolderDeps, { context }: DeleteAccountHolderInput): Promise<DeleteAccountHolderOutput> {
  await deleteEveryCustomerCard(deps.client, customerNumberOfHolder(context.account_holder))
  return {}
}

export async function listPaymentMethods(deps: AccountHolderDeps, { context }: ListPaymentMethodsInput): Promise<ListPaymentMethodsOutput> {
  const cards = await listCustomerCards(deps.client, deps.appSecret, customerNumberOfHolder(context?.account_holder))
  return cards.map((card) => ({ id: card.id, data: card }))
}

/** `data.card` ({ holder_name, number, expiry_month, expiry_year }) stored for the holder's customer; the card is used in memory only. */
export async function savePaymentMethod(deps: AccountHolderDeps, { context, data }: SavePaymentMethodInput): Promise<SavePaymentMethodOutput> {
  const number = customerNumberOfHolder(context?.account_holder)
  const card = cardOf(data?.card)
  const customer = context?.customer
  const name = [customer?.first_name, customer?.last_name].filter(Boolean).join(" ") || card.holderName
  const { card: view } = await storeCard(deps.client, deps.appSecret, number, card, { name, email: customer?.email ?? (context?.account_holder as { email?: string } | undefined)?.email ?? "", phone: customer?.phone ?? undefined })
  return { id: view.id, data: view }
}

export async function deletePaymentMethod(deps: AccountHolderDeps, { context, data }: DeletePaymentMethodInput): Promise<DeletePaymentMethodOutput> {
  // A handle no listed card has (deleted meanwhile, in the panel too) leaves nothing to delete.
  await deleteCustomerCard(deps.client, deps.appSecret, customerNumberOfHolder(context?.account_holder), data.id)
  return {}
}

function cardOf(value: unknown): CardToStore {
  const card = (value ?? {}) as Record<string, unknown>
  const fields = ["holder_name", "number", "expiry_month", "expiry_year"]
  if (!fields.every((field) => typeof card[field] === "string" && card[field] !== "")) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, "Sipay: a card to save needs holder_name, number, expiry_month and expiry_year")
  }
  return { holderName: String(card.holder_name), number: String(card.number), expiryMonth: String(card.expiry_month), expiryYear: String(card.expiry_year) }
}
