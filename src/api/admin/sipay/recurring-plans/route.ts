import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import { planView } from "../../../../lib/recurring-plans/facts"
import { sipayModuleOf } from "../../../sipay-responses"
import { ListRecurringPlansQuery } from "./validators"

/** The store's recurring plans, from the plugin's records (the gateway has no list operation), newest first. */
export const GET = async (req: AuthenticatedMedusaRequest, res: MedusaResponse) => {
  const parsed = ListRecurringPlansQuery.safeParse(req.query)
  if (!parsed.success) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; "))
  }
  const { limit, offset, ...filters } = parsed.data
  const where = Object.fromEntries(Object.entries(filters).filter(([, value]) => value !== undefined))
  const [records, count] = await sipayModuleOf(req).listAndCountRecurringPlanRecords(where, { take: limit, skip: offset, order: { created_at: "DESC" } })
  res.json({ recurring_plans: records.map((record) => planView(record)), count, limit, offset })
}
