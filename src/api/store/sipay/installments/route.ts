import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import { installmentOffer } from "../../../../lib/checkout/installment-options"
import { cartAmountBeforeFee } from "../../../../workflows/installment-fee/apply-installment-fee"
import { isSupportedCurrency } from "../../../../providers/sipay/utils/session-data"
import { answerConfigurationRefusal } from "../../../configuration-refusals"
import { recurringPlanOfCartId, singlePaymentOffer } from "../../../recurring-plan-view"
import { sipayModuleOf } from "../../../sipay-responses"
import { InstallmentsQuery } from "../../../validators"

/** Installment options for a card BIN, an amount and a currency (getpos; agricultural terms). */
export const GET = async (req: MedusaRequest, res: MedusaResponse) => {
  const parsed = InstallmentsQuery.safeParse(req.query)
  if (!parsed.success || !parsed.data.amount || !parsed.data.currency_code) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, "bin (6 digits), amount and currency_code are required")
  }
  const currencyCode = parsed.data.currency_code.toUpperCase()
  if (!isSupportedCurrency(currencyCode)) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, `Sipay does not accept ${currencyCode}`)
  }
  // With the cart (`cart_id`), a recurring product gets single payment only and its plan.
  const plan = parsed.data.cart_id ? await recurringPlanOfCartId(req, parsed.data.cart_id) : null
  if (plan) {
    res.json(singlePaymentOffer(plan, parsed.data.amount, currencyCode))
    return
  }
  const sipay = sipayModuleOf(req)
  // With the cart, the amount is the cart's own total without an installment fee line an earlier choice added
  // (a storefront's amount may already hold that fee, which would then be counted twice).
  const cartAmount = parsed.data.cart_id ? await cartAmountBeforeFee(req.scope.resolve(ContainerRegistrationKeys.QUERY), parsed.data.cart_id) : null
  let offer
  try {
    offer = await installmentOffer(sipay.getClient(), await sipay.getCheckoutSettings(), {
      bin: parsed.data.bin,
      amount: cartAmount ?? parsed.data.amount,
      currencyCode,
    })
  } catch (error) {
    // The merchant key the gateway does not know (14): the merchant is alerted, the shopper reads a neutral text.
    if (await answerConfigurationRefusal(req, res, error, { operation: "getpos" })) return
    throw error
  }
  res.json(offer)
}
