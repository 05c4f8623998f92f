import { SipayError } from "../sipay"

/**
 * The gateway's refusal of a link operation in words for the store owner. An answer that never came
 * (or a 5xx without a code) leaves the outcome open: say so, since the client's advice for payments
 * (checkStatus) does not apply to links.
 */
export function describeLinkFailure(error: SipayError, outcome: "created" | "e-mailed"): string {
  if (error.code !== "outcome_unknown") {
    return error.description
  }
  const answer = error.httpStatus ? `HTTP ${error.httpStatus}` : "no answer"
  const check = outcome === "created" ? "check the merchant panel before creating it again" : "check with the recipients before sending again"
  return `${answer} from the gateway: it is not known whether the link was ${outcome}; ${check}`
}

/** The same gateway error, described for a link operation. */
export function linkError(error: SipayError, outcome: "created" | "e-mailed"): SipayError {
  return new SipayError({
    operation: error.operation,
    statusCode: error.statusCode,
    description: describeLinkFailure(error, outcome),
    httpStatus: error.httpStatus,
    retryable: error.retryable,
    code: error.code,
  })
}
