import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { zodValidator } from "@medusajs/framework"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { salesTotals, type SalesAnswer } from "../../../../../lib/sales-report"
import { LedgerStore } from "../../../../../modules/sipay/ledger/store"
import { toMedusaError } from "../../../../../providers/sipay/core/sipay-base"
import { sipayModuleOf } from "../../../../sipay-responses"
import { ledgerDayInfo } from "../filters"
import { withSaleLinks } from "../sale-links"
import { GatewayLookupBody } from "../validators"

/**
 * "Look up now": the day's sales as getTransactions answers them at this moment (one day, whole,
 * filtered by the gateway), beside the ledger's state of the day. A POST: it calls the gateway, so
 * it is behind the admin routes' cross-site check.
 */
export const POST = async (req: AuthenticatedMedusaRequest, res: MedusaResponse<SalesAnswer>) => {
  const body = await zodValidator(GatewayLookupBody, req.body ?? {})
  const store = new LedgerStore(req.scope.resolve(ContainerRegistrationKeys.PG_CONNECTION))
  const [ledger, sales] = await Promise.all([
    ledgerDayInfo(store, body.date),
    sipayModuleOf(req)
      .getClient()
      .getTransactions({
        date: body.date,
        invoiceId: body.invoice_id,
        currencyId: body.currency_id,
        paymentMethodId: body.payment_method_id,
        minAmount: body.min_amount,
        maxAmount: body.max_amount,
        transactionState: body.transaction_state,
      })
      .catch((error: unknown) => {
        throw toMedusaError(error, "getTransactions")
      }),
  ])
  res.json({
    date: body.date,
    source: "gateway",
    count: sales.length,
    limit: sales.length,
    offset: 0,
    order: "-created_at",
    sales: await withSaleLinks(req.scope, sales),
    totals: salesTotals(sales),
    ledger,
  })
}
