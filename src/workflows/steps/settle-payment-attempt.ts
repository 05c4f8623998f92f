import { completeCartWorkflow } from "@medusajs/medusa/core-flows"
import { MedusaError, Modules } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { SIPAY_MODULE } from "../../modules/sipay"
import type SipayModuleService from "../../modules/sipay/service"
import { amountsEqual, maskCardNumber } from "../../lib/sipay"
import { classifyTransaction } from "../../providers/sipay/utils/status"
import { reverseGatewayPayment } from "./reverse-payment"

export type ReportedOutcome = { masked_card?: string | null; error_code?: string | null; error?: string | null }

export type SettleResult = {
  status: "paid" | "authorized" | "pending" | "failed" | "reversed" | "order_failed"
  invoice_id: string
  cart_id: string | null
  order_id: string | null
  error: string | null
}

const MASKED = /^\d{6}\*+\d{4}$/
const COMPLETION_TRIES = 4
const UNKNOWN_GRACE_MS = 15 * 60 * 1000
const COMPLETION_RETRY_MS = 500

function safeMaskedCard(value: unknown): string | null {
  if (!value) {
    return null
  }
  const text = String(value)
  return MASKED.test(text) ? text : maskCardNumber(text)
}

/**
 * Settles one attempt on the gateway's word (checkstatus), whatever reported it (redirect, webhook,
 * direct response, reconciliation): paid -> the cart becomes an order (Medusa's complete-cart,
 * idempotent); paid but no longer wanted -> reversed; failed -> recorded. Safe to run any number of times.
 */
export const settlePaymentAttemptStep = createStep(
  "sipay-settle-payment-attempt",
  async (input: { invoice_id: string; reported?: ReportedOutcome }, { container }) => {
    const sipay = container.resolve<SipayModuleService>(SIPAY_MODULE)
    const paymentModule = container.resolve(Modules.PAYMENT)
    const client = sipay.getClient()
    const [attempt] = await sipay.listPaymentAttempts({ invoice_id: input.invoice_id })
    if (!attempt) {
      throw new MedusaError(MedusaError.Types.NOT_FOUND, `No payment attempt ${input.invoice_id}`)
    }
    const result = (status: SettleResult["status"], extra: Partial<SettleResult> = {}): StepResponse<SettleResult> =>
      new StepResponse({ status, invoice_id: attempt.invoice_id, cart_id: attempt.cart_id, order_id: attempt.order_id ?? null, error: null, ...extra })
    const maskedCard = safeMaskedCard(input.reported?.masked_card) ?? attempt.masked_card

    const transaction = await client.checkStatus(attempt.invoice_id)
    const outcome = classifyTransaction(transaction)
    if (outcome === "pending") {
      return result("pending")
    }
    // Unknown to the gateway yet: a form not posted, or a request whose answer was lost and may
    // still be charged late. Judged failed only once it has had time to appear.
    if (outcome === "not_found" && Date.now() - new Date(attempt.created_at).getTime() < UNKNOWN_GRACE_MS) {
      return result("pending", { error: input.reported?.error ?? null })
    }
    if (outcome === "not_found" || outcome === "failed" || outcome === "cancelled") {
      if (attempt.status === "pending") {
        const error = transaction.reason || input.reported?.error || (outcome === "not_found" ? "no payment was made" : "the payment failed")
        await sipay.updatePaymentAttempts({
          id: attempt.id,
          status: outcome === "cancelled" ? "cancelled" : "failed",
          masked_card: maskedCard,
          error_code: input.reported?.error_code ?? (transaction.statusCode !== null ? String(transaction.statusCode) : null),
          error_message: String(error).slice(0, 500),
        })
        return result("failed", { error: String(error) })
      }
      return result(attempt.status === "reversed" ? "reversed" : "failed", { error: attempt.error_message ?? null })
    }

    // Paid (captured) or reserved (authorized) at the gateway.
    if (attempt.status === "reversed") {
      return result("reversed")
    }
    const [session] = await paymentModule.listPaymentSessions({ id: attempt.session_id })
    const paidAmount = transaction.productPrice ?? transaction.transactionAmount
    const stillWanted = Boolean(session) && paidAmount !== null && amountsEqual(paidAmount, session!.amount as never) && amountsEqual(paidAmount, attempt.amount as never)
    let orderId: string | null = attempt.order_id ?? null
    let completionError: string | null = null
    if (stillWanted && attempt.cart_id) {
      // Complete-cart is idempotent; it fails while another completion (a storefront's own
      // complete-cart call) holds the cart's lock, so it is tried again briefly before the
      // attempt is left to reconciliation.
      for (let tries = 1; tries <= COMPLETION_TRIES && orderId === null; tries++) {
        try {
          const { result: order } = await completeCartWorkflow(container).run({ input: { id: attempt.cart_id } })
          orderId = order.id
          completionError = null
        } catch (error) {
          completionError = (error as Error).message
          await new Promise((resolve) => setTimeout(resolve, COMPLETION_RETRY_MS * tries))
        }
      }
    }
    // The order Medusa placed is this payment's only when the session was authorized on this invoice.
    const [sessionAfter] = orderId !== null ? await paymentModule.listPaymentSessions({ id: attempt.session_id }) : []
    const paidByAnotherAttempt = orderId !== null && (sessionAfter?.data as Record<string, unknown> | undefined)?.invoice_id !== attempt.invoice_id
    if (!stillWanted || paidByAnotherAttempt) {
      const how = await reverseGatewayPayment(client, attempt.invoice_id, transaction)
      const reason = !stillWanted
        ? "the cart changed after this payment form was issued"
        : "the cart was already paid by another attempt"
      await sipay.updatePaymentAttempts({
        id: attempt.id,
        status: "reversed",
        masked_card: maskedCard,
        gateway_order_no: transaction.orderId,
        error_message: `${how}: ${reason}`,
      })
      return result("reversed", { error: reason, order_id: orderId })
    }
    if (orderId === null) {
      // Paid, but Medusa could not place the order yet: left pending for reconciliation.
      await sipay.updatePaymentAttempts({ id: attempt.id, masked_card: maskedCard, gateway_order_no: transaction.orderId, error_message: completionError?.slice(0, 500) ?? null })
      return result("order_failed", { error: completionError ?? "the order could not be placed" })
    }
    const status = outcome === "captured" ? "paid" : "authorized"
    await sipay.updatePaymentAttempts({
      id: attempt.id,
      status,
      order_id: orderId,
      masked_card: maskedCard,
      gateway_order_no: transaction.orderId,
      error_code: null,
      error_message: null,
      completed_at: attempt.completed_at ?? new Date(),
    })
    return result(status, { order_id: orderId })
  }
)
