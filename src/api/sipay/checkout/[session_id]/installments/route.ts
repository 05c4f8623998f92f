import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError, Modules } from "@medusajs/framework/utils"
import { installmentOffer } from "../../../../../lib/checkout/installment-options"
import { formatAmount } from "../../../../../lib/sipay"
import { isSupportedCurrency } from "../../../../../providers/sipay/utils/session-data"
import { assertCheckoutToken, sipayModuleOf } from "../../../../sipay-responses"
import { InstallmentsQuery } from "../../../../validators"

export const AUTHENTICATE = false

/**
 * The hosted page's installment options: `{ token, bin }` in the body (the page's token never in an
 * address). Amount and currency come from the session, not the page.
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
  const sipay = sipayModuleOf(req)
  const offer = await installmentOffer(sipay.getClient(), await sipay.getCheckoutSettings(), {
    bin: parsed.data.bin,
    amount: formatAmount(session.amount as never),
    currencyCode,
  })
  res.setHeader("Cache-Control", "no-store")
  res.json(offer)
}
