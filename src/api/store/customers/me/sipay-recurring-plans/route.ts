import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { planView } from "../../../../../lib/recurring-plans/facts"
import { sipayModuleOf } from "../../../../sipay-responses"

/** The signed-in customer's recurring plans (Medusa authenticates /store/customers/me*; a guest's plans have no customer). */
export const GET = async (req: AuthenticatedMedusaRequest, res: MedusaResponse) => {
  const customerId = req.auth_context.actor_id
  const records = await sipayModuleOf(req).listRecurringPlanRecords({ customer_id: customerId }, { order: { created_at: "DESC" }, take: 100 })
  res.json({ recurring_plans: records.map((record) => planView(record, "customer")) })
}
