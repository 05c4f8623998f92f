import type { AmountInput } from "./amount"
import { resolveConfig, type ResolvedConfig } from "./config"
import { SipayError } from "./errors"
import { paymentLinkForm, sendEmailBody } from "./payment-links"
import { threeDFormFields, twoDBody, validateCard, validatePaymentRequest } from "./payment-fields"
import {
  checkStatusRecord,
  integerList,
  isFailedSaleRecord,
  text,
  toPaymentResult,
  toCommissionRows,
  toPosOption,
  toTransactionStatus,
  verifyResultFields,
} from "./results"
import { toRecurringPlan } from "./recurring"
import { NO_INSTALLMENTS_CODE, NOT_FOUND_CODES, REFUND_CREATED_CODE, SUCCESS_CODE } from "./status-codes"
import { parseExpiresAt, TokenCache } from "./token"
import { expectSuccess, GatewayTransport, type GatewayAnswer, type GatewayCall } from "./transport"
import { SipayCardStorage } from "./cards"
import type {
  CardInput,
  CommissionRow,
  CommissionsQuery,
  CompletePaymentResult,
  ConfirmPaymentResult,
  ConnectionMode,
  InstallmentOptions,
  InstallmentsQuery,
  PaymentLinkCreated,
  PaymentLinkInput,
  PaymentLinkSent,
  PaymentRequest,
  PaymentResult,
  PosOption,
  PosQuery,
  RecurringPlan,
  RecurringPlanUpdate,
  RecurringPlanUpdated,
  RefundOptions,
  RefundResult,
  SaleRecord,
  SipayClientOptions,
  TokenInfo,
  TransactionStatus,
  TransactionsQuery,
  VerifiedResult,
} from "./types"
import * as wire from "./wire"

const MODES: Record<number, ConnectionMode> = { 0: "2d-only", 1: "2d-or-3d", 2: "3d-only", 4: "hosted" }

/** The CCPayment gateway (Sipay and its white-label brands), without any knowledge of Medusa. */
export class SipayClient {
  private readonly config: ResolvedConfig
  private readonly tokens: TokenCache
  private readonly transport: GatewayTransport
  /** The latest token, masked in logs and errors like the other secrets. */
  private cachedToken: string | null = null
  /** Cards stored at the gateway for the merchant's customers, and payments with them. */
  readonly cards: SipayCardStorage

  constructor(options: SipayClientOptions) {
    this.config = resolveConfig(options)
    this.tokens = new TokenCache(() => this.requestToken(), Date.now, options.tokenStore)
    this.transport = new GatewayTransport({
      timeoutMs: this.config.timeoutMs,
      logger: this.config.logger,
      tokens: this.tokens,
      secrets: () => [this.config.appSecret, this.config.merchantKey, this.cachedToken, this.tokens.latestToken],
    })
    this.cards = new SipayCardStorage({
      call: (request) => this.call(request),
      url: (operation) => this.url(operation),
      credentials: () => ({ merchantKey: this.config.merchantKey, appSecret: this.config.appSecret }),
    })
  }

  get baseUrl(): string {
    return this.config.baseUrl
  }

  get panelBaseUrl(): string {
    return this.config.panelBaseUrl
  }

  get merchantId(): string | null {
    return this.config.merchantId
  }

  /** A bearer token, reused until 5 minutes before it expires; concurrent callers share one request. */
  getToken(): Promise<TokenInfo> {
    return this.tokens.get()
  }

  invalidateToken(): void {
    this.tokens.invalidate()
  }

  /** A fresh token proves the credentials; is_3d tells which payment flows the merchant may use. */
  async testConnection(): Promise<{ is3d: number; mode: ConnectionMode }> {
    this.tokens.invalidate()
    const { is3d } = await this.tokens.get()
    return { is3d, mode: MODES[is3d] ?? "unknown" }
  }

