import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { createStep, createWorkflow, StepResponse, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { deleteEveryCustomerCard } from "../../lib/saved-cards/customer-cards"
import { SIPAY_MODULE } from "../../modules/sipay"
import type SipayModuleService from "../../modules/sipay/service"
import { customerNumberOf, sipayHoldersOf } from "./customer-holder"

export type DeleteCustomerCardsInput = { customer_id: string }
export type DeleteCustomerCardsResult = { customer_id: string; cards_deleted: number; account_holders_deleted: number }

/**
 * A customer deleted in Medusa has every saved card deleted at the gateway, then their Sipay account
 * holders (and links) removed. Cards go first: when the gateway cannot be reached the holders stay, so
 * a later run still finds the customer's number. Nothing to compensate (a deleted card cannot be
 * restored); safe to run twice (no holder left, nothing to do).
 */
async function deleteCustomerCards(container: MedusaContainer, customerId: string): Promise<DeleteCustomerCardsResult> {
  const holders = await sipayHoldersOf(container, customerId)
  const client = container.resolve<SipayModuleService>(SIPAY_MODULE).getClient()
  let cards = 0
  for (const number of new Set(holders.map(customerNumberOf).filter((n): n is string => n !== null))) {
    cards += await deleteEveryCustomerCard(client, number)
  }
  const paymentModule = container.resolve(Modules.PAYMENT)
  const link = container.resolve(ContainerRegistrationKeys.LINK)
  for (const holder of holders) {
    await paymentModule.deleteAccountHolder(holder.id)
    await link.dismiss({ [Modules.CUSTOMER]: { customer_id: customerId }, [Modules.PAYMENT]: { account_holder_id: holder.id } })
  }
  return { customer_id: customerId, cards_deleted: cards, account_holders_deleted: holders.length }
}

const deleteCustomerCardsStep = createStep("sipay-delete-customer-cards", async (input: DeleteCustomerCardsInput, { container }) => {
  return new StepResponse(await deleteCustomerCards(container, input.customer_id))
})

export const deleteCustomerCardsWorkflow = createWorkflow("sipay-delete-customer-cards", (input: DeleteCustomerCardsInput) => {
  return new WorkflowResponse(deleteCustomerCardsStep(input))
})
