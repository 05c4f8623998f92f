import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { zodValidator } from "@medusajs/framework"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { once } from "node:events"
import { salesCsvHeader, salesCsvLines } from "../../../../../lib/sales-report"
import { LedgerStore } from "../../../../../modules/sipay/ledger/store"
import { ledgerFiltersOf } from "../filters"
import { withSaleLinks } from "../sale-links"
import { SalesExportQuery } from "../validators"

/**
 * Every sale of the ledger's day matching the filters, as CSV, streamed: read from the database in
 * batches by key and written as each batch is ready (flat memory, whatever the day's size).
 */
export const GET = async (req: AuthenticatedMedusaRequest, res: MedusaResponse) => {
  const query = await zodValidator(SalesExportQuery, req.query)
  const store = new LedgerStore(req.scope.resolve(ContainerRegistrationKeys.PG_CONNECTION))
  res.status(200)
  res.setHeader("content-type", "text/csv; charset=utf-8")
  res.setHeader("content-disposition", `attachment; filename="sipay-sales-${query.date}.csv"`)
  res.setHeader("cache-control", "no-store")
  const write = async (text: string) => {
    if (!res.write(text)) await once(res, "drain")
  }
  await write(`\uFEFF${salesCsvHeader()}`)
  for await (const records of store.batches(ledgerFiltersOf(query))) {
    if (res.destroyed) return
    await write(salesCsvLines(await withSaleLinks(req.scope, records)))
  }
  res.end()
}
