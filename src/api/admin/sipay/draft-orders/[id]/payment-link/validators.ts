import { z } from "@medusajs/framework/zod"

/** One plain address (no line breaks, commas, semicolons, quotes or angle brackets); the order's e-mail when left out. */
export const CreateOrderPaymentLinkBody = z
  .object({
    email: z
      .string()
      .refine((value) => !/[\r\n\0,;<>"]/.test(value), { error: "email must be one plain e-mail address" })
      .transform((value) => value.trim().toLowerCase())
      .pipe(z.email({ error: "email is not an e-mail address" }))
      .optional(),
  })
  .strict()
