import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import { planView } from "../../../../../lib/recurring-plans/facts"
import { changeRecurringPlanWorkflow, refreshRecurringPlanWorkflow } from "../../../../../workflows/recurring-plans"
import { ChangeRecurringPlanBody } from "../validators"

/** The plan, refreshed from recurringPlan/query, with the gateway's charges and their attempts. */
export const GET = async (req: AuthenticatedMedusaRequest, res: MedusaResponse) => {
  const { result } = await refreshRecurringPlanWorkflow(req.scope).run({ input: { id: req.params.id } })
  res.json({ recurring_plan: planView(result.plan), charges: result.gateway.charges })
}

/** Stop the plan, change the amount of later charges or the number of payments (recurringPlan/update). */
export const POST = async (req: AuthenticatedMedusaRequest, res: MedusaResponse) => {
  const parsed = ChangeRecurringPlanBody.safeParse(req.body)
  if (!parsed.success) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; "))
  }
  const { result } = await changeRecurringPlanWorkflow(req.scope).run({
    input: { id: req.params.id, change: parsed.data, actor_id: req.auth_context?.actor_id ?? null },
  })
  res.json({ recurring_plan: planView(result.refreshed.plan), charges: result.refreshed.gateway.charges })
}
