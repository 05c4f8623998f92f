import { createWorkflow, transform, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { linkStateFrom } from "../../lib/payment-links"
import { countPaymentLinkUsesStep } from "../steps/count-payment-link-uses"
import { updatePaymentLinkStep } from "../steps/record-payment-link"
import { loadPaymentLinkStep } from "../steps/send-payment-link-email"

/**
 * Brings a link's uses and status up to date without e-mailing anyone: uses are counted from the
 * merchant's sales (getTransactions, which names each sale's dpl_id), the status follows the
 * gateway's rules (expired after its date and hour, used up at its maximum). The interface has no
 * operation that reads a link; dpl/sendemail returns the record but sends an e-mail, so it is not used.
 */
export const refreshPaymentLinkWorkflow = createWorkflow("sipay-refresh-payment-link", (input: { id: string }) => {
  const link = loadPaymentLinkStep({ id: input.id })
  const counted = countPaymentLinkUsesStep(
    transform({ link }, ({ link }) => ({
      dpl_id: Number(link.dpl_id),
      created_at: link.gateway_created_at ?? link.created_at,
      expire_date: link.expire_date,
    }))
  )
  const updated = updatePaymentLinkStep(
    transform({ link, counted }, ({ link, counted }) => ({
      id: link.id,
      changes: {
        ...linkStateFrom(link, counted.uses, new Date(counted.counted_at)),
        synced_at: counted.counted_at,
        synced_from: "transactions",
      },
    }))
  )
  return new WorkflowResponse(updated)
})
