import { z } from "@medusajs/framework/zod"

/** Shapes only (a multipart form sends text); the interface's rules are checked by the create workflow, in one place. */
const optionalInteger = (name: string) =>
  z
    .union([z.literal(""), z.coerce.number({ error: `${name} must be a whole number` }).int({ error: `${name} must be a whole number` })])
    .optional()
    .nullable()
    .transform((value) => (value === "" || value === null ? undefined : value))

export const CreatePaymentLinkBody = z
  .object({
    amount: z.union([z.string(), z.number()]).transform((value) => String(value).trim()),
    currency_code: z.string().trim().toUpperCase(),
    is_amount_set_by_user: z
      .union([z.boolean(), z.enum(["true", "false", "1", "0", "on"])])
      .optional()
      .transform((value) => value === true || value === "true" || value === "1" || value === "on"),
    name_of_product: z.string().trim(),
    description: z.string().trim(),
    expire_date: z.string().trim(),
    expire_hour: optionalInteger("expire_hour"),
    max_number_of_uses: optionalInteger("max_number_of_uses"),
  })
  .strict()
export type CreatePaymentLinkBody = z.infer<typeof CreatePaymentLinkBody>

export const ListPaymentLinksQuery = z.object({
  q: z.string().trim().max(200).optional(),
  status: z.enum(["ACTIVE", "EXPIRED", "USED"]).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  offset: z.coerce.number().int().min(0).default(0),
})
export type ListPaymentLinksQuery = z.infer<typeof ListPaymentLinksQuery>

export const GetPaymentLinkQuery = z.object({
  refresh: z.enum(["true", "false"]).optional().transform((value) => value === "true"),
})
export type GetPaymentLinkQuery = z.infer<typeof GetPaymentLinkQuery>

/** What may not appear in one e-mail address: a line break, comma, semicolon, quote or angle bracket could add a header or a recipient. */
export const EMAIL_HEADER_BREAKERS = /[\r\n\0,;<>"]/

export const SendPaymentLinkBody = z
  .object({
    emails: z
      .array(
        z
          .string()
          .refine((value) => !EMAIL_HEADER_BREAKERS.test(value), {
            error: (issue) => `${JSON.stringify(String(issue.input)).slice(0, 80)} must be one plain e-mail address: no line breaks, commas, semicolons, quotes or angle brackets`,
          })
          .transform((value) => value.trim().toLowerCase())
          .pipe(z.email({ error: (issue) => `"${String(issue.input)}" is not an e-mail address` })),
        { error: "emails must be a list of e-mail addresses" }
      )
      .min(1, { error: "Give at least one e-mail address" })
      .max(50, { error: "At most 50 addresses at a time" })
      .transform((emails) => [...new Set(emails)]),
  })
  .strict()
export type SendPaymentLinkBody = z.infer<typeof SendPaymentLinkBody>
