import {
  addOrderTransactionStep,
  authorizePaymentSessionStep,
  convertDraftOrderWorkflow,
  createOrUpdateOrderPaymentCollectionWorkflow,
  createPaymentSessionsWorkflow,
} from "@medusajs/medusa/core-flows"
import { MedusaError, Modules } from "@medusajs/framework/utils"
import { createStep, createWorkflow, StepResponse, transform, when, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { SIPAY_MODULE } from "../../modules/sipay"
import type SipayModuleService from "../../modules/sipay/service"
import { signPhoneOrderSale } from "../../providers/sipay/utils/phone-order"

/** The provider that records a phone order's link payment, so a refund from the admin reaches the gateway. */
export const PHONE_ORDER_PROVIDER_ID = "pp_sipay_sipay"

export type SettleOrderPaymentLinkInput = { order_id: string; order_link_id: string; invoice_id: string; convert_draft: boolean }

/**
 * Binds the new session to the link's sale: the signed phone_order_sale goes in through Medusa's
 * updatePaymentSession, whose provider hook keeps it only because the server signed it for this session.
 */
export const bindPhoneOrderSaleStep = createStep(
  "sipay-bind-phone-order-sale",
  async (input: { payment_session_id: string; invoice_id: string; order_link_id: string }, { container }) => {
    const appSecret = container.resolve<SipayModuleService>(SIPAY_MODULE).getOptions().appSecret
    const paymentModule = container.resolve(Modules.PAYMENT)
    const session = await paymentModule.retrievePaymentSession(input.payment_session_id)
    const binding = signPhoneOrderSale(appSecret, { invoice_id: input.invoice_id, session_id: input.payment_session_id, order_link_id: input.order_link_id })
    const updated = await paymentModule.updatePaymentSession({
      id: session.id,
      amount: session.amount,
      currency_code: session.currency_code,
      data: { ...(session.data ?? {}), phone_order_sale: binding },
    })
    if ((updated.data as Record<string, unknown> | undefined)?.phone_order_sale === null) {
      throw new MedusaError(MedusaError.Types.UNEXPECTED_STATE, `Sipay: the payment session ${session.id} refused the phone order binding`)
    }
    return new StepResponse(updated)
  }
)

/**
 * A phone order's link was paid (the caller checked the sale and the order): the draft becomes an
 * order with Medusa's own workflow, and the order's payment collection gets a Sipay session bound to
 * the sale, authorized by the provider (which asks the gateway) and so captured, with the order's
 * transaction, as Medusa records a payment made at checkout. Every step is Medusa's but the binding.
 */
export const settleOrderPaymentLinkWorkflow = createWorkflow("sipay-settle-order-payment-link", (input: SettleOrderPaymentLinkInput) => {
  when("sipay-phone-order-is-draft", { input }, ({ input }) => input.convert_draft).then(() => {
    convertDraftOrderWorkflow.runAsStep({ input: { id: input.order_id } })
  })
  const collections = createOrUpdateOrderPaymentCollectionWorkflow.runAsStep({ input: { order_id: input.order_id } })
  const collectionId = transform({ collections }, ({ collections }) => {
    const collection = Array.isArray(collections) ? collections[0] : collections
    if (!collection?.id) {
      throw new MedusaError(MedusaError.Types.NOT_ALLOWED, "The order has nothing left to pay")
    }
    return collection.id as string
  })
  const session = createPaymentSessionsWorkflow.runAsStep({
    input: transform({ collectionId }, ({ collectionId }) => ({ payment_collection_id: collectionId, provider_id: PHONE_ORDER_PROVIDER_ID, data: {} })),
  })
  bindPhoneOrderSaleStep(
    transform({ session, input }, ({ session, input }) => ({ payment_session_id: session.id, invoice_id: input.invoice_id, order_link_id: input.order_link_id }))
  )
  const payment = authorizePaymentSessionStep(transform({ session }, ({ session }) => ({ id: session.id, context: {} })))
  addOrderTransactionStep(
    transform({ payment, input }, ({ payment, input }) =>
      (payment?.captures ?? []).map((capture) => ({
        order_id: input.order_id,
        amount: capture.amount,
        currency_code: payment!.currency_code,
        reference_id: capture.id,
        reference: "capture",
      }))
    )
  )
  return new WorkflowResponse(payment)
})
