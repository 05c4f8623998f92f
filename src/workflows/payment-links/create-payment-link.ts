import { createWorkflow, transform, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { linkColumnsFrom, NewPaymentLink, payerLinkOf } from "../../lib/payment-links"
import { createPaymentLinkAtGatewayStep, PhotoUpload, validatePaymentLinkStep } from "../steps/create-payment-link-at-gateway"
import { PaymentLinkRow, recordPaymentLinkStep } from "../steps/record-payment-link"

export type CreatePaymentLinkInput = { link: NewPaymentLink; photo: PhotoUpload; link_base: string }

/** A multi-use link (type 2) created at the gateway after every rule is checked, then kept as it came back. */
export const createPaymentLinkWorkflow = createWorkflow("sipay-create-payment-link", (input: CreatePaymentLinkInput) => {
  validatePaymentLinkStep({ link: input.link, photo: input.photo })
  const created = createPaymentLinkAtGatewayStep({ link: input.link, photo: input.photo })
  const row = transform({ created, input }, ({ created, input }): PaymentLinkRow => {
    const columns = linkColumnsFrom(created.dpl)
    return {
      ...columns,
      inputs: created.inputs ?? null,
      link: payerLinkOf(input.link_base, columns.token),
      photo_filename: input.photo.filename,
      photo_content_type: input.photo.content_type,
      photo_size: Buffer.byteLength(input.photo.content, "base64"),
      synced_at: new Date(),
      synced_from: "create",
    }
  })
  return new WorkflowResponse(recordPaymentLinkStep(row))
})
