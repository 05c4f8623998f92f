import {
  AuthorizePaymentInput,
  AuthorizePaymentOutput,
  CancelPaymentInput,
  CancelPaymentOutput,
  CapturePaymentInput,
  CapturePaymentOutput,
  CreateAccountHolderInput,
  CreateAccountHolderOutput,
  DeleteAccountHolderInput,
  DeleteAccountHolderOutput,
  DeletePaymentMethodInput,
  DeletePaymentMethodOutput,
  ListPaymentMethodsInput,
  ListPaymentMethodsOutput,
  RetrieveAccountHolderInput,
  RetrieveAccountHolderOutput,
  SavePaymentMethodInput,
  SavePaymentMethodOutput,
  UpdateAccountHolderInput,
  UpdateAccountHolderOutput,
  DeletePaymentInput,
  DeletePaymentOutput,
  GetPaymentStatusInput,
  GetPaymentStatusOutput,
  InitiatePaymentInput,
  InitiatePaymentOutput,
  Logger,
  ProviderWebhookPayload,
  RefundPaymentInput,
  RefundPaymentOutput,
  RetrievePaymentInput,
  RetrievePaymentOutput,
  UpdatePaymentInput,
  UpdatePaymentOutput,
  WebhookActionResult,
} from "@medusajs/framework/types"
import { AbstractPaymentProvider, ContainerRegistrationKeys, MedusaError, PaymentActions, PaymentSessionStatus } from "@medusajs/framework/utils"
import { SipayClient, SipayError, amountsEqual, formatAmount, fromMinorUnits, toMinorUnits, webhookFields } from "../../../lib/sipay"
import { assertValidOptions, SipayOptions } from "../../../lib/options"
import { toSessionStatus } from "../utils/status"
import { classifyTransaction, type GatewayOutcome } from "../../../lib/sipay/outcome"
import {
  droppingPlantedKeys,
  invoiceIdsOfSession,
  invoicesToAsk,
  isSupportedCurrency,
  ownedSessionData,
  parseInvoiceId,
  SipaySessionData,
  SUPPORTED_CURRENCIES,
} from "../utils/session-data"
import { clientFor } from "../../../lib/client-factory"
import { enforceCaptureMode, LockDatabase } from "../../../lib/checkout/capture-mode"
import { signedConfirmation, validConfirmation } from "../../../lib/checkout/confirmation"
import { authorizePhoneOrderSale, isBoundPhoneOrderSale, phoneOrderSaleOf } from "../utils/phone-order"
import { refundPaymentAtGateway } from "./refunds"
import { readCaptureAmount, readRefundRow, type MedusaDatabase } from "./medusa-rows"
import * as accountHolders from "./account-holders"
import type { SharedStateDatabase } from "../../../lib/shared-state/database"

type Cradle = { logger?: Logger } & Record<string, unknown>

/** Gateway checks one authorizePayment makes at most (option maxGatewayChecksPerRequest). */
const DEFAULT_GATEWAY_CHECKS = 3

/**
 * Medusa's payment contract on top of the Sipay gateway; the 3D and direct variants only set their
 * identifier. The provider never trusts a redirect: every decision asks the gateway (checkstatus).
 *
 * | Medusa                        | gateway                          | result                                                        |
 * |-------------------------------|----------------------------------|---------------------------------------------------------------|
 * | initiatePayment               | -                                | TRY/USD/EUR; the owned session-data keys, nothing secret;     |
 * |                               |                                  | every planted key dropped                                     |
 * | updatePayment, deletePayment  | -                                | safe to repeat; only owned keys kept                          |
 * | authorizePayment              | none when the settle workflow's  | the signed gateway_confirmation (fresh, same attempt, amount, |
 * |                               | confirmation fits, else:         | currency, capture mode) -> its outcome, no second checkstatus |
 * |                               | checkstatus, at most 3 attempts  | Completed+Auth (amount, currency match) -> captured;          |
 * |                               | (paid one first, then open ones  | Completed+Pre-Authorization -> authorized, or captured at     |
 * |                               | newest first)                    | once when the store captures; Pending -> pending; Failed ->   |
 * |                               |                                  | error                                                         |
 * | capturePayment                | confirmPayment status 1          | already Completed -> success, no second call                  |
 * | cancelPayment                 | confirmPayment status 2          | already cancelled -> success                                  |
 * | refundPayment                 | checkstatus, refund (none when   | at most captured - refunded; a refund the ledger records (made |
 * |                               | the ledger records one)          | in the panel) is never sent; a retry is refused as reused (104)|
 * | retrievePayment, getStatus    | checkstatus                      |                                                               |
 * | getWebhookActionAndData       | (sale webhook, result hash)      | verified -> not_supported (the plugin's subscriber settles    |
 * |                               |                                  | it, see below); forged -> error                               |
 */
