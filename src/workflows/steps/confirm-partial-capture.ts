import { MedusaError, Modules } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { SIPAY_MODULE } from "../../modules/sipay"
import type SipayModuleService from "../../modules/sipay/service"
import { formatAmount, fromMinorUnits, toMinorUnits } from "../../lib/sipay"
import { classifyTransaction } from "../../lib/sipay/outcome"

const SIPAY_PROVIDERS = ["pp_sipay_sipay", "pp_sipay-2d_sipay"]

/**
 * Confirms part of a pre-authorization at the gateway (confirmPayment with that total; the rest is
 * released) and marks the payment so that Medusa's capture of the same amount is recognised.
 * Nothing to compensate: a confirmed capture cannot be taken back, only refunded.
 */
export const confirmPartialCaptureStep = createStep(
  "sipay-confirm-partial-capture",
  async (input: { payment_id: string; amount: string }, { container }) => {
    const paymentModule = container.resolve(Modules.PAYMENT)
    const sipay = container.resolve<SipayModuleService>(SIPAY_MODULE)
    const [payment] = await paymentModule.listPayments({ id: input.payment_id }, { relations: ["captures"] })
    if (!payment || !SIPAY_PROVIDERS.includes(payment.provider_id)) {
      throw new MedusaError(MedusaError.Types.NOT_FOUND, `Sipay payment ${input.payment_id} was not found`)
    }
    const data = (payment.data ?? {}) as Record<string, any>
    if (!data.invoice_id) {
      throw new MedusaError(MedusaError.Types.INVALID_DATA, "The payment has no Sipay invoice id")
    }
    if (payment.captures?.length || payment.captured_at) {
      throw new MedusaError(MedusaError.Types.NOT_ALLOWED, "The payment was already captured; a pre-authorization is confirmed once")
    }
    const requested = toMinorUnits(input.amount)
    const authorized = toMinorUnits(payment.amount as never)
    if (requested <= 0n || requested > authorized) {
      throw new MedusaError(MedusaError.Types.INVALID_DATA, `The capture must be more than 0 and at most the authorized ${fromMinorUnits(authorized)} ${String(payment.currency_code).toUpperCase()}`)
    }
    const client = sipay.getClient()
    const transaction = await client.checkStatus(data.invoice_id)
    const outcome = classifyTransaction(transaction)
    if (outcome === "authorized") {
      await client.confirmPayment(data.invoice_id, "complete", fromMinorUnits(requested))
    } else if (!(outcome === "captured" && toMinorUnits(transaction.transactionAmount ?? "0") === requested)) {
      throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `The pre-authorization cannot be captured: the gateway reports it ${outcome}`)
    }
    const amount = formatAmount(fromMinorUnits(requested))
    // The provider (isolated from this plugin's module) only sees payment data; the module's update
    // writes any column, though its DTO type lists none of data.
    await paymentModule.updatePayment({ id: payment.id, data: { ...data, pending_capture: amount } } as never)
    return new StepResponse({ payment_id: payment.id, amount })
  }
)
