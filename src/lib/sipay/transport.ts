import axios, { AxiosError, type AxiosResponse } from "axios"
import type { Readable } from "node:stream"
import { SipayError } from "./errors"
import { RecordSplitter } from "./record-stream"
import { redact } from "./redact"
import { parseStatusCode, SUCCESS_CODE } from "./status-codes"
import type { TokenCache } from "./token"
import type { SipayLogger } from "./types"
import { OPERATIONS, type OperationName, type OperationSpec } from "./wire"

/**
 * HTTP to the gateway: bearer token, one re-authentication after a rejected token, one repeat of a
 * read after a network fault, and the mapping of transport failures to SipayError. Payments are never
 * repeated after their request may have reached the gateway.
 */

export type GatewayCall = {
  operation: OperationName
  url: string
  body: Record<string, unknown> | FormData
  /** For log lines only. */
  invoiceId?: string
}

export type GatewayAnswer = {
  httpStatus: number
  body: any
  /** An HTML page the operation answered instead of JSON (payByCardToken's bank page), for callers that take one. */
  html?: string
  /** The first element when the gateway wraps its answer in an array. */
  envelope: Record<string, any>
  statusCode: number | null
  description: string
}

export type TransportOptions = {
  timeoutMs: number
  logger?: SipayLogger
  tokens: TokenCache
  /** Values to mask in every log line and error: app secret, merchant key, current token. */
  secrets: () => (string | null | undefined)[]
}

type NetworkFault = { kind: "refused" | "timeout" | "dropped"; detail: string }

/** The answer of a streamed call: everything but the records, which went to onRecord as they arrived. */
export type StreamedAnswer = GatewayAnswer & { records: number }

/** Answers of ordinary operations are read whole, up to this size; record lists are streamed (stream()). */
export const MAX_ANSWER_BYTES = 10 * 1024 * 1024
const MAX_ERROR_BODY_BYTES = 1024 * 1024
const READ_RETRY_HTTP = new Set([502, 503])
// The bearer token, not a stored card's ("The selected card token is invalid." is an answer, not an expired bearer).
const AUTH_TEXT = /(?<!card[ _])token|unauthenticated/i

function classifyFault(error: unknown): NetworkFault {
  const code = (error as AxiosError)?.code ?? ""
  const detail = code || "network error"
  if (code === "ECONNREFUSED" || code === "ENOTFOUND" || code === "EAI_AGAIN") {
    return { kind: "refused", detail }
  }
  if (code === "ECONNABORTED" || code === "ETIMEDOUT" || code === "ERR_CANCELED") {
    return { kind: "timeout", detail }
  }
  return { kind: "dropped", detail }
}

/** axios' answer-size cap: a whole answer arrived, only too large; not a network fault, never repeated. */
function isAnswerTooLarge(error: unknown): boolean {
  const axiosError = error as AxiosError
  return axiosError?.code === "ERR_BAD_RESPONSE" && /maxContentLength/i.test(String(axiosError.message))
}

function answerTooLarge(operation: string, kind: "read" | "payment"): SipayError {
  const limit = `${MAX_ANSWER_BYTES / 1024 / 1024} MB`
  if (kind === "payment") {
    return new SipayError({
      operation,
      description: `the gateway's answer is larger than ${limit} and was not read (not sent again); the outcome is unknown, reconcile with checkStatus`,
      code: "outcome_unknown",
      retryable: false,
    })
  }
  return new SipayError({ operation, description: `the gateway's answer is larger than ${limit} and was not read (not sent again)`, code: "answer_too_large", retryable: false })
}

function envelopeOf(body: unknown): Record<string, any> {
  const first = Array.isArray(body) ? body[0] : body
  return first !== null && typeof first === "object" ? (first as Record<string, any>) : {}
}

export function gatewayDescription(envelope: Record<string, any>): string {
  for (const name of ["status_description", "description", "message", "error"]) {
    if (typeof envelope[name] === "string" && envelope[name].trim() !== "") {
      return envelope[name]
    }
  }
  return ""
}

function isRejectedToken(httpStatus: number, statusCode: number | null, description: string): boolean {
  if (httpStatus === 401 || statusCode === 401) {
    return true
  }
  return statusCode !== 100 && statusCode !== 101 && AUTH_TEXT.test(description)
}

