import { completeCartWorkflow } from "@medusajs/medusa/core-flows"
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MedusaError, Modules } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { SIPAY_MODULE } from "../../modules/sipay"
import type SipayModuleService from "../../modules/sipay/service"
import { amountsEqual, formatAmount, maskCardNumber, SipayClient, TransactionStatus } from "../../lib/sipay"
import { captureLockKey, CHARGED_AT_ONCE_NOTE, enforceCaptureMode, LockDatabase, RELEASED_MESSAGE } from "../../lib/checkout/capture-mode"
import { withAdvisoryLock } from "../../lib/shared-state/advisory-lock"
import { classifyTransaction } from "../../lib/sipay/outcome"
import { parseInvoiceId } from "../../providers/sipay/utils/session-data"
import { reverseGatewayPayment } from "./reverse-payment"
import { currentSession, openSession, writeSessionData } from "./append-invoice-to-session"
import { GatewayConfirmation, signConfirmation } from "../../lib/checkout/confirmation"
import { ATTEMPT_LOCKS, underCartLock, underLock } from "../../lib/shared-state/lock-timings"
import type { AttemptFacts } from "../../lib/sales-report/sale-owner"
import { resolveSaleOwner } from "../sale-owner/resolve-sale-owners"
import { answersAuthenticated, transactionOfDirectAnswer, type DirectAnswer } from "../../lib/checkout/direct-answer"

/**
 * What a redirect, webhook or direct answer reported. A redirect's or webhook's fields are untrusted
 * (the result hash has no MAC, and a shopper carries the redirect): they only decide whether the
 * gateway is asked to complete a merchant-completed sale, never an outcome. `answer` is the direct
 * payment's own answer, received by this server from the configured gateway over TLS: when it is
 * conclusive and consistent with the attempt it is the gateway's word, and checkstatus is not asked.
 */
export type ReportedOutcome = { masked_card?: string | null; error_code?: string | null; error?: string | null; status?: string | null; answer?: DirectAnswer | null }

export type SettleInput = { invoice_id: string; reported?: ReportedOutcome; reconcile?: boolean }

export type SettleResult = {
  status: "paid" | "authorized" | "pending" | "failed" | "reversed" | "order_failed"
  invoice_id: string
  cart_id: string | null
  order_id: string | null
  error: string | null
  /** Pending because the gateway does not know the invoice yet (a form not posted, an answer lost before the sale). */
  unknown_to_gateway?: boolean
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
 * Settles one attempt on the gateway's word (checkstatus, or a direct payment's own conclusive and
 * consistent answer), whatever reported it (redirect, webhook, direct response, reconciliation): paid -> the cart becomes an order (Medusa's complete-cart,
 * idempotent); paid but no longer wanted -> reversed; failed -> recorded. Safe to run any number of times.
 */
export const settlePaymentAttemptStep = createStep(
  "sipay-settle-payment-attempt",
  async (input: SettleInput, { container }) =>
    new StepResponse(await underLock(container, `sipay:invoice:${input.invoice_id}`, ATTEMPT_LOCKS.settle, () => settleAttempt(container, input)))
)

