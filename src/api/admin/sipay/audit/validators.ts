import { z } from "@medusajs/framework/zod"
import { auditDayProblem } from "../../../../lib/audit/day"
import { AUDIT_LANGUAGES } from "../../../../lib/audit/words"

/** GET /admin/sipay/audit and its CSV export: one gateway day (YYYY-MM-DD, Istanbul, not after today); the CSV's words in `lang`. */
export const AuditQuery = z
  .object({
    date: z.string({ error: "date is required (YYYY-MM-DD)" }).superRefine((date, context) => {
      const problem = auditDayProblem(date)
      if (problem) context.addIssue({ code: "custom", message: `date: ${problem}` })
    }),
    lang: z.enum(AUDIT_LANGUAGES, { error: `lang must be ${AUDIT_LANGUAGES.join(" or ")}` }).default("en"),
  })
  .strict()
export type AuditQuery = z.infer<typeof AuditQuery>
