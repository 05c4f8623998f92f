import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import reconcileSipayAttempts from "../../../../../jobs/sipay-reconcile-attempts"

/**
 * "Settle pending payments now": runs the reconciliation job in this instance (the schedule runs it on
 * the worker), asking about every pending attempt whatever its age or back-off. A run overlapping
 * another instance's is harmless: each attempt is settled under its lock.
 */
export const POST = async (req: AuthenticatedMedusaRequest, res: MedusaResponse) => {
  const report = await reconcileSipayAttempts(req.scope, { now: true })
  res.json({ reconciliation: report })
}