  /** The paySmart3D browser form without card fields; the shopper's browser adds CARD_FIELD_NAMES. */
  build3DForm(request: PaymentRequest): { action: string; fields: Record<string, string> } {
    validatePaymentRequest("paySmart3D", request, { requireUrls: true })
    return {
      action: this.url("paySmart3D"),
      fields: threeDFormFields(request, this.config.merchantKey, this.config.appSecret),
    }
  }

  /** A direct payment. A declined card is a result with success false; never repeated by the client. */
  async paySmart2D(request: PaymentRequest, card: CardInput): Promise<PaymentResult> {
    validatePaymentRequest("paySmart2D", request, { requireUrls: false })
    validateCard("paySmart2D", card)
    const body = twoDBody(request, card, this.config.merchantKey, this.config.appSecret)
    const answer = await this.call({ operation: "paySmart2D", url: this.url("paySmart2D"), body, invoiceId: request.invoiceId })
    if (answer.body === null || typeof answer.body !== "object" || Array.isArray(answer.body)) {
      throw new SipayError({ operation: "paySmart2D", description: "answer is not an object", code: "outcome_unknown" })
    }
    return toPaymentResult(
      answer.body,
      { invoiceId: request.invoiceId, total: body.total, currencyCode: request.currencyCode },
      this.config.appSecret
    )
  }

  /**
   * A 3D redirect or sale webhook, or null when its hash_key is missing, invalid or for another invoice.
   * The hash is AES-CBC without a MAC, so it is not proof of payment: confirm with checkStatus before acting.
   */
  verifyResult(fields: Record<string, unknown>): VerifiedResult | null {
    return verifyResultFields(fields, this.config.appSecret)
  }

  /**
   * The gateway's record of an invoice; an unknown invoice (31, or 32 as the gateway's docs publish it) is
   * found: false, and a failed sale (100 or 41 with transaction_status Failed) is a Failed record, not an error.
   * The record may come as an object or a one-element array.
   */
  async checkStatus(invoiceId: string, options: { includePending?: boolean } = {}): Promise<TransactionStatus> {
    const body = wire.checkStatusBody(this.config.merchantKey, invoiceId, options.includePending ?? true, this.config.appSecret)
    const answer = await this.call({ operation: "checkstatus", url: this.url("checkstatus"), body, invoiceId })
    const record = checkStatusRecord(answer.body)
    if (answer.statusCode !== null && NOT_FOUND_CODES.includes(answer.statusCode)) {
      return toTransactionStatus({ status_code: answer.statusCode }, invoiceId, false, answer.body)
    }
    // A declined sale is a result, not an error: the gateway's docs answer it 41 with transaction_status Failed.
    if (isFailedSaleRecord(record, invoiceId)) {
      return toTransactionStatus(record, invoiceId, true, answer.body)
    }
    this.expectSuccess("checkstatus", answer)
    return toTransactionStatus(record, invoiceId, true, answer.body)
  }

  /** Completes (takes up to `total`) or cancels a pre-authorization. */
  async confirmPayment(invoiceId: string, action: "complete" | "cancel", total: AmountInput): Promise<ConfirmPaymentResult> {
    const body = wire.confirmPaymentBody(this.config.merchantKey, invoiceId, action, total, this.config.appSecret)
    const answer = await this.call({ operation: "confirmPayment", url: this.url("confirmPayment"), body, invoiceId })
    this.expectSuccess("confirmPayment", answer)
    const record = answer.envelope
    return {
      statusCode: answer.statusCode,
      transactionStatus: text(record.transaction_status ?? record.data?.transaction_status),
      orderId: text(record.order_id ?? record.data?.order_id),
      invoiceId: text(record.invoice_id ?? record.data?.invoice_id) ?? invoiceId,
      raw: answer.body,
    }
  }

