import { MedusaError } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { SIPAY_MODULE } from "../../modules/sipay"
import type SipayModuleService from "../../modules/sipay/service"
import { describeLinkFailure } from "../../lib/payment-links"
import { isSipayError, PaymentLinkRecord } from "../../lib/sipay"

export type EmailSendOutcome =
  | { outcome: "sent"; dpl: PaymentLinkRecord; link: string; sent_at: Date }
  | { outcome: "failed"; error_code: string | null; error_message: string; sent_at: Date }

export const loadPaymentLinkStep = createStep("sipay-load-payment-link", async (input: { id: string }, { container }) => {
  const [link] = await container.resolve<SipayModuleService>(SIPAY_MODULE).listPaymentLinks({ id: input.id })
  if (!link) {
    throw new MedusaError(MedusaError.Types.NOT_FOUND, `Payment link ${input.id} was not found`)
  }
  return new StepResponse(link)
})

/**
 * dpl/sendemail. The gateway's refusal is an outcome to record (the send history keeps it), not a
 * crash: the route reports it. An e-mail cannot be unsent, so there is nothing to compensate.
 */
export const sendPaymentLinkEmailStep = createStep(
  "sipay-send-payment-link-email",
  async (input: { dpl_id: number; emails: string[] }, { container }) => {
    const sipay = container.resolve<SipayModuleService>(SIPAY_MODULE)
    const sentAt = new Date()
    try {
      const sent = await sipay.getClient().sendPaymentLinkEmail(input.dpl_id, input.emails)
      return new StepResponse<EmailSendOutcome>({ outcome: "sent", dpl: sent.dpl, link: sent.link, sent_at: sentAt })
    } catch (error) {
      if (!isSipayError(error)) {
        throw error
      }
      return new StepResponse<EmailSendOutcome>({
        outcome: "failed",
        error_code: error.statusCode !== null ? String(error.statusCode) : error.code,
        error_message: describeLinkFailure(error, "e-mailed"),
        sent_at: sentAt,
      })
    }
  }
)

export const recordPaymentLinkEmailStep = createStep(
  "sipay-record-payment-link-email",
  async (
    input: { payment_link_id: string; recipients: string[]; sent_at: Date; outcome: "sent" | "failed"; error_code?: string | null; error_message?: string | null },
    { container }
  ) => {
    const sipay = container.resolve<SipayModuleService>(SIPAY_MODULE)
    const send = await sipay.createPaymentLinkEmails({
      payment_link_id: input.payment_link_id,
      recipients: input.recipients as unknown as Record<string, unknown>,
      sent_at: input.sent_at,
      outcome: input.outcome,
      error_code: input.error_code ?? null,
      error_message: input.error_message ?? null,
    })
    return new StepResponse(send, send.id)
  },
  async (sendId, { container }) => {
    if (sendId) {
      await container.resolve<SipayModuleService>(SIPAY_MODULE).deletePaymentLinkEmails(sendId)
    }
  }
)
