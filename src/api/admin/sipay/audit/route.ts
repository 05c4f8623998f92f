import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { zodValidator } from "@medusajs/framework"
import type { AuditReport } from "../../../../lib/audit/types"
import { auditGatewayDay } from "../../../../workflows/audit/audit-day"
import { AuditQuery } from "./validators"

/**
 * The merchant's audit of one gateway day (the admin's Sales, Audit): every sale of the ledger's day
 * beside Medusa's records, the differences and what to do. Reads only; the day is pulled from the
 * gateway into the ledger when the ledger never had it.
 */
export const GET = async (req: AuthenticatedMedusaRequest, res: MedusaResponse<{ audit: AuditReport }>) => {
  const query = await zodValidator(AuditQuery, req.query)
  res.setHeader("cache-control", "no-store")
  res.json({ audit: await auditGatewayDay(req.scope, query.date) })
}