export class GatewayTransport {
  constructor(private readonly options: TransportOptions) {}

  /** Masks secrets with the client's own secret values as well as by field name. */
  redact<T>(value: T): T {
    return redact(value, { secrets: this.options.secrets() })
  }

  log(level: keyof SipayLogger, message: string): void {
    const write = this.options.logger?.[level]
    if (typeof write === "function") {
      try {
        write.call(this.options.logger, this.redact(message))
      } catch {
        // a failing logger must not fail a payment
      }
    }
  }

  async call(request: GatewayCall): Promise<GatewayAnswer> {
    const spec = OPERATIONS[request.operation]
    const started = Date.now()
    let reauthenticated = false
    let repeated = false
    for (;;) {
      const token = spec.bearer ? (await this.options.tokens.get()).token : null
      let response: AxiosResponse<string>
      try {
        response = await this.send(request, token)
      } catch (error) {
        if (isAnswerTooLarge(error)) {
          this.logCall(request, started, null, null, "answer too large")
          throw answerTooLarge(request.operation, spec.kind)
        }
        const fault = classifyFault(error)
        if (spec.kind === "read" && !repeated) {
          repeated = true
          this.log("warn", `sipay ${request.operation} ${fault.detail}, repeating once`)
          continue
        }
        this.logCall(request, started, null, null, fault.detail)
        throw this.networkError(request.operation, spec.kind, fault)
      }
      const parsed = this.parse(response.data)
      if (!parsed.ok && (spec as OperationSpec).answersHtml && response.status >= 200 && response.status < 300 && isHtml(response)) {
        this.logCall(request, started, response.status, null)
        return { httpStatus: response.status, body: null, html: String(response.data), envelope: {}, statusCode: null, description: "" }
      }
      const envelope = envelopeOf(parsed.value)
      const statusCode = parseStatusCode(envelope.status_code ?? envelope.statuscode)
      const description = gatewayDescription(envelope)
      if (spec.bearer && token && isRejectedToken(response.status, statusCode, description)) {
        if (!reauthenticated) {
          reauthenticated = true
          this.log("info", `sipay ${request.operation} token rejected, re-authenticating once`)
          await this.options.tokens.replace(token)
          continue
        }
        this.logCall(request, started, response.status, statusCode)
        throw new SipayError({
          operation: request.operation,
          statusCode,
          description: "the gateway rejected a freshly issued token",
          httpStatus: response.status,
          code: "unauthorized",
        })
      }
      if (response.status >= 500) {
        if (spec.kind === "read" && !repeated && READ_RETRY_HTTP.has(response.status)) {
          repeated = true
          this.log("warn", `sipay ${request.operation} HTTP ${response.status}, repeating once`)
          continue
        }
        this.logCall(request, started, response.status, statusCode)
        throw this.serverError(request.operation, spec.kind, response.status, statusCode)
      }
      this.logCall(request, started, response.status, statusCode)
      if (!parsed.ok) {
        throw new SipayError({
          operation: request.operation,
          description: `unparseable answer (HTTP ${response.status})`,
          httpStatus: response.status,
          code: spec.kind === "payment" ? "outcome_unknown" : "invalid_response",
        })
      }
      return { httpStatus: response.status, body: parsed.value, envelope, statusCode, description: this.redact(description) }
    }
  }

