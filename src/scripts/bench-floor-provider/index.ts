/**
 * The bench's second checkout floor (`npm run bench`, never in a store): Medusa's checkout through a
 * provider that does nothing but say the payment is captured as it is authorized, as a gateway sale
 * is. Medusa then records the capture (capture row, payment and collection updates, the order's
 * transaction), the work `pp_system_default` (authorize only) never does. Registered by
 * medusa-config.ts only when BENCH_CAPTURING_FLOOR=true; its id is `pp_capturing-floor_bench`.
 */
import { AbstractPaymentProvider, ModuleProvider, Modules, PaymentActions, PaymentSessionStatus } from "@medusajs/framework/utils"
import type {
  AuthorizePaymentInput,
  AuthorizePaymentOutput,
  CancelPaymentOutput,
  CapturePaymentOutput,
  DeletePaymentOutput,
  GetPaymentStatusOutput,
  InitiatePaymentInput,
  InitiatePaymentOutput,
  RefundPaymentOutput,
  RetrievePaymentOutput,
  UpdatePaymentOutput,
  WebhookActionResult,
} from "@medusajs/framework/types"

class CapturingFloorProvider extends AbstractPaymentProvider {
  static identifier = "capturing-floor"

  constructor(cradle: Record<string, unknown>, options: Record<string, unknown>) {
    super(cradle, options)
  }

  async initiatePayment({ context }: InitiatePaymentInput): Promise<InitiatePaymentOutput> {
    return { id: String(context?.idempotency_key ?? ""), data: {} }
  }
  async authorizePayment({ data }: AuthorizePaymentInput): Promise<AuthorizePaymentOutput> {
    return { status: PaymentSessionStatus.CAPTURED, data: data ?? {} }
  }
  async capturePayment(input: { data?: Record<string, unknown> }): Promise<CapturePaymentOutput> {
    return { data: input.data ?? {} }
  }
  async cancelPayment(input: { data?: Record<string, unknown> }): Promise<CancelPaymentOutput> {
    return { data: input.data ?? {} }
  }
  async refundPayment(input: { data?: Record<string, unknown> }): Promise<RefundPaymentOutput> {
    return { data: input.data ?? {} }
  }
  async deletePayment(input: { data?: Record<string, unknown> }): Promise<DeletePaymentOutput> {
    return { data: input.data ?? {} }
  }
  async retrievePayment(input: { data?: Record<string, unknown> }): Promise<RetrievePaymentOutput> {
    return { data: input.data ?? {} }
  }
  async updatePayment(input: { data?: Record<string, unknown> }): Promise<UpdatePaymentOutput> {
    return { data: input.data ?? {} }
  }
  async getPaymentStatus(input: { data?: Record<string, unknown> }): Promise<GetPaymentStatusOutput> {
    return { status: PaymentSessionStatus.CAPTURED, data: input.data ?? {} }
  }
  async getWebhookActionAndData(): Promise<WebhookActionResult> {
    return { action: PaymentActions.NOT_SUPPORTED }
  }
}

export default ModuleProvider(Modules.PAYMENT, { services: [CapturingFloorProvider] })
