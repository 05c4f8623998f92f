import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import { ContainerRegistrationKeys, CustomerWorkflowEvents } from "@medusajs/framework/utils"
import { deleteCustomerCardsWorkflow } from "../workflows/saved-cards/delete-customer-cards"

/** A customer deleted in Medusa: their saved cards are deleted at the gateway (docs/saved-cards.md). */
export default async function sipayCustomerDeletedHandler({ event, container }: SubscriberArgs<{ id: string }>) {
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
  try {
    const { result } = await deleteCustomerCardsWorkflow(container).run({ input: { customer_id: String(event.data.id) } })
    if (result.cards_deleted || result.account_holders_deleted) {
      logger.info(`Sipay: deleted customer ${result.customer_id}: ${result.cards_deleted} saved card(s) deleted at the gateway`)
    }
  } catch (error) {
    logger.error(`Sipay: the saved cards of deleted customer ${event.data.id} could not be deleted at the gateway: ${(error as Error).message}`)
  }
}

export const config: SubscriberConfig = {
  event: CustomerWorkflowEvents.DELETED,
}
