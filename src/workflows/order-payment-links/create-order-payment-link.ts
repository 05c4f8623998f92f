import { createWorkflow, transform, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { linkColumnsFrom, payerLinkOf } from "../../lib/payment-links"
import { ORDER_LINK_PHOTO, orderLinkTerms } from "../../lib/order-payment-links/link-terms"
import { createPaymentLinkAtGatewayStep, validatePaymentLinkStep } from "../steps/create-payment-link-at-gateway"
import { PaymentLinkRow, recordPaymentLinkStep } from "../steps/record-payment-link"
import { recordPaymentLinkEmailStep, sendPaymentLinkEmailStep } from "../steps/send-payment-link-email"
import { loadPhoneOrderStep, recordOrderPaymentLinkStep } from "./steps"

export type CreateOrderPaymentLinkInput = { order_id: string; email?: string | null; link_base: string }

/**
 * A phone order's payment link in one action: a single-use link (max_number_of_uses 1) for the
 * order's total, made at the gateway, e-mailed to the customer through the gateway, and bound to
 * the order. The e-mail's refusal is recorded, not thrown: the link exists and can be sent again.
 */
export const createOrderPaymentLinkWorkflow = createWorkflow("sipay-create-order-payment-link", (input: CreateOrderPaymentLinkInput) => {
  const order = loadPhoneOrderStep({ order_id: input.order_id })
  const terms = transform({ order }, ({ order }) => ({
    link: orderLinkTerms({ display_id: order.display_id, amount: order.amount, currency_code: order.currency_code, store_name: order.store_name, language: order.language }, new Date()),
    photo: ORDER_LINK_PHOTO,
  }))
  validatePaymentLinkStep(terms)
  const created = createPaymentLinkAtGatewayStep(terms)
  const link = recordPaymentLinkStep(
    transform({ created, input }, ({ created, input }): PaymentLinkRow => {
      const columns = linkColumnsFrom(created.dpl)
      return {
        ...columns,
        inputs: created.inputs ?? null,
        link: payerLinkOf(input.link_base, columns.token),
        photo_filename: ORDER_LINK_PHOTO.filename,
        photo_content_type: ORDER_LINK_PHOTO.content_type,
        photo_size: Buffer.byteLength(ORDER_LINK_PHOTO.content, "base64"),
        synced_at: new Date(),
        synced_from: "create",
      }
    })
  )
  const emails = transform({ order, input }, ({ order, input }) => [String(input.email || order.email || "")])
  const sent = sendPaymentLinkEmailStep(transform({ link, emails }, ({ link, emails }) => ({ dpl_id: Number(link.dpl_id), emails })))
  recordPaymentLinkEmailStep(
    transform({ link, emails, sent }, ({ link, emails, sent }) => ({
      payment_link_id: link.id,
      recipients: emails,
      sent_at: sent.sent_at,
      outcome: sent.outcome,
      error_code: sent.outcome === "failed" ? sent.error_code : null,
      error_message: sent.outcome === "failed" ? sent.error_message : null,
    }))
  )
  const bound = recordOrderPaymentLinkStep(
    transform({ order, link, emails, sent }, ({ order, link, emails, sent }) => ({
      order_id: order.order_id,
      payment_link_id: link.id,
      dpl_id: Number(link.dpl_id),
      amount: order.amount,
      currency_code: order.currency_code,
      email: emails[0],
      email_outcome: sent.outcome,
      email_error: sent.outcome === "failed" ? (sent.error_message ?? null) : null,
    }))
  )
  return new WorkflowResponse({ order_link: bound, payment_link: link })
})
