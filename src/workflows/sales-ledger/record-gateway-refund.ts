import type { MedusaContainer } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import { refundPaymentWorkflow } from "@medusajs/medusa/core-flows"
import { SIPAY_MODULE } from "../../modules/sipay"
import type SipayModuleService from "../../modules/sipay/service"
import { isRecordedRefund, recordedRefundMetadata } from "../../lib/refunds/recorded-refund"
import { fromMinorUnits, toMinorUnits } from "../../lib/sipay/amount"

export const RECORDED_REFUND_NOTE = "Refunded in the Sipay merchant panel (recorded from the sales ledger)"

type RefundRow = { amount: unknown; metadata?: Record<string, unknown> | null }

/**
 * Records in Medusa a refund the gateway already made (the merchant panel) on the payment its sale
 * paid. Medusa 2.21.2 records refunds only through the provider, so the refund carries the server's
 * mark (lib/refunds/recorded-refund.ts) and the provider records it after one checkstatus of that
 * sale, sending nothing. Medusa's workflow fails after the refund step on a cancelled order (its
 * credit lines): the refund row is then recorded, which is what the ledger needs, and it says so.
 */
export async function recordGatewayRefund(
  container: MedusaContainer,
  input: { payment_id: string; invoice_id: string; amount_minor: bigint }
): Promise<{ recorded: true; warning: string | null }> {
  const appSecret = container.resolve<SipayModuleService>(SIPAY_MODULE).getOptions().appSecret
  const metadata = recordedRefundMetadata(appSecret, input.invoice_id, input.amount_minor)
  try {
    await refundPaymentWorkflow(container).run({
      input: { payment_id: input.payment_id, amount: fromMinorUnits(input.amount_minor), note: RECORDED_REFUND_NOTE, metadata } as never,
    })
    return { recorded: true, warning: null }
  } catch (error) {
    const payment = (await container.resolve(Modules.PAYMENT).retrievePayment(input.payment_id, { relations: ["refunds"] })) as unknown as { refunds?: RefundRow[] }
    const recorded = (payment.refunds ?? []).some((refund) => isRecordedRefund(appSecret, refund.metadata, input.invoice_id, toMinorUnits(refund.amount as never)))
    if (recorded) {
      return { recorded: true, warning: `recorded on the payment; Medusa's refund flow then failed: ${(error as Error).message}` }
    }
    throw error
  }
}
