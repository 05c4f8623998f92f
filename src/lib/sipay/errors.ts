import { describeStatusCode } from "./status-codes"

/** Programmatic codes of errors raised by the client itself; gateway errors use the status code's key. */
export type SipayClientErrorCode =
  | "validation"
  | "configuration"
  | "network"
  | "timeout"
  | "outcome_unknown"
  | "http_error"
  | "unauthorized"
  | "invalid_response"
  | "invalid_result_hash"

export type SipayErrorInit = {
  operation: string
  statusCode?: number | null
  description: string
  httpStatus?: number | null
  retryable?: boolean
  code: SipayClientErrorCode | string
  /** No answer came within the client's timeout (the request may still be handled by the gateway). */
  timedOut?: boolean
}

/**
 * A failed gateway operation. The message never carries card data or secrets: callers build it
 * from redacted text only (see redact.ts).
 */
export class SipayError extends Error {
  readonly operation: string
  /** The gateway's status_code / statuscode, when it answered with one. */
  readonly statusCode: number | null
  readonly description: string
  readonly httpStatus: number | null
  /** True only when repeating the same request later may succeed without double effects. */
  readonly retryable: boolean
  readonly code: string
  /** No answer came within the client's timeout. */
  readonly timedOut: boolean

  constructor(init: SipayErrorInit) {
    const statusCode = init.statusCode ?? null
    const prefix = statusCode === null ? "" : `[${statusCode}] `
    super(`Sipay ${init.operation} failed: ${prefix}${init.description}`)
    this.name = "SipayError"
    this.operation = init.operation
    this.statusCode = statusCode
    this.description = init.description
    this.httpStatus = init.httpStatus ?? null
    this.retryable = init.retryable ?? false
    this.code = init.code
    this.timedOut = init.timedOut ?? false
  }

  /** An error from the gateway's own status code, described by the status code table unless it said more. */
  static fromStatusCode(
    operation: string,
    statusCode: number | null,
    gatewayDescription: string | null,
    httpStatus: number | null
  ): SipayError {
    const info = describeStatusCode(statusCode)
    return new SipayError({
      operation,
      statusCode,
      description: gatewayDescription?.trim() || info.description,
      httpStatus,
      retryable: info.retryable,
      code: info.key,
    })
  }
}

export function isSipayError(error: unknown): error is SipayError {
  return error instanceof SipayError
}