/** One attempt at a time (under its invoice's lock): the redirect, the webhook and the reconciliation job may race. */
async function settleAttempt(container: MedusaContainer, input: SettleInput): Promise<SettleResult> {
  const sipay = container.resolve<SipayModuleService>(SIPAY_MODULE)
  const paymentModule = container.resolve(Modules.PAYMENT)
  const client = sipay.getClient()
  const db = container.resolve<LockDatabase>(ContainerRegistrationKeys.PG_CONNECTION)
  // The attempt, the gateway's word on it and its session are read at once: none depends on
  // another (the invoice id names the session; checked against the attempt's below).
  // A direct payment's answer is asked about only when it is not conclusive or not consistent.
  const sessionOfInvoice = parseInvoiceId(input.invoice_id)?.sessionId
  const answer = input.reported?.answer && answersAuthenticated(client.baseUrl) ? input.reported.answer : null
  const [[attempt], checked, sessionsOfInvoice] = await Promise.all([
    sipay.listPaymentAttempts({ invoice_id: input.invoice_id }),
    answer ? Promise.resolve(null) : client.checkStatus(input.invoice_id),
    sessionOfInvoice ? paymentModule.listPaymentSessions({ id: sessionOfInvoice }) : Promise.resolve([]),
  ])
  let sessionRead: (typeof sessionsOfInvoice)[number] | undefined = sessionsOfInvoice[0]
  if (!attempt) {
    throw new MedusaError(MedusaError.Types.NOT_FOUND, `No payment attempt ${input.invoice_id}`)
  }
  const result = (status: SettleResult["status"], extra: Partial<SettleResult> = {}): SettleResult =>
    ({ status, invoice_id: attempt.invoice_id, cart_id: attempt.cart_id, order_id: attempt.order_id ?? null, error: null, ...extra })
  const reportedCard = safeMaskedCard(input.reported?.masked_card)
  const maskedCard = reportedCard ?? attempt.masked_card

  let transaction = checked ?? transactionOfDirectAnswer(answer, attempt) ?? (await client.checkStatus(input.invoice_id))
  let outcome = classifyTransaction(transaction)
  // Settled already with this very outcome (the sale webhook after the return or the direct
  // answer placed the order): nothing left to change, so nothing is written.
  if (
    attempt.order_id &&
    ((attempt.status === "paid" && outcome === "captured") || (attempt.status === "authorized" && outcome === "authorized" && attempt.transaction_type === "PreAuth")) &&
    (attempt.masked_card || !reportedCard)
  ) {
    return result(attempt.status)
  }
  // A sale the shopper made merchant-completed (payment_completed_by=merchant, not covered by the
  // form's hash) waits at the gateway: completed when it matches the attempt, cancelled otherwise.
  if (outcome === "pending" && transaction.found && transaction.orderId && attempt.status === "pending" && (input.reported?.status === "1" || input.reconcile)) {
    sessionRead = undefined // read again below: the completion waited for its lock and the gateway
    const completed = await completeMerchantSale(container, client, db, attempt, transaction)
    if (completed) {
      transaction = completed
      outcome = classifyTransaction(transaction)
    }
  }
  if (outcome === "pending") {
    return result("pending")
  }
  // Unknown to the gateway yet: a form not posted, or a request whose answer was lost and may
  // still be charged late. Judged failed only once it has had time to appear.
  if (outcome === "not_found" && Date.now() - new Date(attempt.created_at).getTime() < UNKNOWN_GRACE_MS) {
    return result("pending", { error: input.reported?.error ?? null, unknown_to_gateway: true })
  }
  if (outcome === "not_found" || outcome === "failed" || outcome === "cancelled") {
    if (attempt.status === "pending") {
      const error = transaction.reason || input.reported?.error || (outcome === "not_found" ? "no payment was made" : "the payment failed")
      await sipay.recordAttemptOutcome(attempt.id, {
        status: outcome === "cancelled" ? "cancelled" : "failed",
        masked_card: maskedCard,
        error_code: input.reported?.error_code ?? (transaction.statusCode !== null ? String(transaction.statusCode) : null),
        error_message: String(error).slice(0, 500),
      })
      await updateSessionInvoices(container, attempt, { close: attempt.invoice_id })
      return result("failed", { error: String(error) })
    }
    return result(attempt.status === "reversed" ? "reversed" : "failed", { error: attempt.error_message ?? null })
  }

  // Paid (captured) or reserved (authorized) at the gateway.
  if (attempt.status === "reversed") {
    return result("reversed")
  }
  const [session] = sessionRead?.id === attempt.session_id ? [sessionRead] : await paymentModule.listPaymentSessions({ id: attempt.session_id })
  const paidAmount = transaction.productPrice ?? transaction.transactionAmount
  // A closed attempt (its session replaced when the installment fee changed the total) never becomes an order.
  const closed = closedAttempt(attempt)
  const stillWanted = !closed && Boolean(session) && paidAmount !== null && amountsEqual(paidAmount, session!.amount as never) && amountsEqual(paidAmount, attempt.amount as never)
  let orderId: string | null = attempt.order_id ?? null
  let completionError: string | null = null
  let note: string | null = null
  if (stillWanted) {
    // The capture mode is the store's: a reservation it did not ask for is captured at once (or
    // released when that fails); a charge it wanted reserved is kept and the attempt marked.
    const enforced = await enforceCaptureMode({ client, db, invoiceId: attempt.invoice_id, intended: attempt.transaction_type, transaction })
    transaction = enforced.transaction
    outcome = classifyTransaction(transaction)
    if (enforced.action === "released" || (outcome !== "captured" && outcome !== "authorized")) {
      const error = enforced.error ?? RELEASED_MESSAGE
      if (attempt.status === "pending" || attempt.status === "authorized") {
        await sipay.recordAttemptOutcome(attempt.id, { status: "failed", masked_card: maskedCard, gateway_order_no: transaction.orderId, error_message: error.slice(0, 500) })
        await updateSessionInvoices(container, attempt, { close: attempt.invoice_id })
      }
      return result("failed", { error })
    }
    if (enforced.action === "charged_at_once" && attempt.status === "pending") {
      note = CHARGED_AT_ONCE_NOTE
    }
    // authorizePayment (run by complete-cart) takes this gateway answer, signed and short-lived,
    // instead of asking the gateway again (one confirmation per fact); it asks about this attempt
    // first when the confirmation no longer fits.
    const confirmation = signConfirmation(sipay.getOptions().appSecret, {
      invoice_id: attempt.invoice_id,
      status: outcome,
      amount: formatAmount(transaction.productPrice ?? transaction.transactionAmount ?? paidAmount!),
      captured_amount: outcome === "captured" ? formatAmount(transaction.transactionAmount ?? paidAmount!) : null,
      currency_code: String(transaction.currencyCode ?? attempt.currency_code).toUpperCase(),
      transaction_type: transaction.transactionType ?? "",
      gateway_order_no: transaction.orderId ?? null,
      installments: transaction.installment ?? null,
    })
    await updateSessionInvoices(container, attempt, { settling: attempt.invoice_id, confirmation, intended: attempt.transaction_type as "Auth" | "PreAuth" })
  }
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
  // The order Medusa placed is this sale's only when Medusa's payment records this very sale (resolveSaleOwner).
  const owner = orderId !== null ? await resolveSaleOwner(container, { invoice_id: attempt.invoice_id }, { attempts: [attempt as AttemptFacts] }) : null
  const paidByAnotherAttempt = owner !== null && owner.kind !== "payment"
  if (!stillWanted || paidByAnotherAttempt) {
    const how = await reverseGatewayPayment(client, attempt.invoice_id, transaction)
    const reason = closed
      ? "the installment choice changed the cart's total after this payment form was issued"
      : !stillWanted
      ? "the cart changed after this payment form was issued"
      : "the cart was already paid by another attempt"
    await sipay.recordAttemptOutcome(attempt.id, {
    status: "reversed",
      masked_card: maskedCard,
      gateway_order_no: transaction.orderId,
      error_message: `${how}: ${reason}`,
    })
    await updateSessionInvoices(container, attempt, { close: attempt.invoice_id })
    return result("reversed", { error: reason, order_id: orderId })
  }
  if (orderId === null) {
    // Paid, but Medusa could not place the order yet: left pending for reconciliation.
    await sipay.recordAttemptOutcome(attempt.id, { masked_card: maskedCard, gateway_order_no: transaction.orderId, error_message: completionError?.slice(0, 500) ?? null })
    return result("order_failed", { error: completionError ?? "the order could not be placed" })
  }
  const status = outcome === "captured" ? "paid" : "authorized"
  await sipay.recordAttemptOutcome(attempt.id, {
    status,
    order_id: orderId,
    masked_card: maskedCard,
    gateway_order_no: transaction.orderId,
    error_code: null,
    error_message: null,
    completed_at: attempt.completed_at ?? new Date(),
    ...(note ? { metadata: { ...((attempt.metadata as Record<string, unknown> | null) ?? {}), capture_mode: note } } : {}),
  })
  return result(status, { order_id: orderId })
}

