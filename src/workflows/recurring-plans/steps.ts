import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { SIPAY_MODULE } from "../../modules/sipay"
import type SipayModuleService from "../../modules/sipay/service"
import { recurringPlanOfCart } from "../../lib/checkout/recurring"
import { actionValue, planFactsOf, type PlanAction, type PlanHistoryEntry } from "../../lib/recurring-plans/facts"
import { SipayError } from "../../lib/sipay/errors"
import { toMedusaError } from "../../providers/sipay/core/sipay-base"
import { SIPAY_PROVIDER } from "../../providers/sipay/utils/provider-ids"


type PlanRecord = { id: string; plan_code: string; invoice_id: string; status: string; history: { entries?: PlanHistoryEntry[] } | null; [field: string]: unknown }

const sipayOf = (container: { resolve: <T>(key: string) => T }) => container.resolve<SipayModuleService>(SIPAY_MODULE)

/** Is this the unique-index refusal of a second insert (a concurrent run recorded the plan first)? */
function isDuplicate(error: unknown): boolean {
  const text = `${(error as Error)?.message ?? ""} ${(error as { code?: string })?.code ?? ""}`
  return /duplicate|unique|already exists|23505/i.test(text)
}

/**
 * The plan of an order's recurring first payment, recorded once: the order's Sipay payment names the
 * invoice authorizePayment matched, the attempt behind it names the cart, the cart's products name
 * the plan's cycle; the gateway (checkstatus) names the plan code, and recurringPlan/query confirms it.
 * Nothing for an order without a recurring product or without a Sipay payment.
 */
export const recordRecurringPlanStep = createStep(
  "sipay-record-recurring-plan",
  async (input: { order_id: string }, { container }) => {
    const sipay = sipayOf(container)
    const query = container.resolve(ContainerRegistrationKeys.QUERY)
    const { data: orders } = await query.graph({
      entity: "order",
      fields: ["id", "customer_id", "email", "currency_code", "payment_collections.payments.provider_id", "payment_collections.payments.data"],
      filters: { id: input.order_id },
    })
    const order = orders[0] as Record<string, any> | undefined
    const payment = (order?.payment_collections ?? []).flatMap((c: any) => c?.payments ?? []).find((p: any) => SIPAY_PROVIDER.test(String(p?.provider_id)))
    const invoiceId = typeof payment?.data?.invoice_id === "string" ? (payment.data.invoice_id as string) : null
    if (!order || !invoiceId) return new StepResponse({ plan: null as PlanRecord | null, created: false }, null as string | null)

    const [existing] = (await sipay.listRecurringPlanRecords({ invoice_id: invoiceId })) as unknown as PlanRecord[]
    if (existing) return new StepResponse({ plan: existing, created: false }, null as string | null)
    const [attempt] = await sipay.listPaymentAttempts({ invoice_id: invoiceId })
    if (!attempt?.cart_id) return new StepResponse({ plan: null as PlanRecord | null, created: false }, null as string | null)
    const { data: carts } = await query.graph({ entity: "cart", fields: ["id", "items.product.metadata"], filters: { id: attempt.cart_id } })
    const schedule = recurringPlanOfCart(((carts[0] as any)?.items ?? []).map((item: any) => item?.product?.metadata ?? null))
    if (schedule === null || typeof schedule === "string") return new StepResponse({ plan: null as PlanRecord | null, created: false }, null as string | null)

    const client = sipay.getClient()
    const transaction = await client.checkStatus(invoiceId)
    const raw = (transaction.raw ?? {}) as Record<string, unknown>
    const planCode = String(raw.recurring_plan_code ?? "") || transaction.orderId
    if (transaction.status !== "Completed" || !planCode) return new StepResponse({ plan: null as PlanRecord | null, created: false }, null as string | null)
    let facts
    try {
      facts = planFactsOf(await client.queryRecurringPlan(planCode))
    } catch (error) {
      // The gateway opens a plan once the first payment's money is taken (a pre-authorization when
      // captured): until then there is no plan to record; the capture runs this step again.
      if (error instanceof SipayError) return new StepResponse({ plan: null as PlanRecord | null, created: false }, null as string | null)
      throw error
    }
    try {
      const created = (await sipay.createRecurringPlanRecords({
        plan_code: planCode,
        invoice_id: invoiceId,
        order_id: order.id,
        customer_id: order.customer_id ?? null,
        email: order.email ?? null,
        amount: attempt.amount as never,
        currency_code: attempt.currency_code,
        cycle: schedule.cycle,
        interval: schedule.interval,
        payment_number: schedule.paymentNumber,
        charges_made: 1,
        status: schedule.paymentNumber > 1 ? "Active" : "Completed",
        next_action_date: null,
        refreshed_at: new Date(),
        history: { entries: [] },
        ...facts,
      } as any)) as unknown as PlanRecord
      return new StepResponse({ plan: created, created: true }, created.id as string | null)
    } catch (error) {
      if (!isDuplicate(error)) throw error
      const [recorded] = (await sipay.listRecurringPlanRecords({ invoice_id: invoiceId })) as unknown as PlanRecord[]
      return new StepResponse({ plan: recorded ?? null, created: false }, null as string | null)
    }
  },
  async (createdId, { container }) => {
    if (createdId) await sipayOf(container).deleteRecurringPlanRecords(createdId)
  }
)

