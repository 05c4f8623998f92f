import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { zodValidator } from "@medusajs/framework"
import { auditCsv } from "../../../../../lib/audit/text"
import { auditGatewayDay } from "../../../../../workflows/audit/audit-day"
import { AuditQuery } from "../validators"

/** The day's audit as CSV: every sale, one row per finding (a sale that agrees: one row), what to do in `lang`. */
export const GET = async (req: AuthenticatedMedusaRequest, res: MedusaResponse) => {
  const query = await zodValidator(AuditQuery, req.query)
  const report = await auditGatewayDay(req.scope, query.date)
  res.status(200)
  res.setHeader("content-type", "text/csv; charset=utf-8")
  res.setHeader("content-disposition", `attachment; filename="sipay-audit-${query.date}.csv"`)
  res.setHeader("cache-control", "no-store")
  res.send(auditCsv(report, query.lang))
}
