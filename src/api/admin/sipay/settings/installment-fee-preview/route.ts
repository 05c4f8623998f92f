import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { commissionTable, installmentTable } from "../../../../../lib/checkout/installment-table"
import { toMedusaError } from "../../../../../providers/sipay/core/sipay-base"
import { sipayModuleOf } from "../../../../sipay-responses"
import type { InstallmentFeePreviewBody } from "../validators"

/**
 * The settings page's preview: what a shopper would pay for a sample amount under the rules being
 * edited (not yet saved), per card program and installment count; the gateway's rate is the
 * program's end-user commission from the commission table (as getpos applies it at checkout).
 */
export const POST = async (req: AuthenticatedMedusaRequest<InstallmentFeePreviewBody>, res: MedusaResponse) => {
  const sipay = sipayModuleOf(req)
  const settings = await sipay.getCheckoutSettings()
  const body = req.validatedBody
  const currencyCode = body.currency_code ?? "TRY"
  let commissions
  try {
    commissions = await commissionTable(sipay.getClient(), currencyCode)
  } catch (error) {
    throw toMedusaError(error, "commissions")
  }
  res.json({
    amount: body.amount,
    currency_code: currencyCode,
    table: installmentTable({
      amount: body.amount,
      rules: body.installment_fees ?? settings.installmentFees,
      maxInstallments: settings.maxInstallments,
      commissions,
    }),
  })
}
