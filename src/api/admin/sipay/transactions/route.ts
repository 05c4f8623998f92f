import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { zodValidator } from "@medusajs/framework"
import type { SalesAnswer } from "../../../../lib/sales-report"
import { toMedusaError } from "../../../../providers/sipay/core/sipay-base"
import { sipayModuleOf } from "../../../sipay-responses"
import { withSaleLinks } from "./sale-links"
import { SalesQuery } from "./validators"

/** The merchant's sales of one day at the gateway (getTransactions), with the Medusa order and payment link of each. */
export const GET = async (req: AuthenticatedMedusaRequest, res: MedusaResponse<SalesAnswer>) => {
  const query = await zodValidator(SalesQuery, req.query)
  const sales = await sipayModuleOf(req)
    .getClient()
    .getTransactions({
      date: query.date,
      invoiceId: query.invoice_id,
      currencyId: query.currency_id,
      paymentMethodId: query.payment_method_id,
      minAmount: query.min_amount,
      maxAmount: query.max_amount,
      transactionState: query.transaction_state,
    })
    .catch((error: unknown) => {
      throw toMedusaError(error, "getTransactions")
    })
  res.json({ date: query.date, count: sales.length, sales: await withSaleLinks(req.scope, sales) })
}
