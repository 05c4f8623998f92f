import { CODES, GatewayError } from "../core/codes"
import type { Gateway } from "../core/gateway"
import { envelope, type Reply } from "../http/io"
import type { RequestContext } from "../http/router"
import { validatePayment, type PaymentOrder } from "../payments/request"
import { directPaymentData, resultSecret } from "../payments/result"
import { authorizeSale, openSale } from "../payments/sales"

/** POST /api/paySmart2D: validate, authorise at once, answer the outcome in the body. */
export function payDirect(ctx: RequestContext, gateway: Gateway): Reply {
  let order
  try {
    order = validatePayment(ctx.body, gateway, "2D", ctx.merchant)
  } catch (error) {
    if (error instanceof GatewayError && error.code === CODES.POS_NOT_DEFINED) return posNotDefined(ctx.body, error)
    throw error
  }
  return answerDirectPayment(ctx, gateway, order, "paySmart2D")
}

/** A valid direct payment (paySmart2D, payByCardTokenNonSecure): authorised at once, the outcome in the body. */
export function answerDirectPayment(ctx: RequestContext, gateway: Gateway, order: PaymentOrder, operation: string): Reply {
  const sale = openSale(gateway, order)
  authorizeSale(gateway, sale, "card", ctx.after)
  return envelope(sale.status_code, sale.status_description, {
    data: directPaymentData(sale, resultSecret(gateway, order.merchant, operation)),
  })
}

/** The interface's failure shape when no POS takes the card: no order, no card number, no hash. */
export function posNotDefined(body: Record<string, unknown>, error: GatewayError): Reply {
  return envelope(error.code, error.description, {
    data: {
      order_no: null,
      order_id: null,
      invoice_id: String(body.invoice_id),
      payment_method: 1,
      credit_card_no: null,
      transaction_type: body.transaction_type === "PreAuth" ? "Pre-Authorization" : "Auth",
      payment_status: 0,
      error_code: "",
      error: error.description,
    },
  })
}