type AttemptRow = { invoice_id: string; session_id: string; amount: unknown; currency_code: string; metadata?: unknown }

/** Closed when its session was replaced (closeSessionAttempts): whatever the gateway says, it is not wanted. */
function closedAttempt(attempt: { metadata?: unknown }): boolean {
  const closed = (attempt.metadata as Record<string, unknown> | null | undefined)?.closed
  return typeof closed === "object" && closed !== null
}

/**
 * /payment/complete for a sale waiting for the merchant: "complete" when it is this attempt's
 * payment of the session's current amount, "cancel" otherwise. The gateway refuses a sale that is
 * not waiting (still on the bank page): then nothing changes. Under the invoice's capture lock.
 */
async function completeMerchantSale(
  container: MedusaContainer,
  client: SipayClient,
  db: LockDatabase,
  attempt: AttemptRow,
  transaction: TransactionStatus
): Promise<TransactionStatus | null> {
  const [session] = await container.resolve(Modules.PAYMENT).listPaymentSessions({ id: attempt.session_id })
  const total = transaction.productPrice ?? transaction.transactionAmount
  const matches =
    !closedAttempt(attempt) &&
    Boolean(session) &&
    total !== null &&
    amountsEqual(total, session!.amount as never) &&
    amountsEqual(total, attempt.amount as never) &&
    (!transaction.currencyCode || transaction.currencyCode.toUpperCase() === attempt.currency_code.toUpperCase())
  return withAdvisoryLock(db, captureLockKey(attempt.invoice_id), async () => {
    try {
      await client.completePayment(attempt.invoice_id, transaction.orderId!, matches ? "complete" : "cancel")
    } catch {
      // Not waiting for the merchant (or already completed by another settle path): the record decides.
    }
    return client.checkStatus(attempt.invoice_id)
  })
}

