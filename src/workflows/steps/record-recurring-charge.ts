import { MedusaError } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { SIPAY_MODULE } from "../../modules/sipay"
import type SipayModuleService from "../../modules/sipay/service"
import { isSipayError, recurringChargeStatus } from "../../lib/sipay"
import { NOT_FOUND_CODES } from "../../lib/sipay/status-codes"
import { macsEqual } from "../../lib/server-mac"
import type { RecurringCharge, RecurringPlan } from "../../lib/sipay"
import { resolveSaleOwner } from "../sale-owner/resolve-sale-owners"

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

/**
 * The recurring webhook is a trigger, nothing more: its merchant_key is public (it is in every 3D
 * form) and it carries no hash. So the plan must be one this store opened (its first payment is one
 * of the plugin's attempts, and the webhook's invoice id is that payment's), and everything recorded
 * (status, attempts, the charge's gateway order id, its date, its amount) is the gateway's
 * recurringPlan/query history entry. A webhook claiming more attempts than the gateway reports
 * changes nothing; a charge record is bound to the plan's own order and never to another.
 */
export type RecordedCharge = {
  charge: { id: string; plan_code: string; recurring_number: number; order_id: string | null; status: string; attempts: number | null }
  created: boolean
  /** Created, or updated to newer gateway facts (a later try). */
  changed: boolean
}

type ChargeRecord = RecordedCharge["charge"] & { gateway_order_id: string | null; action_date: string | null }
type Undo = { createdId?: string; previous?: Pick<ChargeRecord, "id" | "status" | "attempts" | "gateway_order_id" | "action_date"> }
type Attempt = { invoice_id: string; gateway_order_no: string | null; order_id: string | null; currency_code: string }

const refuse = (why: string): never => {
  throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `Recurring webhook refused: ${why}`)
}

/** A value the webhook sent, as a refusal names it: quoted, cut, on one line (the log stays one line per refusal). */
const shown = (value: unknown): string => JSON.stringify(String(value ?? "").slice(0, 40))

/** The plan as recurringPlan/query reports it; a plan the gateway does not know is a refusal (400), not an error. */
async function queryPlan(sipay: SipayModuleService, input: RecurringNotification): Promise<RecurringPlan> {
  try {
    return await sipay.getClient().queryRecurringPlan(input.plan_code, input.recurring_number)
  } catch (error) {
    if (isSipayError(error) && error.statusCode !== null && NOT_FOUND_CODES.includes(error.statusCode)) {
      refuse(`plan ${shown(input.plan_code)} is not known to the gateway`)
    }
    throw error
  }
}

/** The plan's first payment is this attempt: the gateway names its order id (first_order_id) or, failing that, its invoice id. */
function openedBy(plan: RecurringPlan, attempt: Attempt, input: RecurringNotification): boolean {
  if (plan.planCode !== null && plan.planCode !== input.plan_code) return false
  if (plan.invoiceId !== null && plan.invoiceId !== attempt.invoice_id) return false
  if (plan.firstOrderId !== null) return attempt.gateway_order_no !== null && plan.firstOrderId === attempt.gateway_order_no
  return plan.invoiceId !== null
}

/** What the gateway says about the charge, as stored. */
function factsOf(charge: RecurringCharge) {
  return { status: charge.status!, attempts: charge.attempts ?? 1, gateway_order_id: charge.orderId, action_date: charge.actionDate }
}

export const recordRecurringChargeStep = createStep<RecurringNotification, RecordedCharge, Undo>(
  "sipay-record-recurring-charge",
  async (input: RecurringNotification, { container }): Promise<StepResponse<RecordedCharge, Undo>> => {
    const sipay = container.resolve<SipayModuleService>(SIPAY_MODULE)
    if (!macsEqual(sipay.getOptions().merchantKey, String(input.merchant_key ?? ""))) {
      refuse("the merchant key does not match")
    }
    if (recurringChargeStatus(input.status) === null) refuse(`unknown status ${JSON.stringify(String(input.status).slice(0, 20))}`)
    const [attempt] = (await sipay.listPaymentAttempts({ invoice_id: input.invoice_id })) as Attempt[]
    if (!attempt) refuse(`plan ${shown(input.plan_code)} is not one this store opened`)
    // The plan's first payment must be a Medusa payment of this store, not an attempt it gave back.
    const owner = await resolveSaleOwner(container, { invoice_id: input.invoice_id })
    if (owner.kind !== "payment") refuse(`plan ${shown(input.plan_code)} was opened by a payment this store did not keep (${owner.kind})`)

    const plan = await queryPlan(sipay, input)
    if (!openedBy(plan, attempt, input)) refuse(`plan ${shown(input.plan_code)} is not the plan of invoice ${shown(input.invoice_id)}`)
    const charge = plan.charges.find((entry) => entry.recurringNumber === input.recurring_number)
    if (!charge || charge.status === null || charge.amount === null) {
      refuse(`charge ${shown(input.plan_code)}/${input.recurring_number} is not confirmed by the gateway`)
    }
    const facts = factsOf(charge!)
    if ((input.attempts ?? 1) > facts.attempts) {
      refuse(`charge ${shown(input.plan_code)}/${input.recurring_number} claims more attempts than the gateway reports`)
    }

    const [existing] = (await sipay.listRecurringCharges({ plan_code: input.plan_code, recurring_number: input.recurring_number })) as ChargeRecord[]
    if (existing) {
      const newer = facts.attempts > (existing.attempts ?? 1) || (facts.attempts === (existing.attempts ?? 1) && facts.status !== existing.status)
      if (!newer) {
        return new StepResponse<RecordedCharge, Undo>({ charge: existing, created: false, changed: false }, {})
      }
      const updated = await sipay.updateRecurringCharges({ id: existing.id, ...facts })
      const { id, status, attempts, gateway_order_id, action_date } = existing
      return new StepResponse<RecordedCharge, Undo>({ charge: updated, created: false, changed: true }, { previous: { id, status, attempts, gateway_order_id, action_date } })
    }
    const created = await sipay.createRecurringCharges({
      plan_code: input.plan_code,
      recurring_number: input.recurring_number,
      invoice_id: attempt.invoice_id,
      amount: charge!.amount as unknown as number,
      currency_code: (plan.plan?.currency_code as string) ?? (plan.plan?.currency as string) ?? attempt.currency_code ?? null,
      // The Medusa order of the plan's own first payment: never one the webhook names.
      order_id: owner.kind === "payment" ? owner.order_id : null,
      ...facts,
    })
    return new StepResponse<RecordedCharge, Undo>({ charge: created, created: true, changed: true }, { createdId: created.id })
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
