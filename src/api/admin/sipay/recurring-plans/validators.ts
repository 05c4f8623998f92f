import { z } from "@medusajs/framework/zod"

export const ListRecurringPlansQuery = z.object({
  order_id: z.string().max(100).optional(),
  customer_id: z.string().max(100).optional(),
  status: z.enum(["Active", "Stopped", "Completed"]).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).default(0),
})

/** One recurringPlan/update action: stop, a new amount of later charges, or a new number of payments. */
export const ChangeRecurringPlanBody = z.discriminatedUnion("action", [
  z.object({ action: z.literal("stop") }),
  z.object({ action: z.literal("change_amount"), amount: z.string().regex(/^\d{1,9}(\.\d{1,2})?$/, "amount must be a decimal with at most 2 decimals") }),
  z.object({ action: z.literal("change_payment_number"), payment_number: z.number().int().min(1).max(999) }),
])
