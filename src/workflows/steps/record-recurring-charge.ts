import { timingSafeEqual } from "node:crypto"
import { MedusaError } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { SIPAY_MODULE } from "../../modules/sipay"
import type SipayModuleService from "../../modules/sipay/service"
import { amountsEqual, formatAmount } from "../../lib/sipay"

export type RecurringNotification = {
  merchant_key: string
  plan_code: string
  recurring_number: number
  invoice_id: string
  order_id?: string | null
  product_price: string
  status: string
  attempts?: number | null
  action_date?: string | null
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given, "utf8")
  const b = Buffer.from(expected, "utf8")
  return a.length === b.length && timingSafeEqual(a, b)
}

/**
 * The recurring webhook carries no hash: its merchant key is checked, and the charge is confirmed
 * with the gateway (recurringPlan/query) before it is recorded, once per plan and charge number.
 * A declined charge is tried again by the gateway under the same number with more `attempts`:
 * that later try, once confirmed, updates the record; an earlier or repeated one changes nothing.
 */
export type RecordedCharge = {
  charge: { id: string; plan_code: string; recurring_number: number; order_id: string | null; status: string; attempts: number | null }
  created: boolean
  /** Created, or updated by a later try. */
  changed: boolean
}

type ChargeRecord = RecordedCharge["charge"] & { gateway_order_id: string | null; action_date: string | null }
type Undo = { createdId?: string; previous?: Pick<ChargeRecord, "id" | "status" | "attempts" | "gateway_order_id" | "action_date"> }

const triesOf = (attempts: number | null | undefined) => attempts ?? 1

export const recordRecurringChargeStep = createStep<RecurringNotification, RecordedCharge, Undo>(
  "sipay-record-recurring-charge",
  async (input: RecurringNotification, { container }): Promise<StepResponse<RecordedCharge, Undo>> => {
    const sipay = container.resolve<SipayModuleService>(SIPAY_MODULE)
    if (!sameSecret(String(input.merchant_key ?? ""), sipay.getOptions().merchantKey)) {
      throw new MedusaError(MedusaError.Types.NOT_ALLOWED, "Recurring webhook refused: the merchant key does not match")
    }
    const [existing] = (await sipay.listRecurringCharges({ plan_code: input.plan_code, recurring_number: input.recurring_number })) as ChargeRecord[]
    if (existing && triesOf(input.attempts) <= triesOf(existing.attempts)) {
      return new StepResponse<RecordedCharge, Undo>({ charge: existing, created: false, changed: false }, {})
    }
    const plan = await sipay.getClient().queryRecurringPlan(input.plan_code, input.recurring_number)
    const history = plan.transactionHistories.find((entry) => Number(entry.recurring_number) === input.recurring_number)
    if (!history || String(history.status) !== input.status || !amountsEqual(String(history.amount ?? ""), input.product_price)) {
      throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `Recurring charge ${input.plan_code}/${input.recurring_number} is not confirmed by the gateway`)
    }
    const outcome = {
      status: input.status,
      attempts: input.attempts ?? null,
      action_date: input.action_date ?? null,
      gateway_order_id: input.order_id ?? (history.order_id as string) ?? null,
    }
    if (existing) {
      const charge = await sipay.updateRecurringCharges({ id: existing.id, ...outcome })
      const { id, status, attempts, gateway_order_id, action_date } = existing
      return new StepResponse<RecordedCharge, Undo>({ charge, created: false, changed: true }, { previous: { id, status, attempts, gateway_order_id, action_date } })
    }
    const [attempt] = await sipay.listPaymentAttempts({ invoice_id: input.invoice_id })
    const charge = await sipay.createRecurringCharges({
      plan_code: input.plan_code,
      recurring_number: input.recurring_number,
      invoice_id: input.invoice_id,
      amount: formatAmount(input.product_price) as unknown as number,
      currency_code: (history.currency_code as string) ?? (plan.plan?.currency_code as string) ?? null,
      order_id: attempt?.order_id ?? null,
      ...outcome,
    })
    return new StepResponse<RecordedCharge, Undo>({ charge, created: true, changed: true }, { createdId: charge.id })
  },
  async (undo, { container }) => {
    const sipay = container.resolve<SipayModuleService>(SIPAY_MODULE)
    if (undo?.createdId) {
      await sipay.deleteRecurringCharges(undo.createdId)
    } else if (undo?.previous) {
      await sipay.updateRecurringCharges(undo.previous)
    }
  }
)
