import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { orderPaymentGatewayView } from "./gateway-view"

/** The gateway's view of the order's Sipay payment (the gateway's answer may be a few minutes old: see checked_at). */
export const GET = async (req: AuthenticatedMedusaRequest, res: MedusaResponse) => {
  res.json({ payment: await orderPaymentGatewayView(req.scope, req.params.order_id, { fresh: false }) })
}
