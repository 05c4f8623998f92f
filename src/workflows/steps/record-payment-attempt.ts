import type { MedusaContainer } from "@medusajs/framework/types"
import { SIPAY_MODULE } from "../../modules/sipay"
import type SipayModuleService from "../../modules/sipay/service"
import { PaymentRequest } from "../../lib/sipay"

export type NewAttempt = {
  sessionId: string
  cartId: string
  attemptNumber: number
  flow: "3d" | "2d"
  request: PaymentRequest
}

/** Records the attempt (no card data: only what was sent besides the card); its id, for undoing it. */
export async function recordPaymentAttempt(container: MedusaContainer, input: NewAttempt): Promise<string> {
  const sipay = container.resolve<SipayModuleService>(SIPAY_MODULE)
  const { request } = input
  const attempt = await sipay.createPaymentAttempts({
    invoice_id: request.invoiceId,
    session_id: input.sessionId,
    cart_id: input.cartId,
    attempt_number: input.attemptNumber,
    flow: input.flow,
    // A decimal string keeps the exact amount (the model's bigNumber accepts it; its type says number).
    amount: String(request.total) as unknown as number,
    currency_code: request.currencyCode,
    transaction_type: request.transactionType ?? "Auth",
    installments: request.installmentsNumber,
    items: request.items as unknown as Record<string, unknown>,
    status: "pending",
    // `recurring` lets the plan subscriber pass over ordinary orders without reading them whole.
    metadata: { ...(request.agricultural ? { agricultural: request.agricultural } : {}), recurring: Boolean(request.recurring) },
  })
  return attempt.id
}

export async function deletePaymentAttempt(container: MedusaContainer, attemptId: string): Promise<void> {
  await container.resolve<SipayModuleService>(SIPAY_MODULE).deletePaymentAttempts(attemptId)
}
