import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { zodValidator } from "@medusajs/framework"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import type { SalesAnswer } from "../../../../lib/sales-report"
import { LedgerStore } from "../../../../modules/sipay/ledger/store"
import { ledgerDayInfo, ledgerFiltersOf, ledgerSortOf } from "./filters"
import { withSaleLinks } from "./sale-links"
import { SalesQuery } from "./validators"

/**
 * The merchant's sales of one day from the ledger, with the Medusa order and payment link of each:
 * filtered, sorted, paged and summed by the database, with when the day was last synced. Reads only;
 * asking the gateway now is `POST /admin/sipay/transactions/lookup` (a GET never makes a gateway call).
 */
export const GET = async (req: AuthenticatedMedusaRequest, res: MedusaResponse<SalesAnswer>) => {
  const query = await zodValidator(SalesQuery, req.query)
  const store = new LedgerStore(req.scope.resolve(ContainerRegistrationKeys.PG_CONNECTION))
  const [ledger, view] = await Promise.all([
    ledgerDayInfo(store, query.date),
    store.view(ledgerFiltersOf(query), { ...ledgerSortOf(query), limit: query.limit, offset: query.offset }),
  ])
  res.json({
    date: query.date,
    source: "ledger",
    count: view.count,
    limit: query.limit,
    offset: query.offset,
    order: query.order,
    sales: await withSaleLinks(req.scope, view.records),
    totals: view.totals,
    ledger,
  })
}
