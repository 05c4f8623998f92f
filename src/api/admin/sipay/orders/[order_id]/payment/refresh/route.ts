import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { orderPaymentGatewayView } from "../gateway-view"

/** Asks the gateway again (checkstatus, getTransactions for the sale's day); its errors answer 400 with the gateway's code. */
export const POST = async (req: AuthenticatedMedusaRequest, res: MedusaResponse) => {
  res.json({ payment: await orderPaymentGatewayView(req.scope, req.params.order_id, { fresh: true }) })
}