  /** A full or partial refund. A reused refundTransactionId is SipayError "refund_id_reused": confirm with checkStatus. */
  async refund(invoiceId: string, amount: AmountInput, options: RefundOptions = {}): Promise<RefundResult> {
    const { merchantKey, appId, appSecret } = this.config
    const body = wire.refundBody({ merchantKey, appId, appSecret }, invoiceId, amount, options)
    const answer = await this.call({ operation: "refund", url: this.url("refund"), body, invoiceId })
    this.expectSuccess("refund", answer, [SUCCESS_CODE, REFUND_CREATED_CODE])
    const record = { ...answer.envelope, ...(answer.envelope.data ?? {}) }
    return {
      orderNo: text(record.order_no ?? record.order_id),
      invoiceId: text(record.invoice_id) ?? invoiceId,
      refNo: text(record.ref_no),
      statusCode: answer.statusCode,
      raw: answer.body,
    }
  }

  /** Completes or cancels a paySmart3D payment sent with payment_completed_by=merchant. */
  async completePayment(invoiceId: string, orderId: string, action: "complete" | "cancel"): Promise<CompletePaymentResult> {
    const body = wire.completePaymentBody(this.config.merchantKey, invoiceId, orderId, action, this.config.appSecret)
    const answer = await this.call({ operation: "completePayment", url: this.url("completePayment"), body, invoiceId })
    this.expectSuccess("payment/complete", answer)
    // As published the result is in `data` (QNBpay docs; the PHP SDK reads data.*); older answers put it at the top.
    const data = answer.envelope.data !== null && typeof answer.envelope.data === "object" ? answer.envelope.data : {}
    const record = { ...answer.envelope, ...data }
    return {
      statusCode: answer.statusCode,
      statusDescription: answer.description,
      status: text(record.status ?? record.transaction_status),
      orderId: text(record.order_id ?? record.order_no) ?? orderId,
      invoiceId: text(record.invoice_id) ?? invoiceId,
      raw: answer.body,
    }
  }

  /** POS and installment options for a card's bin (only its first 6 digits are sent). */
  async getPos(query: PosQuery): Promise<PosOption[]> {
    const body = wire.getPosBody(this.config.merchantKey, query)
    const answer = await this.call({ operation: "getpos", url: this.url("getpos"), body })
    this.expectSuccess("getpos", answer)
    const rows: unknown[] = Array.isArray(answer.envelope.data) ? answer.envelope.data : []
    return rows.filter((row): row is Record<string, any> => row !== null && typeof row === "object").map(toPosOption)
  }

  /** The merchant's commission table per installment count and card program (/api/commissions). */
  async getCommissions(query: CommissionsQuery): Promise<CommissionRow[]> {
    const answer = await this.call({ operation: "commissions", url: this.url("commissions"), body: wire.commissionsBody(query) })
    this.expectSuccess("commissions", answer)
    return toCommissionRows(answer.envelope.data)
  }

  /** Installment counts, and the agricultural maturity periods and payment frequencies; none assigned (62) is empty. */
  async getInstallments(query: InstallmentsQuery = {}): Promise<InstallmentOptions> {
    const body = wire.installmentsBody(this.config.merchantKey, query)
    const answer = await this.call({ operation: "installments", url: this.url("installments"), body })
    if (answer.statusCode === NO_INSTALLMENTS_CODE) {
      return { installments: [], maturityPeriods: [], paymentFrequencies: [], raw: answer.body }
    }
    this.expectSuccess("installments", answer)
    const source = { ...(answer.envelope.data && !Array.isArray(answer.envelope.data) ? answer.envelope.data : {}), ...answer.envelope }
    return {
      installments: integerList(Array.isArray(answer.envelope.data) ? answer.envelope.data : source.installments),
      maturityPeriods: integerList(source.maturity_period),
      paymentFrequencies: integerList(source.payment_frequency),
      raw: answer.body,
    }
  }

