import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { ContainerRegistrationKeys, MedusaError, Modules } from "@medusajs/framework/utils"
import { installmentOffer } from "../../../../../lib/checkout/installment-options"
import { formatAmount } from "../../../../../lib/sipay"
import { amountBeforeFee } from "../../../../../workflows/installment-fee/apply-installment-fee"
import { isSupportedCurrency } from "../../../../../providers/sipay/utils/session-data"
import { answerConfigurationRefusal } from "../../../../configuration-refusals"
import { recurringPlanOfCollection, singlePaymentOffer } from "../../../../recurring-plan-view"
import { assertCheckoutToken, sipayModuleOf } from "../../../../sipay-responses"
import { InstallmentsQuery } from "../../../../validators"

export const AUTHENTICATE = false

/**
 * The hosted page's installment options: `{ token, bin }` in the body (the page's token never in an
 * address). Amount and currency come from the session and its cart, not the page.
 */
export const POST = async (req: MedusaRequest, res: MedusaResponse) => {
  assertCheckoutToken(req, req.params.session_id)
  const parsed = InstallmentsQuery.pick({ bin: true }).safeParse({ bin: (req.body as { bin?: unknown } | undefined)?.bin })
  if (!parsed.success) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, "bin must be the first 6 digits of the card")
  }
  const [session] = await req.scope.resolve(Modules.PAYMENT).listPaymentSessions({ id: req.params.session_id })
  const currencyCode = String(session?.currency_code ?? "").toUpperCase()
  if (!session || session.provider_id !== "pp_sipay_sipay" || !isSupportedCurrency(currencyCode)) {
    throw new MedusaError(MedusaError.Types.NOT_FOUND, "Payment session not found")
  }
  // A recurring product is charged on its plan: no installment to choose, nothing to ask the gateway.
  const plan = await recurringPlanOfCollection(req, session.payment_collection_id)
  if (plan) {
    res.setHeader("Cache-Control", "no-store")
    res.json(singlePaymentOffer(plan, formatAmount(session.amount as never), currencyCode))
    return
  }
  const sipay = sipayModuleOf(req)
  let offer
  try {
    offer = await installmentOffer(sipay.getClient(), await sipay.getCheckoutSettings(), {
      bin: parsed.data.bin,
      // Each count's fee is computed on the cart without any fee line an earlier choice added.
      amount: await amountBeforeFee(req.scope.resolve(ContainerRegistrationKeys.QUERY), session),
      currencyCode,
    })
  } catch (error) {
    // The merchant key the gateway does not know (14): the merchant is alerted, the shopper reads a neutral text.
    if (await answerConfigurationRefusal(req, res, error, { operation: "getpos" })) return
    throw error
  }
  res.setHeader("Cache-Control", "no-store")
  res.json(offer)
}
