import { PaymentSessionStatus } from "@medusajs/framework/utils"
import type { GatewayOutcome } from "../../../lib/sipay/outcome"

const SESSION_STATUS: Record<GatewayOutcome, PaymentSessionStatus> = {
  captured: PaymentSessionStatus.CAPTURED,
  authorized: PaymentSessionStatus.AUTHORIZED,
  pending: PaymentSessionStatus.PENDING,
  failed: PaymentSessionStatus.ERROR,
  cancelled: PaymentSessionStatus.CANCELED,
  not_found: PaymentSessionStatus.PENDING,
}

/** The gateway's outcome (lib/sipay/outcome.ts) as Medusa's payment session status. */
export function toSessionStatus(outcome: GatewayOutcome): PaymentSessionStatus {
  return SESSION_STATUS[outcome]
}
