import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { cardBin, checkCard, type CardToCheck } from "../lib/checkout/card-check"
import { declineClassOf, shopperMessage } from "../lib/shopper-messages"
import { clientOf } from "./client-address"
import { admitForRoute, attemptEndedUnpaid, limiterOf, requestLocale, sendRateLimited } from "./rate-limits"

/** What the direct payment route reports back to its guard. */
export type DirectPaymentGuard = {
  /** The client's address, canonical: the `ip` sent to the gateway. */
  ip: string | undefined
  /**
   * The payment did not end paid: a decline the gateway decided (its status code) counts as the
   * client's attempt ended unpaid and spends the decline budgets of the payment's BIN, address prefix
   * and cart (and, capped per prefix, the store's). No gateway answer, or a refusal that is the store's
   * and not the card's (try later), counts nothing.
   */
  declined(gatewayStatusCode: number | string | null | undefined): Promise<void>
}

/**
 * Everything a direct payment passes before it reaches the gateway, refused at once with no gateway
 * call: a card that cannot be one (400 with the problem's code: number, expiry); a spent decline
 * budget of its BIN, address prefix, cart, or the store-wide one (429 decline_budget); the attempt's
 * limits (429, as for every attempt). `sessionId` and `cartId` are counted when given (the caller
 * holds them). Answers the refusal itself and returns null; else the guard the route reports to (and
 * the route reports the attempt it started with attemptStarted).
 */
export async function guardDirectPayment(
  req: MedusaRequest,
  res: MedusaResponse,
  input: { sessionId: string | null; cartId: string | null; card: CardToCheck }
): Promise<DirectPaymentGuard | null> {
  const problem = checkCard(input.card)
  if (problem) {
    res.status(400).json({ type: "invalid_data", code: problem, message: shopperMessage(problem, requestLocale(req)) })
    return null
  }
  const client = clientOf(req, input.sessionId ?? "")
  const address = client?.perAddress ? client.ip : null
  const signals = { bin: cardBin(input.card.number), address, cartId: input.cartId }
  const limiter = limiterOf(req)
  const refusal =
    (await limiter.checkDeclineBudgets(signals)) ??
    (await admitForRoute(req, res, { sessionId: input.sessionId, cartId: input.cartId, cardNumber: input.card.number, address }))
  if (refusal) {
    sendRateLimited(req, res, refusal)
    return null
  }
  return {
    ip: client?.ip,
    declined: async (gatewayStatusCode) => {
      // No answer, or the gateway took the card (a payment given back, a settle that failed after it): no decline.
      if (gatewayStatusCode === null || gatewayStatusCode === undefined || gatewayStatusCode === "" || Number(gatewayStatusCode) === 100) return
      const decline = declineClassOf(gatewayStatusCode)
      if (decline === "try_later") return
      await attemptEndedUnpaid(req)
      await limiter.recordDecline({ ...signals, invalid: decline === "card_not_valid" })
    },
  }
}
