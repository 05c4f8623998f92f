import { LINK_CURRENCY_IDS } from "../sipay/payment-links"
import { expiryMoment, isCalendarDate } from "./expiry"
import { findPhotoProblem, ProductPhoto } from "./photo"

/** A new payment link as the admin asks for it (before it is sent to the gateway). */
export type NewPaymentLink = {
  amount: string
  currency_code: string
  is_amount_set_by_user: boolean
  name_of_product: string
  description: string
  expire_date: string
  expire_hour?: number | null
  max_number_of_uses?: number | null
}

const AMOUNT = /^\d+(\.\d{1,2})?$/

/**
 * Every rule of the interface (and of the sandbox, which enforces it) for dpl/create, checked
 * before anything is sent, with messages a store owner can act on. Empty when the link can be created.
 */
export function findPaymentLinkProblems(link: NewPaymentLink, photo: ProductPhoto | null, now: Date): string[] {
  const problems: string[] = []
  const amount = String(link.amount ?? "").trim()
  if (!AMOUNT.test(amount) || Number(amount) <= 0) {
    problems.push("Amount must be a positive number with at most 2 decimals (e.g. 250 or 250.50)")
  }
  if (!Object.prototype.hasOwnProperty.call(LINK_CURRENCY_IDS, String(link.currency_code).toUpperCase())) {
    problems.push("Currency must be TRY, USD or EUR")
  }
  if (!String(link.name_of_product ?? "").trim()) {
    problems.push("Product name is required")
  }
  if (!String(link.description ?? "").trim()) {
    problems.push("Description is required")
  }
  const hour = link.expire_hour
  const hourGiven = hour !== undefined && hour !== null
  if (hourGiven && (!Number.isInteger(hour) || hour < 0 || hour > 23)) {
    problems.push("Expiry hour must be a whole hour from 0 to 23")
  }
  if (!isCalendarDate(String(link.expire_date ?? ""))) {
    problems.push("Expiry date must be an existing date, YYYY-MM-DD")
  } else if (!hourGiven || (Number.isInteger(hour) && hour! >= 0 && hour! <= 23)) {
    if (expiryMoment(link.expire_date, hourGiven ? hour : null).getTime() <= now.getTime()) {
      problems.push("Expiry must be in the future (Istanbul time, the gateway's clock)")
    }
  }
  const uses = link.max_number_of_uses
  if (uses !== undefined && uses !== null && (!Number.isInteger(uses) || uses < 1)) {
    problems.push("Maximum number of uses must be a whole number of at least 1 (leave it empty for no limit)")
  }
  const photoProblem = findPhotoProblem(photo)
  if (photoProblem) {
    problems.push(photoProblem)
  }
  return problems
}
