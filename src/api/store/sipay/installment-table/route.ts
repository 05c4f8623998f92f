import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import { z } from "@medusajs/framework/zod"
import { commissionTable, installmentTable } from "../../../../lib/checkout/installment-table"
import type { CurrencyCode } from "../../../../lib/sipay"
import { toMedusaError } from "../../../../providers/sipay/core/sipay-base"
import { sipayModuleOf } from "../../../sipay-responses"

const TableQuery = z.object({
  amount: z.string().regex(/^\d{1,9}(\.\d{1,2})?$/),
  currency_code: z.enum(["TRY", "USD", "EUR", "try", "usd", "eur"]).optional(),
})

/**
 * A product page's installment table: per card family and installment count, what a shopper pays
 * (`n x per_installment = total`, and the fee when the store passes it on). Computed here from the
 * commission table (one gateway call per process every 30 minutes), never a gateway call per view.
 */
export const GET = async (req: MedusaRequest, res: MedusaResponse) => {
  const parsed = TableQuery.safeParse(req.query)
  if (!parsed.success) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, "amount (a decimal such as 325.40) is required; currency_code is TRY, USD or EUR")
  }
  const currencyCode = (parsed.data.currency_code ?? "TRY").toUpperCase() as CurrencyCode
  const sipay = sipayModuleOf(req)
  const [settings, commissions] = await Promise.all([
    sipay.getCheckoutSettings(),
    commissionTable(sipay.getClient(), currencyCode).catch((error) => {
      throw toMedusaError(error, "commissions")
    }),
  ])
  // The same amount and settings give the same table: shared caches may keep it briefly.
  res.setHeader("Cache-Control", "public, max-age=60")
  res.json({
    amount: parsed.data.amount,
    currency_code: currencyCode,
    table: installmentTable({ amount: parsed.data.amount, rules: settings.installmentFees, maxInstallments: settings.maxInstallments, commissions }),
  })
}
