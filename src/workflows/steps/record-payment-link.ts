import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { SIPAY_MODULE } from "../../modules/sipay"
import type SipayModuleService from "../../modules/sipay/service"
import { LinkColumns } from "../../lib/payment-links"

export type PaymentLinkRow = LinkColumns & {
  inputs: Record<string, unknown> | null
  link: string
  photo_filename: string | null
  photo_content_type: string | null
  photo_size: number | null
  synced_at: Date
  synced_from: string
}

/** Keeps the link as the gateway returned it. */
export const recordPaymentLinkStep = createStep(
  "sipay-record-payment-link",
  async (row: PaymentLinkRow, { container }) => {
    const sipay = container.resolve<SipayModuleService>(SIPAY_MODULE)
    // amount is a decimal string: the model's bigNumber accepts it (its type says number).
    const [link] = await sipay.createPaymentLinks([row as unknown as Parameters<SipayModuleService["createPaymentLinks"]>[0]] as any[])
    return new StepResponse(link, link.id)
  },
  async (linkId, { container }) => {
    if (linkId) {
      await container.resolve<SipayModuleService>(SIPAY_MODULE).deletePaymentLinks(linkId)
    }
  }
)

type LinkChanges = Partial<PaymentLinkRow>

/** Brings a stored link up to date; compensation puts the changed fields back. */
export const updatePaymentLinkStep = createStep(
  "sipay-update-payment-link",
  async (input: { id: string; changes: LinkChanges }, { container }) => {
    const sipay = container.resolve<SipayModuleService>(SIPAY_MODULE)
    const before = (await sipay.retrievePaymentLink(input.id)) as unknown as Record<string, unknown>
    const previous = Object.fromEntries(Object.keys(input.changes).map((key) => [key, before[key]]))
    const updated = await sipay.updatePaymentLinks({ id: input.id, ...input.changes } as unknown as Parameters<SipayModuleService["updatePaymentLinks"]>[0])
    return new StepResponse(updated, { id: input.id, previous })
  },
  async (saved, { container }) => {
    if (saved) {
      await container.resolve<SipayModuleService>(SIPAY_MODULE).updatePaymentLinks({ id: saved.id, ...saved.previous } as any)
    }
  }
)
