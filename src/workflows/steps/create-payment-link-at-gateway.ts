import { MedusaError } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { SIPAY_MODULE } from "../../modules/sipay"
import type SipayModuleService from "../../modules/sipay/service"
import { findPaymentLinkProblems, linkError, NewPaymentLink, ProductPhoto } from "../../lib/payment-links"
import { isSipayError, PaymentLinkCreated } from "../../lib/sipay"
import { toMedusaError } from "../../providers/sipay/core/sipay-base"

/** The photo travels through the workflow as base64 text (workflow inputs are serialised). */
export type PhotoUpload = { content: string; filename: string; content_type: string }

export function photoFromUpload(upload: PhotoUpload | null | undefined): ProductPhoto | null {
  if (!upload?.content) {
    return null
  }
  return { data: Buffer.from(upload.content, "base64"), filename: upload.filename, contentType: upload.content_type }
}

/** Every interface rule, the photo's type and size included, before anything reaches the gateway. */
export const validatePaymentLinkStep = createStep(
  "sipay-validate-payment-link",
  async (input: { link: NewPaymentLink; photo: PhotoUpload }) => {
    const problems = findPaymentLinkProblems(input.link, photoFromUpload(input.photo), new Date())
    if (problems.length) {
      throw new MedusaError(MedusaError.Types.INVALID_DATA, problems.join("; "))
    }
    return new StepResponse(true)
  }
)

/**
 * dpl/create with payment_link_type 2. The interface has no way to delete a link, so a later failure
 * cannot undo it at the gateway: the compensation says which link to deactivate in the merchant panel.
 */
export const createPaymentLinkAtGatewayStep = createStep(
  "sipay-create-payment-link-at-gateway",
  async (input: { link: NewPaymentLink; photo: PhotoUpload }, { container }) => {
    const sipay = container.resolve<SipayModuleService>(SIPAY_MODULE)
    const { link } = input
    let created: PaymentLinkCreated
    try {
      created = await sipay.getClient().createPaymentLink({
        amount: link.amount,
        currency: String(link.currency_code).toUpperCase() as "TRY" | "USD" | "EUR",
        isAmountSetByUser: link.is_amount_set_by_user,
        name: link.name_of_product.trim(),
        description: link.description.trim(),
        photo: photoFromUpload(input.photo)!,
        expireDate: link.expire_date,
        expireHour: link.expire_hour ?? undefined,
        maxNumberOfUses: link.max_number_of_uses ?? undefined,
      })
    } catch (error) {
      throw toMedusaError(isSipayError(error) ? linkError(error, "created") : error, "dpl/create")
    }
    return new StepResponse({ dpl: created.dpl, inputs: created.inputs }, created.dpl?.id ?? null)
  },
  async (dplId, { container }) => {
    if (dplId) {
      const logger = container.resolve("logger") as { warn(message: string): void }
      logger.warn(`Sipay payment link ${dplId} was created at the gateway but not recorded; deactivate it in the merchant panel`)
    }
  }
)
