import type { MedusaRequest } from "@medusajs/framework/http"
import { paymentOutcomeCode, shopperMessage, type ShopperLocale, type ShopperMessageCode } from "../lib/shopper-messages"
import { settlePaymentAttemptWorkflow } from "../workflows/settle-payment-attempt"
import type { SettleResult } from "../workflows/steps/settle-payment-attempt"
import { limiterOf } from "./rate-limits"
import { shopperCartOf } from "./shopper-cart"
import { sipayModuleOf } from "./sipay-responses"

/**
 * What a shopper who comes back reads about their payment (README "Recovery"): paid (the order),
 * confirming (the gateway has or may have the money, the order is on its way), failed, or none (no
 * payment made yet: the form is there to pay).
 */
export type PaymentStatus = {
  status: "paid" | "confirming" | "failed" | "none"
  order_id: string | null
  code: ShopperMessageCode | null
  message: string | null
}

/** How long the route waits for a settle before it answers "confirming" (the settle goes on; the next look finds its outcome). */
const SETTLE_WAIT_MS = 8000

type AttemptRow = { invoice_id: string; flow: string; status: string; order_id: string | null; error_code: string | null; created_at: Date | string }

/**
 * The status of the payment of `sessionId` (whose cart `cartId` the caller proved it holds). An open
 * attempt is settled on the spot from the gateway (the settle workflow: one checkstatus), at most once
 * per attempt per 10 s across the cluster (the plugin's limiter); between two checks the record answers.
 */
export async function paymentStatusOf(req: MedusaRequest, sessionId: string, cartId: string, locale: ShopperLocale): Promise<PaymentStatus> {
  const sipay = sipayModuleOf(req)
  const [attempts, cart] = await Promise.all([
    sipay.listPaymentAttempts({ session_id: sessionId }, { order: { created_at: "DESC" } }) as Promise<AttemptRow[]>,
    shopperCartOf(req, cartId, { withOrder: true }),
  ])
  const paid = attempts.find((attempt) => (attempt.status === "paid" || attempt.status === "authorized") && attempt.order_id)
  if (paid || cart.order_id) {
    return { status: "paid", order_id: paid?.order_id ?? cart.order_id, code: null, message: null }
  }
  const open = attempts.find((attempt) => attempt.status === "pending")
  if (!open) {
    const latest = attempts[0]
    return latest ? ended(latest.status === "reversed" ? "reversed" : latest.status === "cancelled" ? "cancelled" : "failed", latest.error_code, locale) : none()
  }
  if (!(await limiterOf(req).admitGatewayCheck(open.invoice_id))) {
    // Asked about less than 10 s ago: the shopper is told it is being confirmed, never to pay again.
    return confirming(locale)
  }
  const settled = await settleWithin(req, open.invoice_id)
  if (!settled) {
    return confirming(locale)
  }
  switch (settled.status) {
    case "paid":
    case "authorized":
      return settled.order_id ? { status: "paid", order_id: settled.order_id, code: null, message: null } : confirming(locale)
    case "order_failed":
      return confirming(locale)
    case "pending":
      // A 3D attempt the gateway has not completed (a form not posted, a bank page left) took no money: the
      // shopper may pay. A direct one whose answer is still out (or was lost) may have: never "pay again".
      return open.flow === "3d" ? none() : confirming(locale)
    default: {
      // The gateway's code as the settle recorded it (the row read above is from before it).
      const [after] = (await sipay.listPaymentAttempts({ invoice_id: open.invoice_id })) as AttemptRow[]
      return ended(settled.status === "reversed" ? "reversed" : "failed", after?.error_code ?? open.error_code, locale)
    }
  }
}

/** The settle's result, or null when it takes longer than SETTLE_WAIT_MS or cannot ask the gateway now (it is left to go on, or to reconciliation). */
async function settleWithin(req: MedusaRequest, invoiceId: string): Promise<SettleResult | null> {
  const logger = req.scope.resolve("logger")
  const settle = settlePaymentAttemptWorkflow(req.scope)
    .run({ input: { invoice_id: invoiceId, reconcile: true } })
    .then(({ result }) => result)
    .catch((error: Error) => {
      logger.warn(`Sipay status check of ${invoiceId} not settled yet: ${error.message}`)
      return null
    })
  let timer: NodeJS.Timeout | undefined
  const waited = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), SETTLE_WAIT_MS)
  })
  try {
    return await Promise.race([settle, waited])
  } finally {
    clearTimeout(timer)
  }
}

function none(): PaymentStatus {
  return { status: "none", order_id: null, code: null, message: null }
}

function confirming(locale: ShopperLocale): PaymentStatus {
  return { status: "confirming", order_id: null, code: "payment_confirming", message: shopperMessage("payment_confirming", locale) }
}

function ended(status: "failed" | "reversed" | "cancelled", gatewayCode: string | null, locale: ShopperLocale): PaymentStatus {
  const code: ShopperMessageCode = status === "cancelled" ? "payment_cancelled" : paymentOutcomeCode(status, gatewayCode)
  return { status: "failed", order_id: null, code, message: shopperMessage(code, locale) }
}
