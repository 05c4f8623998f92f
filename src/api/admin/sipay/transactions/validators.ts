import { z } from "@medusajs/framework/zod"

const empty = (value: unknown) => (value === "" || value === null ? undefined : value)
const integer = (name: string) => z.preprocess(empty, z.string().regex(/^\d+$/, { error: `${name} must be a whole number` }).transform(Number).optional())
const amount = (name: string) =>
  z.preprocess(empty, z.string().regex(/^\d+(\.\d{1,2})?$/, { error: `${name} must be a non-negative amount with at most 2 decimals` }).optional())

/** An existing calendar day, YYYY-MM-DD. */
function isCalendarDay(text: string): boolean {
  const day = new Date(`${text}T00:00:00Z`)
  return !Number.isNaN(day.getTime()) && day.toISOString().slice(0, 10) === text
}

/** The contracts' query names of GET /admin/sipay/transactions; mapped to the interface's filters by salesQueryOf. */
export const SalesQuery = z
  .object({
    date: z
      .string({ error: "date is required (YYYY-MM-DD)" })
      .regex(/^\d{4}-\d{2}-\d{2}$/, { error: "date must be YYYY-MM-DD" })
      .refine(isCalendarDay, { error: "date must be an existing calendar day" }),
    invoice_id: z.preprocess(empty, z.string().trim().max(100).optional()),
    currency_id: integer("currency_id"),
    payment_method_id: integer("payment_method_id"),
    min_amount: amount("min_amount"),
    max_amount: amount("max_amount"),
    transaction_state: integer("transaction_state"),
  })
  .strict()
export type SalesQuery = z.infer<typeof SalesQuery>