/**
 * Keeps the session data's view of the attempts current for authorizePayment (which cannot read
 * this plugin's module): a closed attempt is never asked about again, a paid one is asked first
 * (and listed among the session's attempts: a direct one is added here, not when it started, with
 * the capture mode it was made in when the session has none yet). Under the session's lock, the one
 * a new attempt takes, so no invoice id is lost, and the cart's, so the write never lands inside
 * complete-cart's authorization of the session; an authorized session is left as it is.
 */
async function updateSessionInvoices(
  container: MedusaContainer,
  attempt: { session_id: string; cart_id: string | null },
  change: { close?: string; settling?: string; confirmation?: GatewayConfirmation; intended?: "Auth" | "PreAuth" }
): Promise<void> {
  const sessionId = attempt.session_id
  // Under the cart's lock too: complete-cart (which holds it) may be authorizing this session now.
  const cartLocked = <T>(job: () => Promise<T>) => (attempt.cart_id ? underCartLock(container, attempt.cart_id, job) : job())
  await container.resolve(Modules.LOCKING).execute(
    `sipay:session:${sessionId}`,
    () => cartLocked(async () => {
      const session = await currentSession(container, sessionId)
      if (!session || !openSession(session)) {
        return
      }
      const data = (session.data ?? {}) as Record<string, unknown>
      const closed = Array.isArray(data.closed_invoice_ids) ? (data.closed_invoice_ids as string[]) : []
      if (change.close && closed.includes(change.close) && data.settling_invoice_id !== change.close) {
        return
      }
      if (change.settling && data.settling_invoice_id === change.settling && !change.confirmation) {
        return
      }
      const next: Record<string, unknown> = { ...data }
      if (change.close) {
        next.closed_invoice_ids = [...closed.filter((id) => id !== change.close), change.close]
        if (data.settling_invoice_id === change.close) {
          next.settling_invoice_id = null
        }
        if ((data.gateway_confirmation as GatewayConfirmation | null | undefined)?.invoice_id === change.close) {
          next.gateway_confirmation = null
        }
      }
      if (change.settling) {
        const invoiceIds = Array.isArray(data.invoice_ids) ? (data.invoice_ids as string[]) : []
        next.invoice_ids = invoiceIds.includes(change.settling) ? invoiceIds : [...invoiceIds, change.settling]
        next.intended_transaction_type = data.intended_transaction_type ?? change.intended ?? null
        next.settling_invoice_id = change.settling
        next.gateway_confirmation = change.confirmation ?? null
      }
      await writeSessionData(container, session, next)
    }),
    { timeout: 15 }
  )
}
