import type { Translate } from "./i18n"

/**
 * The gateway's words (sale states, checkstatus statuses and reasons, transaction types, bank results,
 * plan statuses) by their letters alone, so "Partially Refunded", "PreAuth" and "Pre-Authorization"
 * each find their entry; each is shown as t("values.words.<entry>").
 */
const WORDS: Record<string, string> = {
  completed: "completed",
  failed: "failed",
  pending: "pending",
  refunded: "refunded",
  partiallyrefunded: "partiallyRefunded",
  preauthorized: "preAuthorized",
  cancelled: "cancelled",
  canceled: "cancelled",
  chargebacked: "chargebacked",
  notfound: "notFound",
  approved: "approved",
  success: "success",
  active: "active",
  stopped: "stopped",
  auth: "auth",
  preauth: "preAuthorization",
  preauthorization: "preAuthorization",
}

/** A gateway word in the user's language, or null when the plugin does not know it. */
export function gatewayWord(value: unknown, t: Translate): string | null {
  if (typeof value !== "string") return null
  const entry = WORDS[value.toLowerCase().replace(/[^a-z]/g, "")]
  return entry ? t(`values.words.${entry}`) : null
}

/** A gateway value in words: translated when known, else as the gateway wrote it (a bank's own message). */
export function gatewayText(value: string | null | undefined, t: Translate): string {
  if (value === null || value === undefined || value === "") return "-"
  return gatewayWord(value, t) ?? value
}

/** A sale's state by the gateway's label; a state the plugin does not know is named by its id. */
export function saleStateText(sale: { transaction_state_id: number; transaction_state_label: string }, t: Translate): string {
  return gatewayWord(sale.transaction_state_label, t) ?? t("sales.stateOther", { id: sale.transaction_state_id })
}

/** payment_type_id 1 is the interface's one type ('MP Credit Card'). */
export function paymentTypeText(id: unknown, t: Translate): string {
  return Number(id) === 1 ? t("sales.creditCard") : t("sales.paymentTypeOther", { id })
}

/** "Single payment", "3 installments". */
export function installmentsText(count: number | string | null | undefined, t: Translate): string {
  const value = Number(count)
  if (count === null || count === undefined || count === "" || !Number.isInteger(value) || value < 1) return "-"
  return value === 1 ? t("values.singlePayment") : t("values.installments", { count: value })
}

export function switchText(value: unknown, t: Translate): string {
  return value ? t("values.on") : t("values.off")
}