export abstract class SipayBase extends AbstractPaymentProvider<SipayOptions> {
  protected readonly options_: SipayOptions
  protected readonly client_: SipayClient
  protected readonly logger_?: Logger
  private readonly cradle_: Cradle

  static validateOptions(options: Record<string, unknown>): void {
    assertValidOptions(options as Partial<SipayOptions>, "provider options")
  }

  constructor(cradle: Cradle, options: SipayOptions) {
    super(cradle, options)
    this.options_ = options
    this.logger_ = cradle.logger
    this.cradle_ = cradle
    this.client_ = clientFor(options, this.logger_, cradle)
  }

  /** The direct provider refuses to start a payment unless the store enabled it. */
  protected assertEnabled(): void {}

  async initiatePayment({ amount, currency_code, data, context }: InitiatePaymentInput): Promise<InitiatePaymentOutput> {
    this.assertEnabled()
    const currency = String(currency_code ?? "").toUpperCase()
    if (!isSupportedCurrency(currency)) {
      throw new MedusaError(
        MedusaError.Types.INVALID_DATA,
        `Sipay accepts ${SUPPORTED_CURRENCIES.join(", ")}; the cart's currency is ${currency || "missing"}`
      )
    }
    const sessionId = String(data?.session_id ?? context?.idempotency_key ?? "")
    if (!sessionId.startsWith("payses_")) {
      throw new MedusaError(MedusaError.Types.INVALID_DATA, "Sipay needs the payment session id to start a payment")
    }
    // Every owned key is returned and every other planted key answered undefined, so nothing the
    // storefront planted in `data` survives.
    const sessionData: SipaySessionData = {
      session_id: sessionId,
      amount: formatAmount(amount as never),
      currency_code: currency,
      invoice_ids: [],
      status: "pending",
      invoice_id: null,
      gateway_order_no: null,
      transaction_type: null,
      masked_card: null,
      installments: null,
      captured_amount: null,
      pending_capture: null,
      refunded_amount: null,
      intended_transaction_type: null,
      closed_invoice_ids: [],
      settling_invoice_id: null,
      gateway_confirmation: null,
      phone_order_sale: null,
    }
    return { id: sessionId, data: droppingPlantedKeys(data, sessionData), status: PaymentSessionStatus.PENDING }
  }

  /**
   * Medusa stores exactly what this answers: the owned keys, nothing else. A gateway confirmation
   * is kept only when the server signed it (the settle workflow's own update); one planted through
   * any other caller of updatePaymentSession does not verify and is dropped.
   */
  async updatePayment({ data, amount, currency_code }: UpdatePaymentInput): Promise<UpdatePaymentOutput> {
    const session = ownedSessionData(data)
    return {
      data: {
        ...session,
        gateway_confirmation: signedConfirmation(this.options_.appSecret, session.gateway_confirmation),
        phone_order_sale: phoneOrderSaleOf(this.options_.appSecret, session),
        amount: formatAmount(amount as never),
        currency_code: String(currency_code).toUpperCase(),
      },
    }
  }

  async deletePayment({ data }: DeletePaymentInput): Promise<DeletePaymentOutput> {
    // Nothing to undo at the gateway: an unpaid 3D form simply expires. A form paid after the
    // session was deleted is reversed by the plugin's return handler and reconciliation job.
    return { data: data ?? {} }
  }

