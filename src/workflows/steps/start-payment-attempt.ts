import { MedusaError } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { feeRuleFor, installmentFeeMinor } from "../../lib/checkout/installment-fees"
import { amountWithoutFeeLine, feeLineIsCurrent } from "../../lib/checkout/fee-line"
import { fromMinorUnits } from "../../lib/sipay"
import { applyInstallmentFee, type AppliedInstallmentFee } from "../installment-fee/apply-installment-fee"
import { buildPaymentRequest } from "../../lib/checkout/payment-request"
import type { PaymentRequest } from "../../lib/sipay"
import { buildInvoiceId } from "../../providers/sipay/utils/session-data"
import { appendInvoiceToSession, removeInvoiceFromSession, SessionInvoiceAdded } from "./append-invoice-to-session"
import { loadAttemptContext } from "./load-attempt-context"
import type { StartPaymentAttemptInput } from "../start-payment-attempt"
import { deletePaymentAttempt, recordPaymentAttempt } from "./record-payment-attempt"
import { ATTEMPT_LOCKS, underLock } from "../../lib/shared-state/lock-timings"

export type StartedAttempt = {
  invoice_id: string
  cart_id: string
  request: PaymentRequest
  /** The session the attempt pays on: the one asked for, or its replacement when the fee line changed the cart's total. */
  session_id: string
  /** The installment fee now in the cart for the choice ("0.00" for none). */
  installment_fee: string
}

type Undo = { attemptId?: string; session?: SessionInvoiceAdded }

/** An attempt started, or the cart's fee line to be made the choice's first (nothing recorded). */
type StartOutcome = { started: StartedAttempt; undo: Undo } | { feeLineToChange: true }

/** Tries at most: the fee line changed by another request between this one's change and its start. */
const FEE_ROUNDS = 3

/**
 * The attempt's start: the context read server-side under the session's lock; when the cart's
 * installment fee line is already the choice's (the common case: no fee, or the same count again),
 * the gateway request is built from that one read, the attempt recorded and, for a 3D form, its
 * invoice id added to the session data (the shopper leaves for the bank, and a storefront's own
 * complete-cart must find it). Otherwise the line is made the choice's first (apply-installment-fee.ts,
 * under the cart's fee lock; a new session when the total moved) and the start read again on the
 * session to pay on. A direct (2D) attempt is settled in the same request: the settle step adds it
 * with the gateway's confirmation, in one write. Undone in reverse when a later part fails (the
 * attempt deleted, the invoice id taken back).
 */
export const startPaymentAttemptStep = createStep(
  "sipay-start-payment-attempt-step",
  async (input: StartPaymentAttemptInput, { container }) => {
    let sessionId = input.session_id
    let applied: AppliedInstallmentFee | null = null
    for (let round = 0; round < FEE_ROUNDS; round++) {
      const outcome = await underLock(container, `sipay:session:${sessionId}`, ATTEMPT_LOCKS.start, () =>
        startAttempt(container, { ...input, session_id: sessionId }, applied)
      )
      if (!("feeLineToChange" in outcome)) {
        return new StepResponse<StartedAttempt, Undo>(outcome.started, outcome.undo)
      }
      applied = await applyInstallmentFee(container, { session_id: sessionId, installments_number: input.installments_number, bin: input.bin, cart_id: input.cart_id })
      sessionId = applied.session_id
    }
    throw new MedusaError(MedusaError.Types.CONFLICT, "The cart's installment fee changed while the payment was starting; try again")
  },
  async (undo, { container }) => {
    if (undo) {
      await undoStart(container, undo)
    }
  }
)

/**
 * `applied`: the fee line this request just made the choice's. Without it, a line that is not the
 * choice's (or a fee that is the gateway's rate for the card, known only from the gateway) sends the
 * start back to change it. With it, the line is checked again where the fee is the store's own rule
 * (another request may have changed it since); the gateway's rate is taken as just applied.
 */
async function startAttempt(container: Parameters<typeof loadAttemptContext>[0], input: StartPaymentAttemptInput, applied: AppliedInstallmentFee | null): Promise<StartOutcome> {
  const choice = { installmentsNumber: Number(input.installments_number), maturityPeriod: input.maturity_period, paymentFrequency: input.payment_frequency }
  const context = await loadAttemptContext(container, { session_id: input.session_id, flow: input.flow, choice, cart_id: input.cart_id })
  const rule = feeRuleFor(context.settings.installmentFees, choice.installmentsNumber)
  let fee: string
  if (rule.mode === "gateway") {
    if (!applied) {
      return { feeLineToChange: true }
    }
    fee = applied.fee
  } else {
    const minor = installmentFeeMinor(fromMinorUnits(amountWithoutFeeLine(context.feeBasis)), rule) ?? 0n
    if (!feeLineIsCurrent(context.feeBasis, minor, choice.installmentsNumber)) {
      return { feeLineToChange: true }
    }
    fee = fromMinorUnits(minor)
  }
  const invoiceId = buildInvoiceId(context.sessionId, context.attemptNumber)
  const request = buildPaymentRequest({
    invoiceId,
    cart: context.cart,
    amount: context.amount,
    currencyCode: context.currencyCode,
    choice,
    settings: context.settings,
    backendUrl: context.backendUrl,
    recurring: context.recurring,
    ip: input.ip,
    storeName: context.storeName,
    language: context.language,
  })
  const undo: Undo = {}
  try {
    undo.attemptId = await recordPaymentAttempt(container, { sessionId: context.sessionId, cartId: context.cart.id, attemptNumber: context.attemptNumber, flow: input.flow, request })
    if (input.flow === "3d") {
      undo.session = await appendInvoiceToSession(container, { sessionId: context.sessionId, cartId: context.cart.id }, invoiceId, (request.transactionType ?? "Auth") as "Auth" | "PreAuth")
    }
  } catch (error) {
    await undoStart(container, undo)
    throw error
  }
  return { started: { invoice_id: invoiceId, cart_id: context.cart.id, request, session_id: context.sessionId, installment_fee: fee }, undo }
}

async function undoStart(container: Parameters<typeof loadAttemptContext>[0], undo: Undo): Promise<void> {
  if (undo.session) {
    await removeInvoiceFromSession(container, undo.session)
  }
  if (undo.attemptId) {
    await deletePaymentAttempt(container, undo.attemptId)
  }
}
