import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import { recordRecurringChargeWorkflow } from "../../../../workflows/record-recurring-charge"
import { RecurringWebhookBody } from "../../../validators"

export const AUTHENTICATE = false

/** The gateway's recurring webhook (form-encoded or JSON, no hash): a trigger to record the charge as recurringPlan/query reports it. */
export const POST = async (req: MedusaRequest, res: MedusaResponse) => {
  const parsed = RecurringWebhookBody.safeParse(req.body)
  if (!parsed.success) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, `Recurring webhook refused: ${parsed.error.issues.map((i) => i.path.join(".")).join(", ")} missing or invalid`)
  }
  const { result } = await recordRecurringChargeWorkflow(req.scope).run({ input: parsed.data })
  res.status(200).json({ recorded: result.created, id: result.charge.id })
}
