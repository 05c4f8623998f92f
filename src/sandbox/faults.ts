/** Faults armed through the control API: each hits the next `times` calls of one operation. */

export const FAULT_OPERATIONS = [
  "token", "paySmart2D", "paySmart3D", "checkstatus", "confirmPayment", "refund", "getTransactions", "dpl",
  "sale_webhook", "recurring_webhook",
  // beyond contracts.md: the other operations the sandbox serves
  "getpos", "installments", "commissions", "payment_complete", "recurringPlan",
  "saveCard", "getCardTokens", "editCard", "deleteCard", "payByCardToken", "payByCardTokenNonSecure",
] as const
export type FaultOperation = (typeof FAULT_OPERATIONS)[number]

/** Kinds applied when a request arrives (charge_then_drop after it was handled). */
export const REQUEST_FAULTS = ["latency", "http_500", "http_502", "drop_connection", "charge_then_drop"] as const
/** Kinds applied when a webhook is sent. */
export const WEBHOOK_FAULTS = ["duplicate", "delay", "drop", "bad_result_hash"] as const
export const FAULT_KINDS = [...REQUEST_FAULTS, "duplicate", "delay", "drop", "bad_result_hash"] as const
export type FaultKind = (typeof FAULT_KINDS)[number]

export type Fault = { operation: FaultOperation; kind: FaultKind; times: number; ms: number }

const WEBHOOK_OPERATIONS = ["sale_webhook", "recurring_webhook"]
const RESULT_HASH_OPERATIONS = ["paySmart2D", "paySmart3D", "sale_webhook", "payment_complete", "payByCardTokenNonSecure"]

/** Why a fault request is refused, or null. */
export function faultProblem(input: Record<string, unknown>): string | null {
  const { operation, kind, times = 1, ms = 0 } = input
  if (!FAULT_OPERATIONS.includes(operation as FaultOperation)) return `operation must be one of ${FAULT_OPERATIONS.join(", ")}`
  if (!FAULT_KINDS.includes(kind as FaultKind)) return `kind must be one of ${FAULT_KINDS.join(", ")}`
  if (!Number.isInteger(times) || (times as number) < 1) return "times must be a positive integer"
  if (typeof ms !== "number" || ms < 0) return "ms must be a non-negative number"
  const isWebhook = WEBHOOK_OPERATIONS.includes(operation as string)
  if (kind === "bad_result_hash") {
    return RESULT_HASH_OPERATIONS.includes(operation as string) ? null : `bad_result_hash applies to ${RESULT_HASH_OPERATIONS.join(", ")}`
  }
  if ((kind === "duplicate" || kind === "delay" || kind === "drop") !== isWebhook) {
    return isWebhook ? `${operation} takes duplicate, delay, drop or bad_result_hash` : `${kind} applies to webhooks only`
  }
  return null
}

export class FaultBoard {
  private faults: Fault[] = []

  add(input: { operation: FaultOperation; kind: FaultKind; times?: number; ms?: number }): Fault {
    const fault = { operation: input.operation, kind: input.kind, times: input.times ?? 1, ms: input.ms ?? 0 }
    this.faults.push(fault)
    return fault
  }

  clear(): void {
    this.faults = []
  }

  list(): Fault[] {
    return this.faults.map((fault) => ({ ...fault }))
  }

  /** Consumes one use of the first armed fault of the operation whose kind is among `kinds`. */
  take(operation: string, kinds: readonly string[]): Fault | undefined {
    const fault = this.faults.find((f) => f.operation === operation && kinds.includes(f.kind))
    if (!fault) return undefined
    fault.times -= 1
    if (fault.times <= 0) this.faults = this.faults.filter((f) => f !== fault)
    return { ...fault }
  }
}