  /**
   * A read whose answer carries a list of records (getTransactions): the answer is never held whole
   * and has no size cap; each record of `data` goes to onRecord as soon as its bytes arrived, and the
   * next chunk is read once onRecord's promise settled. The read is repeated once after a network
   * fault or 502/503 only while no record was delivered; the timeout is an idle timeout.
   */
  async stream(request: GatewayCall, onRecord: (record: Record<string, unknown>) => void | Promise<void>): Promise<StreamedAnswer> {
    const spec = OPERATIONS[request.operation]
    const started = Date.now()
    let reauthenticated = false
    let repeated = false
    for (;;) {
      const token = spec.bearer ? (await this.options.tokens.get()).token : null
      let delivered = 0
      let httpStatus = 0
      let parsed: { ok: boolean; value: unknown }
      try {
        const result = await this.sendStreaming(request, token, async (record) => {
          delivered++
          await onRecord(record)
        })
        httpStatus = result.httpStatus
        parsed = result.envelope
      } catch (error) {
        if (error instanceof RecordError) throw error.cause
        const fault = classifyFault(error)
        if (spec.kind === "read" && !repeated && delivered === 0) {
          repeated = true
          this.log("warn", `sipay ${request.operation} ${fault.detail}, repeating once`)
          continue
        }
        this.logCall(request, started, null, null, fault.detail)
        throw this.networkError(request.operation, spec.kind, fault)
      }
      const envelope = envelopeOf(parsed.value)
      const statusCode = parseStatusCode(envelope.status_code ?? envelope.statuscode)
      const description = gatewayDescription(envelope)
      if (spec.bearer && token && delivered === 0 && isRejectedToken(httpStatus, statusCode, description)) {
        if (!reauthenticated) {
          reauthenticated = true
          this.log("info", `sipay ${request.operation} token rejected, re-authenticating once`)
          await this.options.tokens.replace(token)
          continue
        }
        this.logCall(request, started, httpStatus, statusCode)
        throw new SipayError({ operation: request.operation, statusCode, description: "the gateway rejected a freshly issued token", httpStatus, code: "unauthorized" })
      }
      if (httpStatus >= 500) {
        if (spec.kind === "read" && !repeated && delivered === 0 && READ_RETRY_HTTP.has(httpStatus)) {
          repeated = true
          this.log("warn", `sipay ${request.operation} HTTP ${httpStatus}, repeating once`)
          continue
        }
        this.logCall(request, started, httpStatus, statusCode)
        throw this.serverError(request.operation, spec.kind, httpStatus, statusCode)
      }
      this.logCall(request, started, httpStatus, statusCode)
      if (!parsed.ok) {
        throw new SipayError({ operation: request.operation, description: `unparseable answer (HTTP ${httpStatus})`, httpStatus, code: "invalid_response" })
      }
      return { httpStatus, body: parsed.value, envelope, statusCode, description: this.redact(description), records: delivered }
    }
  }

  private async sendStreaming(
    request: GatewayCall,
    token: string | null,
    onRecord: (record: Record<string, unknown>) => Promise<void>
  ): Promise<{ httpStatus: number; envelope: { ok: boolean; value: unknown } }> {
    const headers: Record<string, string> = { Accept: "application/json", "Content-Type": "application/json" }
    if (token) {
      headers.Authorization = `Bearer ${token}`
    }
    const abort = new AbortController()
    // Idle timeout: a large answer may take long in all, but must keep arriving.
    let idle = setTimeout(() => abort.abort(), this.options.timeoutMs)
    const touch = () => {
      clearTimeout(idle)
      idle = setTimeout(() => abort.abort(), this.options.timeoutMs)
    }
    try {
      const response = await axios.post<Readable>(request.url, request.body, {
        headers,
        signal: abort.signal,
        responseType: "stream",
        maxContentLength: Infinity,
        validateStatus: () => true,
        maxRedirects: 0,
        // axios' own decompression stays on; records are cut from the decoded bytes.
        decompress: true,
      })
      touch()
      if (response.status >= 400) {
        // An error page or envelope: small, read whole (capped) and parsed as usual.
        const chunks: Buffer[] = []
        let size = 0
        for await (const chunk of response.data) {
          touch()
          size += (chunk as Buffer).length
          if (size > MAX_ERROR_BODY_BYTES) break
          chunks.push(chunk as Buffer)
        }
        response.data.destroy()
        return { httpStatus: response.status, envelope: this.parse(Buffer.concat(chunks).toString("utf8")) }
      }
      const queue: Record<string, unknown>[] = []
      const splitter = new RecordSplitter((text) => {
        queue.push(JSON.parse(text))
      })
      for await (const chunk of response.data) {
        touch()
        try {
          splitter.push(chunk as Buffer)
        } catch (error) {
          response.data.destroy()
          return { httpStatus: response.status, envelope: { ok: false, value: null } }
        }
        while (queue.length) {
          const record = queue.shift()!
          try {
            await onRecord(record)
          } catch (error) {
            response.data.destroy()
            throw new RecordError(error)
          }
          touch()
        }
      }
      return { httpStatus: response.status, envelope: splitter.end() }
    } finally {
      clearTimeout(idle)
    }
  }

