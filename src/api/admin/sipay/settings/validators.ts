import { z } from "@medusajs/framework/zod"
import { storefrontUrlProblem } from "../../../../lib/settings"
import { installmentFeeRulesProblem, type InstallmentFeeRules } from "../../../../lib/checkout/installment-fees"

const URL_OR_PATH = /^(https?:\/\/[^\s]+|\/[^\s]*)$/

const flag = (name: string) => z.boolean({ error: `${name} must be true or false (or null for the plugin option)` }).nullable().optional()
const text = (name: string, max: number) => z.string().trim().max(max, { error: `${name} must be at most ${max} characters` }).nullable().optional()

/** Control characters (C0, DEL, C1) and the Unicode line and paragraph separators: a key holding one could split a header or a log line. */
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/
/** A webhook key as the merchant panel shows it: checked before trimming, so a pasted line break is refused, not silently cut. */
const webhookKey = (name: string) =>
  z
    .string()
    .refine((value) => !CONTROL_CHARACTERS.test(value), { error: `${name} must not contain control characters or line breaks` })
    .trim()
    .max(100, { error: `${name} must be at most 100 characters` })
    .nullable()
    .optional()

/**
 * A change of the store owner's settings: each field optional; null goes back to the plugin option;
 * "" clears an optional text. URLs are parsed (no user@host); success and failure URLs must stay on
 * the storefront's origin, checked on the settings they produce together (findSettingsProblems).
 */
export const UpdateSettingsBody = z
  .object({
    capture: flag("capture"),
    three_d_enabled: flag("three_d_enabled"),
    direct_payment_enabled: flag("direct_payment_enabled"),
    agricultural_installments: flag("agricultural_installments"),
    sale_webhook_key: webhookKey("sale_webhook_key"),
    recurring_webhook_key: webhookKey("recurring_webhook_key"),
    max_installments: z
      .number({ error: "max_installments must be a whole number from 1 to 12" })
      .int({ error: "max_installments must be a whole number from 1 to 12" })
      .min(1, { error: "max_installments must be a whole number from 1 to 12" })
      .max(12, { error: "max_installments must be a whole number from 1 to 12" })
      .nullable()
      .optional(),
    storefront_url: text("storefront_url", 2000).superRefine((value, ctx) => {
      const problem = value ? storefrontUrlProblem(value) : null
      if (problem) ctx.addIssue({ code: "custom", message: `storefront_url ${problem}` })
    }),
    success_url: text("success_url", 2000).refine((value) => !value || URL_OR_PATH.test(value), {
      error: "success_url must be an http(s) URL or a path under the storefront starting with / (with {cart_id}, {order_id})",
    }),
    failure_url: text("failure_url", 2000).refine((value) => !value || URL_OR_PATH.test(value), {
      error: "failure_url must be an http(s) URL or a path under the storefront starting with / (with {cart_id}, {error})",
    }),
    description_template: z
      .string()
      .trim()
      .min(1, { error: "description_template must not be empty (null goes back to the plugin option)" })
      .max(255, { error: "description_template must be at most 255 characters" })
      .nullable()
      .optional(),
    installment_fees: z
      .record(z.string(), z.unknown())
      .nullable()
      .optional()
      .superRefine((value, ctx) => {
        const problem = installmentFeeRulesProblem(value)
        if (problem) ctx.addIssue({ code: "custom", message: problem })
      })
      .transform((value) => value as InstallmentFeeRules | null | undefined),
    installment_fee_tax: z.enum(["inclusive", "exclusive"], { error: "installment_fee_tax must be inclusive or exclusive" }).nullable().optional(),
  })
  .strict()
export type UpdateSettingsBody = z.infer<typeof UpdateSettingsBody>

/** The settings page's fee preview: a sample amount and the rules being edited (null: the saved ones). */
export const InstallmentFeePreviewBody = z
  .object({
    amount: z.string().regex(/^\d{1,9}(\.\d{1,2})?$/, { error: "amount must be a decimal amount such as 325.40" }),
    currency_code: z.enum(["TRY", "USD", "EUR"]).optional(),
    installment_fees: UpdateSettingsBody.shape.installment_fees,
  })
  .strict()
export type InstallmentFeePreviewBody = z.infer<typeof InstallmentFeePreviewBody>