  /**
   * Asks the gateway about the attempts that can still matter, at most maxGatewayChecksPerRequest:
   * the one a settle path found paid, then the open ones newest first. A pre-authorization the store
   * did not ask for (it captures at once) is captured here, under the cross-process capture lock.
   */
  async authorizePayment({ data }: AuthorizePaymentInput): Promise<AuthorizePaymentOutput> {
    const session = (data ?? {}) as SipaySessionData
    const phoneOrder = phoneOrderSaleOf(this.options_.appSecret, session)
    if (phoneOrder) {
      return authorizePhoneOrderSale(session, phoneOrder, (invoiceId) => this.askGateway(() => this.client_.checkStatus(invoiceId), "checkstatus"))
    }
    if (!invoiceIdsOfSession(session).length && !session.settling_invoice_id) {
      throw new MedusaError(MedusaError.Types.NOT_ALLOWED, "No card payment has been made for this payment session")
    }
    const confirmed = this.confirmedBySettle(session)
    if (confirmed) {
      return confirmed
    }
    const invoiceIds = invoicesToAsk(session, this.options_.maxGatewayChecksPerRequest ?? DEFAULT_GATEWAY_CHECKS)
    let sawPending = false
    let lastFailure = ""
    for (const invoiceId of invoiceIds) {
      let transaction = await this.askGateway(() => this.client_.checkStatus(invoiceId), "checkstatus")
      let outcome = classifyTransaction(transaction)
      if (outcome === "captured" || outcome === "authorized") {
        const paid = transaction.productPrice ?? transaction.transactionAmount
        const currencyMatches = !transaction.currencyCode || transaction.currencyCode.toUpperCase() === session.currency_code
        if (paid !== null && amountsEqual(paid, session.amount) && currencyMatches) {
          const enforced = await this.askGateway(
            () => enforceCaptureMode({ client: this.client_, db: this.database(), invoiceId, intended: session.intended_transaction_type ?? null, transaction }),
            "capture"
          )
          transaction = enforced.transaction
          outcome = classifyTransaction(transaction)
          if (enforced.action === "released" || (outcome !== "captured" && outcome !== "authorized")) {
            lastFailure = enforced.error ?? transaction.reason ?? transaction.status
            continue
          }
          const status = toSessionStatus(outcome)
          return {
            status,
            data: {
              ...session,
              status,
              invoice_id: invoiceId,
              gateway_order_no: transaction.orderId ?? null,
              transaction_type: transaction.transactionType,
              installments: transaction.installment ?? null,
              ...(outcome === "captured" ? { captured_amount: formatAmount(transaction.transactionAmount ?? paid) } : {}),
              gateway_confirmation: null,
            },
          }
        }
        lastFailure = `the payment of ${paid} ${transaction.currencyCode ?? ""} does not match the session amount ${session.amount} ${session.currency_code}`
      } else if (outcome === "pending") {
        sawPending = true
      } else if (!lastFailure) {
        lastFailure = transaction.reason || transaction.status
      }
    }
    if (sawPending) {
      return { status: PaymentSessionStatus.PENDING, data: { ...session, status: PaymentSessionStatus.PENDING } }
    }
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `The card payment was not completed: ${lastFailure || "no completed attempt"}`)
  }

  /**
   * The settle workflow's signed, fresh confirmation of the attempt it found paid, when it still
   * fits the session (its attempt, amount, currency, and the capture mode the store asked for):
   * one gateway confirmation per fact, so complete-cart does not ask the gateway again. Anything
   * else (none, planted, altered, expired, another amount) leaves it to checkstatus below.
   */
  private confirmedBySettle(session: SipaySessionData): AuthorizePaymentOutput | null {
    const settling = session.settling_invoice_id
    if (typeof settling !== "string" || parseInvoiceId(settling)?.sessionId !== session.session_id) {
      return null
    }
    if (Array.isArray(session.closed_invoice_ids) && session.closed_invoice_ids.includes(settling)) {
      return null
    }
    const confirmation = validConfirmation(this.options_.appSecret, session.gateway_confirmation, settling)
    if (!confirmation || !amountsEqual(confirmation.amount, session.amount) || confirmation.currency_code.toUpperCase() !== String(session.currency_code).toUpperCase()) {
      return null
    }
    const intended = session.intended_transaction_type ?? null
    // A reservation the store did not ask for is captured by enforceCaptureMode: asked below.
    if (confirmation.status === "authorized" && intended === "Auth") {
      return null
    }
    const status = toSessionStatus(confirmation.status)
    return {
      status,
      data: {
        ...session,
        status,
        invoice_id: settling,
        gateway_order_no: confirmation.gateway_order_no,
        transaction_type: confirmation.transaction_type,
        installments: confirmation.installments,
        ...(confirmation.status === "captured" ? { captured_amount: formatAmount(confirmation.captured_amount ?? confirmation.amount) } : {}),
        gateway_confirmation: null,
      },
    }
  }

  /** The store's PostgreSQL (Knex), for the capture lock shared by every process and Medusa's refund rows; resolved on first use. */
  private database(): LockDatabase & MedusaDatabase {
    const cradle = this.cradle_ as Record<string, unknown>
    let db: unknown
    try {
      db = cradle[ContainerRegistrationKeys.PG_CONNECTION]
    } catch {
      db = undefined
    }
    if (!db) {
      throw new MedusaError(MedusaError.Types.UNEXPECTED_STATE, "Sipay: the payment module has no database connection (capture lock, refunds, customer numbers)")
    }
    return db as LockDatabase & MedusaDatabase
  }

  /**
   * Captures at the gateway exactly what Medusa's capture records (its row, read by id): the whole
   * reservation, or part of it from Medusa's own route (the gateway takes that total and releases the
   * rest). Already captured at the gateway with that amount (an earlier try whose answer was lost, the
   * plugin's partial capture announced in `pending_capture`): recorded without a second call.
   */
  async capturePayment({ data, context }: CapturePaymentInput): Promise<CapturePaymentOutput> {
    const session = this.paidSession(data, "capture")
    const requested = await readCaptureAmount(this.database(), context?.idempotency_key)
    const transaction = await this.askGateway(() => this.client_.checkStatus(session.invoice_id), "checkstatus")
    const outcome = classifyTransaction(transaction)
    if (outcome === "captured") {
      // A second capture of a closed pre-authorization would take nothing from the card, and a capture
      // of another amount than the gateway took would misstate it: both are refused.
      const captured = toMinorUnits(transaction.transactionAmount ?? session.amount)
      if ((session.captured_amount && !session.pending_capture) || captured !== requested) {
        throw new MedusaError(
          MedusaError.Types.NOT_ALLOWED,
          `The pre-authorization was already captured at the gateway (${fromMinorUnits(captured)} ${session.currency_code}); the rest was released`
        )
      }
      return { data: { ...session, status: "captured", captured_amount: fromMinorUnits(captured), pending_capture: null } }
    }
    if (outcome !== "authorized") {
      throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `The pre-authorization cannot be captured: the gateway reports it ${describe(outcome)}`)
    }
    await this.askGateway(() => this.client_.confirmPayment(session.invoice_id, "complete", fromMinorUnits(requested)), "confirmPayment")
    return { data: { ...session, status: "captured", captured_amount: fromMinorUnits(requested), pending_capture: null } }
  }

  async cancelPayment({ data }: CancelPaymentInput): Promise<CancelPaymentOutput> {
    const session = (data ?? {}) as SipaySessionData
    if (!session.invoice_id) {
      return { data: { ...session, status: "canceled" } }
    }
    const transaction = await this.askGateway(() => this.client_.checkStatus(session.invoice_id!), "checkstatus")
    const outcome = classifyTransaction(transaction)
    if (outcome === "authorized") {
      await this.askGateway(() => this.client_.confirmPayment(session.invoice_id!, "cancel", session.amount), "confirmPayment")
      return { data: { ...session, status: "canceled" } }
    }
    if (outcome === "cancelled" || outcome === "failed" || outcome === "not_found") {
      return { data: { ...session, status: "canceled" } }
    }
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `The payment cannot be cancelled: the gateway reports it ${describe(outcome)}; refund it instead`)
  }

  /**
   * A refund Medusa created: recorded only (one checkstatus, no refund call) when the server marked it
   * as one the gateway already made, else sent with an id that makes a retry of it idempotent
   * (./refunds.ts). Medusa deletes a refund whose provider call failed, and retries with a new one.
   */
  async refundPayment({ amount, data, context }: RefundPaymentInput): Promise<RefundPaymentOutput> {
    const session = this.paidSession(data, "refund")
    const db = this.database()
    const row = await readRefundRow(db, context?.idempotency_key)
    try {
      const updated = await refundPaymentAtGateway({
        client: this.client_,
        appSecret: this.options_.appSecret,
        session,
        requestedMinor: toMinorUnits(amount as never),
        row,
        checkStatus: (invoiceId) => this.askGateway(() => this.client_.checkStatus(invoiceId), "checkstatus"),
      })
      return { data: updated }
    } catch (error) {
      throw toMedusaError(error, "refund")
    }
  }

  async retrievePayment({ data }: RetrievePaymentInput): Promise<RetrievePaymentOutput> {
    const session = (data ?? {}) as SipaySessionData
    const invoiceId = session.invoice_id ?? invoiceIdsOfSession(session).at(-1)
    if (!invoiceId) {
      return { data: session }
    }
    const transaction = await this.askGateway(() => this.client_.checkStatus(invoiceId), "checkstatus")
    return {
      data: {
        ...session,
        gateway_status: transaction.status,
        gateway_transaction_type: transaction.transactionType,
        refunded_amount: formatAmount(transaction.totalRefundedAmount ?? "0"),
      },
    }
  }

  async getPaymentStatus({ data }: GetPaymentStatusInput): Promise<GetPaymentStatusOutput> {
    const session = (data ?? {}) as SipaySessionData
    const invoiceId = session.invoice_id ?? invoiceIdsOfSession(session).at(-1)
    if (!invoiceId) {
      return { status: PaymentSessionStatus.PENDING, data: session }
    }
    const transaction = await this.askGateway(() => this.client_.checkStatus(invoiceId), "checkstatus")
    return { status: toSessionStatus(classifyTransaction(transaction)), data: session }
  }

  // Account holders and saved cards (./account-holders.ts): the customer's number at the gateway's card storage.

  async createAccountHolder(input: CreateAccountHolderInput): Promise<CreateAccountHolderOutput> {
    return this.askGateway(() => accountHolders.createAccountHolder(this.cardDeps(), input), "createAccountHolder")
  }

  async retrieveAccountHolder(input: RetrieveAccountHolderInput): Promise<RetrieveAccountHolderOutput> {
    return accountHolders.retrieveAccountHolder(input)
  }

  async updateAccountHolder(input: UpdateAccountHolderInput): Promise<UpdateAccountHolderOutput> {
    return accountHolders.updateAccountHolder(input)
  }

  async deleteAccountHolder(input: DeleteAccountHolderInput): Promise<DeleteAccountHolderOutput> {
    return this.askGateway(() => accountHolders.deleteAccountHolder(this.cardDeps(), input), "deleteCard")
  }

  async listPaymentMethods(input: ListPaymentMethodsInput): Promise<ListPaymentMethodsOutput> {
    return this.askGateway(() => accountHolders.listPaymentMethods(this.cardDeps(), input), "getCardTokens")
  }

  async savePaymentMethod(input: SavePaymentMethodInput): Promise<SavePaymentMethodOutput> {
    return this.askGateway(() => accountHolders.savePaymentMethod(this.cardDeps(), input), "saveCard")
  }

  async deletePaymentMethod(input: DeletePaymentMethodInput): Promise<DeletePaymentMethodOutput> {
    return this.askGateway(() => accountHolders.deletePaymentMethod(this.cardDeps(), input), "deleteCard")
  }

  private cardDeps(): accountHolders.AccountHolderDeps {
    return {
      client: this.client_,
      appSecret: this.options_.appSecret,
      database: () => this.database() as unknown as SharedStateDatabase,
      savedCardsEnabled: Boolean(this.options_.enableSavedCards),
    }
  }

  /**
   * Every sale webhook is settled by the plugin's subscriber (`sipay-sale-webhook`): hash verified,
   * the gateway asked, the amount matched to the session, the attempt locked, the cart completed or
   * the payment given back. Medusa's own webhook flow is kept out of it on purpose: for a payment
   * session that no longer exists (deleted when the cart changed after the form was paid),
   * Medusa 2.21's processPaymentWorkflow looks the cart up with an undefined filter and would
   * complete whichever cart it finds first, another shopper's included.
   */
  async getWebhookActionAndData(payload: ProviderWebhookPayload["payload"]): Promise<WebhookActionResult> {
    const fields = webhookFields(payload)
    const parsed = parseInvoiceId(fields.invoice_id)
    if (parsed && !this.client_.verifyResult(fields)) {
      throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `Sipay webhook for ${parsed.sessionId}: the result hash does not verify`)
    }
    return { action: PaymentActions.NOT_SUPPORTED }
  }

  /** A payment that a Completed attempt was matched to (authorizePayment set invoice_id). */
  private paidSession(data: Record<string, unknown> | undefined, operation: string): SipaySessionData & { invoice_id: string } {
    const session = (data ?? {}) as SipaySessionData
    const ours = parseInvoiceId(session.invoice_id)?.sessionId === session.session_id || isBoundPhoneOrderSale(this.options_.appSecret, session, session.invoice_id)
    if (!session.invoice_id || !ours) {
      throw new MedusaError(MedusaError.Types.INVALID_DATA, `Cannot ${operation}: the payment has no Sipay invoice id`)
    }
    return session as SipaySessionData & { invoice_id: string }
  }

  private async askGateway<T>(call: () => Promise<T>, operation: string): Promise<T> {
    try {
      return await call()
    } catch (error) {
      throw toMedusaError(error, operation)
    }
  }
}

function describe(outcome: GatewayOutcome): string {
  return outcome === "not_found" ? "unknown" : outcome
}

export function toMedusaError(error: unknown, operation: string): MedusaError {
  if (error instanceof MedusaError) {
    return error
  }
  // NOT_ALLOWED keeps the message: Medusa hides the text of 5xx errors from the admin.
  if (error instanceof SipayError) {
    const code = error.statusCode !== null && error.statusCode !== undefined ? ` [${error.statusCode}]` : ""
    return new MedusaError(MedusaError.Types.NOT_ALLOWED, `Sipay ${operation} failed${code}: ${error.description}`)
  }
  return new MedusaError(MedusaError.Types.NOT_ALLOWED, `Sipay ${operation} failed: ${(error as Error)?.message ?? "unknown error"}`)
}