  private send(request: GatewayCall, token: string | null): Promise<AxiosResponse<string>> {
    const headers: Record<string, string> = { Accept: "application/json" }
    if (!(request.body instanceof FormData)) {
      headers["Content-Type"] = "application/json"
    }
    if (token) {
      headers.Authorization = `Bearer ${token}`
    }
    // A GET carries its JSON body too (getCardTokens, as both published clients send it).
    return axios.request({
      method: (OPERATIONS[request.operation] as OperationSpec).method ?? "POST",
      url: request.url,
      data: request.body,
      headers,
      timeout: this.options.timeoutMs,
      // axios' timeout is an idle timeout; the signal caps the whole exchange, however slowly it trickles.
      signal: AbortSignal.timeout(this.options.timeoutMs),
      maxContentLength: MAX_ANSWER_BYTES,
      responseType: "text",
      // The raw text: an unparseable body is an error of its own, not a string result.
      transformResponse: [(data: unknown) => data],
      validateStatus: () => true,
      maxRedirects: 0,
    })
  }

  private parse(text: unknown): { ok: boolean; value: unknown } {
    if (typeof text !== "string" || text.trim() === "") {
      return { ok: false, value: null }
    }
    try {
      return { ok: true, value: JSON.parse(text) }
    } catch {
      return { ok: false, value: null }
    }
  }

  private logCall(request: GatewayCall, started: number, httpStatus: number | null, statusCode: number | null, fault?: string) {
    const outcome = fault ? `fault=${fault}` : `http=${httpStatus} code=${statusCode ?? "-"}`
    this.log("debug", `sipay ${request.operation} invoice=${request.invoiceId ?? "-"} ${outcome} ${Date.now() - started}ms`)
  }

  private networkError(operation: string, kind: "read" | "payment", fault: NetworkFault): SipayError {
    if (fault.kind === "refused") {
      // Nothing reached the gateway: safe to repeat, even a payment.
      return new SipayError({ operation, description: `gateway unreachable (${fault.detail})`, code: "network", retryable: true })
    }
    if (kind === "payment") {
      return new SipayError({
        operation,
        description: `no answer (${fault.detail}); the outcome is unknown, reconcile with checkStatus`,
        code: "outcome_unknown",
        retryable: false,
        timedOut: fault.kind === "timeout",
      })
    }
    const code = fault.kind === "timeout" ? "timeout" : "network"
    return new SipayError({ operation, description: `no answer (${fault.detail})`, code, retryable: true })
  }

  private serverError(operation: string, kind: "read" | "payment", httpStatus: number, statusCode: number | null): SipayError {
    // A proxy timing out (502/504) on a payment may hide a payment the gateway did take.
    if (kind === "payment" && (httpStatus === 502 || httpStatus === 504)) {
      return new SipayError({
        operation,
        statusCode,
        description: `HTTP ${httpStatus}; the outcome is unknown, reconcile with checkStatus`,
        httpStatus,
        code: "outcome_unknown",
        retryable: false,
      })
    }
    return new SipayError({ operation, statusCode, description: `gateway error HTTP ${httpStatus}`, httpStatus, code: "http_error", retryable: true })
  }
}

/** Anything but an accepted status code becomes a SipayError carrying the gateway's code and description. */
export function expectSuccess(operation: string, answer: GatewayAnswer, accepted: number[] = [SUCCESS_CODE]): void {
  if (answer.statusCode === null || !accepted.includes(answer.statusCode)) {
    throw SipayError.fromStatusCode(operation, answer.statusCode, answer.description || null, answer.httpStatus)
  }
}

function isHtml(response: AxiosResponse<string>): boolean {
  return /text\/html/i.test(String(response.headers?.["content-type"] ?? "")) || /^\s*</.test(String(response.data ?? ""))
}

/** The caller's onRecord failed: passed through as it is, never taken for a network fault. */
class RecordError extends Error {
  constructor(readonly cause: unknown) {
    super("record handler failed")
  }
}