/** The record brought up to the gateway's facts (recurringPlan/query); the answer is returned for the plan's page. */
export const refreshRecurringPlanStep = createStep(
  "sipay-refresh-recurring-plan",
  async (input: { id?: string; plan_code?: string }, { container }) => {
    const sipay = sipayOf(container)
    const [record] = (await sipay.listRecurringPlanRecords(input.id ? { id: input.id } : { plan_code: input.plan_code })) as unknown as PlanRecord[]
    if (!record) {
      throw new MedusaError(MedusaError.Types.NOT_FOUND, `Recurring plan ${input.id ?? input.plan_code} was not found`)
    }
    let gateway
    try {
      gateway = await sipay.getClient().queryRecurringPlan(record.plan_code)
    } catch (error) {
      throw toMedusaError(error, "recurringPlan/query")
    }
    const previous = { id: record.id, status: record.status, amount: record.amount, payment_number: record.payment_number, charges_made: record.charges_made, next_action_date: record.next_action_date, refreshed_at: record.refreshed_at }
    const plan = (await sipay.updateRecurringPlanRecords({ id: record.id, ...planFactsOf(gateway), refreshed_at: new Date() } as any)) as unknown as PlanRecord
    return new StepResponse({ plan, gateway: { plan: gateway.plan, charges: gateway.charges } }, previous)
  },
  async (previous, { container }) => {
    if (previous) await sipayOf(container).updateRecurringPlanRecords(previous as never)
  }
)

function updateOf(planCode: string, action: PlanAction) {
  switch (action.action) {
    case "stop":
      return { planCode, status: 0 }
    case "change_amount":
      return { planCode, amount: action.amount }
    case "change_payment_number":
      return { planCode, paymentNumber: action.payment_number }
  }
}

/**
 * One recurringPlan/update the admin asked for, logged in the record's history and the server log
 * whether the gateway did it or refused it; a refusal is thrown with the gateway's own words.
 */
export const changeRecurringPlanStep = createStep(
  "sipay-change-recurring-plan",
  async (input: { id: string; change: PlanAction; actor_id?: string | null }, { container }) => {
    const sipay = sipayOf(container)
    const logger = container.resolve<{ info(m: string): void; warn(m: string): void }>(ContainerRegistrationKeys.LOGGER)
    const [record] = (await sipay.listRecurringPlanRecords({ id: input.id })) as unknown as PlanRecord[]
    if (!record) {
      throw new MedusaError(MedusaError.Types.NOT_FOUND, `Recurring plan ${input.id} was not found`)
    }
    const entry = (outcome: PlanHistoryEntry["outcome"], message?: string): PlanHistoryEntry => ({
      at: new Date().toISOString(),
      actor: input.actor_id ?? null,
      action: input.change.action,
      value: actionValue(input.change),
      outcome,
      ...(message ? { message } : {}),
    })
    const what = `${input.change.action}${actionValue(input.change) === null ? "" : ` ${actionValue(input.change)}`}`
    try {
      await sipay.getClient().updateRecurringPlan(updateOf(record.plan_code, input.change))
    } catch (error) {
      const refusal = toMedusaError(error, "recurringPlan/update")
      await sipay.updateRecurringPlanRecords({ id: record.id, history: { entries: [...(record.history?.entries ?? []), entry("refused", refusal.message)] } as never })
      logger.warn(`Sipay recurring plan ${record.plan_code}: ${what} by ${input.actor_id ?? "unknown"} refused: ${refusal.message}`)
      throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `The gateway refused to ${what.replace(/_/g, " ")} on plan ${record.plan_code}: ${refusal.message}`)
    }
    logger.info(`Sipay recurring plan ${record.plan_code}: ${what} by ${input.actor_id ?? "unknown"}`)
    const plan = (await sipay.updateRecurringPlanRecords({ id: record.id, history: { entries: [...(record.history?.entries ?? []), entry("done")] } as never })) as unknown as PlanRecord
    // The gateway's change cannot be undone by a compensation; the log line stays true.
    return new StepResponse({ plan })
  }
)
