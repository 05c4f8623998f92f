/** What the gateway says became of one attempt, in this plugin's words. */
export type GatewayOutcome = "captured" | "authorized" | "pending" | "failed" | "cancelled" | "not_found"

export type TransactionView = {
  found: boolean
  status: string
  transactionType: string | null
  reason?: string | null
}

export const PRE_AUTHORIZATION = "Pre-Authorization"

/** checkstatus -> outcome: Completed + Auth is captured, Completed + Pre-Authorization is authorized. */
export function classifyTransaction(view: TransactionView): GatewayOutcome {
  if (!view.found) {
    return "not_found"
  }
  const isPreAuthorization = view.transactionType === PRE_AUTHORIZATION
  switch (view.status) {
    case "Completed":
      return isPreAuthorization ? "authorized" : "captured"
    case "Pending":
      return "pending"
    case "Failed":
      return isPreAuthorization && /cancel|expire/i.test(String(view.reason ?? "")) ? "cancelled" : "failed"
    default:
      return "failed"
  }
}