  /** The merchant's sales of one day, optionally filtered (all held in memory: streamTransactions for a whole busy day). */
  async getTransactions(query: TransactionsQuery): Promise<SaleRecord[]> {
    const sales: SaleRecord[] = []
    await this.streamTransactions(query, (sale) => {
      sales.push(sale)
    })
    return sales
  }

  /**
   * The merchant's sales of one day, each handed to onSale as soon as it arrived (the answer is never
   * held whole, whatever its size); the next is read once onSale's promise settled. Answers the count.
   */
  async streamTransactions(query: TransactionsQuery, onSale: (sale: SaleRecord) => void | Promise<void>): Promise<number> {
    const body = wire.transactionsBody(this.config.merchantKey, query)
    const request = { operation: "getTransactions" as const, url: this.url("getTransactions"), body, invoiceId: query.invoiceId }
    const answer = await this.transport.stream(request, (record) => onSale(record as SaleRecord))
    this.expectSuccess("getTransactions", answer)
    return answer.records
  }

  /** A multi-use payment link (multipart, with the product photo as a file part). */
  async createPaymentLink(input: PaymentLinkInput): Promise<PaymentLinkCreated> {
    const answer = await this.call({ operation: "dplCreate", url: this.url("dplCreate"), body: paymentLinkForm(input) })
    this.expectSuccess("dpl/create", answer)
    const data = answer.envelope.data ?? {}
    return { dpl: data.dpl, inputs: data.inputs ?? {}, raw: answer.body }
  }

  async sendPaymentLinkEmail(dplId: number, emails: string[]): Promise<PaymentLinkSent> {
    const answer = await this.call({ operation: "dplSendEmail", url: this.url("dplSendEmail"), body: sendEmailBody(dplId, emails) })
    this.expectSuccess("dpl/sendemail", answer)
    const data = answer.envelope.data ?? {}
    return { dpl: data.dpl, link: String(data.link ?? ""), raw: answer.body }
  }

  async queryRecurringPlan(planCode: string, recurringNumber?: number | string): Promise<RecurringPlan> {
    const body = wire.recurringQueryBody(this.config.merchantKey, planCode, recurringNumber)
    const answer = await this.call({ operation: "recurringQuery", url: this.url("recurringQuery"), body })
    this.expectSuccess("recurringPlan/query", answer)
    return toRecurringPlan(answer.envelope, answer.body)
  }

  async updateRecurringPlan(update: RecurringPlanUpdate): Promise<RecurringPlanUpdated> {
    const body = wire.recurringUpdateBody(this.config.merchantKey, update)
    const answer = await this.call({ operation: "recurringUpdate", url: this.url("recurringUpdate"), body })
    this.expectSuccess("recurringPlan/update", answer)
    return { statusCode: answer.statusCode, statusDescription: answer.description, raw: answer.body }
  }

  private url(operation: wire.OperationName): string {
    const spec = wire.OPERATIONS[operation]
    return `${spec.base === "panel" ? this.config.panelBaseUrl : this.config.baseUrl}${spec.path}`
  }

  private call(request: GatewayCall): Promise<GatewayAnswer> {
    return this.transport.call(request)
  }

  private expectSuccess(operation: string, answer: GatewayAnswer, accepted: number[] = [SUCCESS_CODE]): void {
    expectSuccess(operation, answer, accepted)
  }

  private async requestToken(): Promise<TokenInfo> {
    const body = wire.tokenBody(this.config.appId, this.config.appSecret)
    const answer = await this.call({ operation: "token", url: this.url("token"), body })
    const data = answer.envelope.data ?? {}
    if (answer.statusCode !== SUCCESS_CODE || typeof data.token !== "string" || data.token === "") {
      throw SipayError.fromStatusCode("token", answer.statusCode, answer.description || null, answer.httpStatus)
    }
    this.cachedToken = data.token
    return { token: data.token, is3d: Number(data.is_3d ?? 0), expiresAt: parseExpiresAt(data.expires_at) }
  }
}
