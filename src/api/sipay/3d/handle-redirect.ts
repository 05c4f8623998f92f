import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { failureUrlFor, successUrlFor } from "../../../lib/checkout/urls"
import { escapeHtml } from "../../../lib/hosted-page"
import { parseInvoiceId } from "../../../providers/sipay/utils/session-data"
import { settlePaymentAttemptWorkflow } from "../../../workflows/settle-payment-attempt"
import type { SettleResult } from "../../../workflows/steps/settle-payment-attempt"
import { sipayModuleOf } from "../../sipay-responses"

const MESSAGES = {
  unverified: "The payment result could not be verified. No payment was recorded; please try again.",
  pending: "The payment could not be confirmed yet. If it went through, your order will be completed shortly; otherwise, please try again.",
  failed: "The card payment did not go through.",
  refused: "The card payment did not go through. Please check the card details or try another card.",
  reversed: "This payment was returned to your card because your cart changed or was already paid.",
  order_failed: "Your payment was received, but the order could not be placed yet. We will complete it shortly.",
}

/**
 * The gateway sends the shopper's browser here after the bank step (GET or POST). The redirect is
 * untrusted: its hash is verified, then the gateway is asked (checkstatus) before anything changes.
 * Only the configured storefront URLs are redirect targets. Safe to hit twice.
 */
export async function handleThreeDRedirect(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  const fields = { ...(req.query as Record<string, unknown>), ...((req.body as Record<string, unknown>) ?? {}) }
  const sipay = sipayModuleOf(req)
  const settings = await sipay.getCheckoutSettings()
  const verified = sipay.getClient().verifyResult(fields)
  const invoice = verified ? parseInvoiceId(verified.invoiceId) : null

  if (!verified || !invoice) {
    // Unverified: nothing from it is shown or looked up (no cart id, no gateway text from the request).
    // A refusal before any order exists comes back without a hash (the interface's failure sample):
    // the shopper gets a fixed message; anything claiming success must verify.
    const refusal = !fields.hash_key && String(fields.payment_status ?? "") === "0"
    const message = refusal ? MESSAGES.refused : MESSAGES.unverified
    return sendShopper(res, failureUrlFor(settings, { cart_id: "", error: message }), message)
  }

  let result: SettleResult
  try {
    ;({ result } = await settlePaymentAttemptWorkflow(req.scope).run({
      input: {
        invoice_id: verified.invoiceId,
        reported: { masked_card: verified.maskedCardNumber, error_code: verified.errorCode, error: verified.error, status: verified.status },
      },
    }))
  } catch (error) {
    // The gateway could not be asked: nothing is marked paid; the reconciliation job settles it later.
    req.scope.resolve("logger").warn(`Sipay 3D return for ${verified.invoiceId} not settled yet: ${(error as Error).message}`)
    const [attempt] = await sipay.listPaymentAttempts({ invoice_id: verified.invoiceId })
    return sendShopper(res, failureUrlFor(settings, { cart_id: attempt?.cart_id ?? "", error: MESSAGES.pending }), MESSAGES.pending)
  }
  if ((result.status === "paid" || result.status === "authorized") && result.order_id) {
    const target = successUrlFor(settings, { cart_id: result.cart_id ?? "", order_id: result.order_id })
    return sendShopper(res, target, `Payment received. Order ${result.order_id}.`)
  }
  const message =
    result.status === "failed"
      ? [MESSAGES.failed, verified.error || result.error].filter(Boolean).join(" ")
      : MESSAGES[result.status as keyof typeof MESSAGES] ?? MESSAGES.failed
  return sendShopper(res, failureUrlFor(settings, { cart_id: result.cart_id ?? "", error: message }), message)
}

function sendShopper(res: MedusaResponse, target: string | null, message: string): void {
  res.setHeader("Cache-Control", "no-store")
  if (target) {
    res.redirect(303, target)
    return
  }
  // No storefront configured: say what happened on a plain page.
  res
    .status(200)
    .type("html")
    .send(`<!doctype html><html lang="en"><meta charset="utf-8"><title>Payment</title><main><p role="status">${escapeHtml(message)}</p></main></html>`)
}
