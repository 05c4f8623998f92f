import { createWorkflow, transform, when, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { linkColumnsFrom } from "../../lib/payment-links"
import { updatePaymentLinkStep } from "../steps/record-payment-link"
import { loadPaymentLinkStep, recordPaymentLinkEmailStep, sendPaymentLinkEmailStep } from "../steps/send-payment-link-email"

export type SendPaymentLinkInput = { id: string; emails: string[] }

/**
 * E-mails a link through the gateway (dpl/sendemail) and records the send, sent or refused with the
 * gateway's error; a successful answer also brings the stored record up to date (uses, status).
 */
export const sendPaymentLinkWorkflow = createWorkflow("sipay-send-payment-link", (input: SendPaymentLinkInput) => {
  const link = loadPaymentLinkStep({ id: input.id })
  const sent = sendPaymentLinkEmailStep(transform({ link, input }, ({ link, input }) => ({ dpl_id: Number(link.dpl_id), emails: input.emails })))
  const send = recordPaymentLinkEmailStep(
    transform({ link, input, sent }, ({ link, input, sent }) => ({
      payment_link_id: link.id,
      recipients: input.emails,
      sent_at: sent.sent_at,
      outcome: sent.outcome,
      error_code: sent.outcome === "failed" ? sent.error_code : null,
      error_message: sent.outcome === "failed" ? sent.error_message : null,
    }))
  )
  when({ sent }, ({ sent }) => sent.outcome === "sent").then(() => {
    updatePaymentLinkStep(
      transform({ link, sent }, ({ link, sent }) => {
        // The id and amount stay as created; the rest is the gateway's current record.
        const { dpl_id: _id, amount: _amount, ...record } = sent.outcome === "sent" ? linkColumnsFrom(sent.dpl) : ({} as ReturnType<typeof linkColumnsFrom>)
        return {
          id: link.id,
          changes: {
            ...record,
            ...(sent.outcome === "sent" && sent.link ? { link: sent.link } : {}),
            synced_at: sent.sent_at,
            synced_from: "sendemail",
          },
        }
      })
    )
  })
  return new WorkflowResponse(transform({ sent, send }, ({ sent, send }) => ({ send, outcome: sent.outcome, error: sent.outcome === "failed" ? sent : null })))
})
