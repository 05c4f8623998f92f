import { z } from "@medusajs/framework/zod"
import { EMAIL_HEADER_BREAKERS } from "../../../payment-links/validators"

/** One plain address (no line breaks, commas, semicolons, quotes or angle brackets); the order's e-mail when left out. */
export const CreateOrderPaymentLinkBody = z
  .object({
    email: z
      .string()
      .refine((value) => !EMAIL_HEADER_BREAKERS.test(value), { error: "email must be one plain e-mail address" })
      .transform((value) => value.trim().toLowerCase())
      .pipe(z.email({ error: "email is not an e-mail address" }))
      .optional(),
  })
  .strict()
