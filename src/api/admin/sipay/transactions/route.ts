import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { zodValidator } from "@medusajs/framework"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { salesTotals, type SalesAnswer } from "../../../../lib/sales-report"
import { LedgerStore } from "../../../../modules/sipay/ledger/store"
import { toMedusaError } from "../../../../providers/sipay/core/sipay-base"
import { sipayModuleOf } from "../../../sipay-responses"
import { ledgerFiltersOf, ledgerSortOf } from "./filters"
import { withSaleLinks } from "./sale-links"
import { SalesQuery } from "./validators"

/**
 * The merchant's sales of one day, with the Medusa order and payment link of each: from the ledger
 * (default: filtered, sorted, paged and summed by the database, with when the day was last synced),
 * or `source=gateway` to ask getTransactions now for that one day.
 */
export const GET = async (req: AuthenticatedMedusaRequest, res: MedusaResponse<SalesAnswer>) => {
  const query = await zodValidator(SalesQuery, req.query)
  const store = new LedgerStore(req.scope.resolve(ContainerRegistrationKeys.PG_CONNECTION))
  const day = (await store.days([query.date])).get(query.date) ?? null
  const ledger = day && { last_synced_at: day.last_synced_at, sale_count: day.sale_count, last_error: day.last_error, last_duration_ms: day.last_duration_ms }
  const page = { limit: query.limit, offset: query.offset, order: query.order }

  if (query.source === "gateway") {
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
    res.json({ date: query.date, source: "gateway", count: sales.length, ...page, sales: await withSaleLinks(req.scope, sales), totals: salesTotals(sales), ledger })
    return
  }

  const filters = ledgerFiltersOf(query)
  const view = await store.view(filters, { ...ledgerSortOf(query), limit: query.limit, offset: query.offset })
  res.json({ date: query.date, source: "ledger", count: view.count, ...page, sales: await withSaleLinks(req.scope, view.records), totals: view.totals, ledger })
}
