import { z } from "@medusajs/framework/zod"

const installmentChoice = {
  installments_number: z.coerce.number().int().min(1).max(12).default(1),
  maturity_period: z.coerce.number().int().positive().optional(),
  payment_frequency: z.coerce.number().int().positive().optional(),
}

/** The card's first 6 digits, for a count whose fee is the gateway's rate for the card (never the whole number). */
const bin = z.string().regex(/^\d{6}$/, { error: "bin must be the first 6 digits of the card" }).optional()

const cartId = z.string().regex(/^cart_[A-Za-z0-9]{1,60}$/, { error: "cart_id must be the id of the cart the session pays" })

/**
 * The non-card choices of an attempt; amount, items and capture mode are never taken from the
 * storefront. `cart_id` is required by the store route (3d-form): the caller proves it holds the cart.
 */
export const AttemptChoiceBody = z.object({ ...installmentChoice, bin, locale: z.enum(["tr", "en"]).optional(), cart_id: cartId.optional() }).strict()
export type AttemptChoiceBody = z.infer<typeof AttemptChoiceBody>

/**
 * The hosted page's sign route: the shopper's choice and the page's token (in the body: never in an
 * address). The token is checked by the route: without a valid one, the answer of an unknown session.
 */
export const HostedPageSignBody = z.object({ ...installmentChoice, bin, locale: z.enum(["tr", "en"]).optional(), token: z.string().max(200).optional() }).strict()
export type HostedPageSignBody = z.infer<typeof HostedPageSignBody>

/** The store route that hands out the hosted page's signed address: only to the holder of the session's cart. */
export const HostedPageBody = z.object({ cart_id: cartId, lang: z.enum(["tr", "en"]).optional() }).strict()
export type HostedPageBody = z.infer<typeof HostedPageBody>

/** The payment status route: only the holder of the session's cart asks (`cart_id`, as pay-2d takes it). */
export const PaymentStatusBody = z.object({ cart_id: cartId, locale: z.enum(["tr", "en"]).optional() }).strict()
export type PaymentStatusBody = z.infer<typeof PaymentStatusBody>

/**
 * A direct payment: the holder's proof (`cart_id`, the cart the session pays) and the card, sent once
 * to the gateway, never stored or echoed. Read by direct-payment/read-body.ts, which answers its own
 * fixed messages (never these schema's, never Medusa's validator: both can carry the input).
 */
export const DirectPaymentBody = z
  .object({
    ...installmentChoice,
    cart_id: cartId,
    card: z
      .object({
        holder_name: z.string().trim().min(1).max(100),
        number: z.string().regex(/^[0-9 ]{12,23}$/, { error: "card number must be 12 to 19 digits" }),
        expiry_month: z.string().regex(/^(0?[1-9]|1[0-2])$/, { error: "expiry month must be 1 to 12" }),
        expiry_year: z.string().regex(/^(\d{2}|\d{4})$/, { error: "expiry year must have 2 or 4 digits" }),
        cvv: z.string().regex(/^\d{3,4}$/, { error: "CVV must be 3 or 4 digits" }),
      })
      .strict(),
    /** The signed-in shopper's explicit opt-in to store the card once it paid: the version of the consent text they accepted. */
    save_card: z.object({ consent_version: z.string().min(1).max(40) }).strict().optional(),
  })
  .strict()
export type DirectPaymentBody = z.infer<typeof DirectPaymentBody>

/**
 * A payment with a saved card: the holder's proof (`cart_id`) and the card's id from the customer's
 * list (a handle, never a token). The signed-in customer must own the cart and the card.
 */
export const SavedCardPaymentBody = z
  .object({ ...installmentChoice, cart_id: cartId, card_id: z.string().max(100), locale: z.enum(["tr", "en"]).optional() })
  .strict()
export type SavedCardPaymentBody = z.infer<typeof SavedCardPaymentBody>

export const InstallmentsQuery = z.object({
  bin: z.string().regex(/^\d{6,8}$/, { error: "bin must be the first 6 to 8 digits of the card" }),
  amount: z.string().regex(/^\d+(\.\d{1,2})?$/, { error: "amount must be a decimal number" }).optional(),
  currency_code: z.string().regex(/^[A-Za-z]{3}$/).optional(),
  /** The cart paid: a recurring product's cart gets single payment only, with its plan. */
  cart_id: cartId.optional(),
})

export const PartialCaptureBody = z
  .object({ amount: z.union([z.string(), z.number()]).transform(String).pipe(z.string().regex(/^\d+(\.\d{1,2})?$/, { error: "amount must be a positive decimal with at most 2 decimals" })) })
  .strict()
export type PartialCaptureBody = z.infer<typeof PartialCaptureBody>

/** The recurring webhook's fields (gateway reference); merchant_key is checked against the plugin's. */
export const RecurringWebhookBody = z.object({
  merchant_key: z.string().min(1),
  plan_code: z.coerce.string().min(1),
  recurring_number: z.coerce.number().int().positive(),
  invoice_id: z.string().min(1),
  order_id: z.coerce.string().optional().nullable(),
  product_price: z.coerce.string().regex(/^\d+(\.\d+)?$/),
  status: z.string().min(1),
  attempts: z.coerce.number().int().optional().nullable(),
  action_date: z.string().optional().nullable(),
})
