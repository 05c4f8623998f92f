import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import { installmentOffer } from "../../../../lib/checkout/installment-options"
import { isSupportedCurrency } from "../../../../providers/sipay/utils/session-data"
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
  const sipay = sipayModuleOf(req)
  const offer = await installmentOffer(sipay.getClient(), await sipay.getCheckoutSettings(), {
    bin: parsed.data.bin,
    amount: parsed.data.amount,
    currencyCode,
  })
  res.json(offer)
}
