import { configurationCauseOf } from "../sipay/configuration-refusal"
import { declineClassOf } from "./decline-class"
import type { ShopperMessageCode } from "./texts"

/**
 * What a payment that did not end in an order tells the shopper (the 3D return, a direct payment's
 * 402): its settled status, and for a failed payment the class of the gateway's status code (with
 * none, the gateway decided nothing: try later). A payment
 * not yet settled whose gateway answer was already a refusal (a card with no POS: no sale to ask
 * about) is told as that refusal.
 */
export function paymentOutcomeCode(status: string, gatewayStatusCode?: number | string | null, gatewayDescription?: string | null): ShopperMessageCode {
  // The store's configuration, not the card (the merchant is alerted): the shopper reads a neutral text.
  if (status !== "reversed" && status !== "order_failed" && configurationCauseOf(gatewayStatusCode, gatewayDescription)) return "payments_unavailable"
  const refused = gatewayStatusCode !== null && gatewayStatusCode !== undefined && String(gatewayStatusCode).trim() !== "" && Number(gatewayStatusCode) !== 100
  switch (status) {
    case "pending":
      return refused ? declineClassOf(gatewayStatusCode) : "payment_pending"
    case "reversed":
      return "payment_reversed"
    case "order_failed":
      return "order_failed"
    default:
      // No decision of the gateway (its error, no answer): the store's side, try later.
      return refused ? declineClassOf(gatewayStatusCode) : "try_later"
  }
}
