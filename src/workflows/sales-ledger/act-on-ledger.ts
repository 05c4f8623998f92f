import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { SIPAY_MODULE } from "../../modules/sipay"
import { LedgerStore, type ActionCandidate } from "../../modules/sipay/ledger/store"
import type SipayModuleService from "../../modules/sipay/service"
import { fromMinorUnits, toMinorUnits } from "../../lib/sipay/amount"
import { actedOnSignature } from "../../lib/sales-report/ledger-row"
import { CHARGEBACK_STATE_ID } from "../../lib/sales-report/order-payment-view"
import { assertPaymentRecordsSale, type SaleOwner } from "../../lib/sales-report/sale-owner"
import { resolveSaleOwners } from "../sale-owner/resolve-sale-owners"
import { recordGatewayRefund } from "./record-gateway-refund"

/** Event emitted once per sale the ledger sees charged back (state 11). */
export const CHARGEBACK_EVENT = "sipay.chargeback.received"
/** Event emitted when a refund made outside Medusa (the merchant panel) is recorded in Medusa. */
export const PANEL_REFUND_EVENT = "sipay.refund.recorded_from_gateway"

export type LedgerActions = {
  refunds_recorded: { invoice_id: string; amount: string }[]
  chargebacks: { invoice_id: string; order_id: string | null; sale_kind: string }[]
  /** Refunds at the gateway the plugin made itself or that belong to no Medusa payment: accounted for, nothing recorded. */
  not_recorded: { invoice_id: string; kind: SaleOwner["kind"]; reason: string }[]
  failed: { invoice_id: string; error: string }[]
}

export const noLedgerActions = (): LedgerActions => ({ refunds_recorded: [], chargebacks: [], not_recorded: [], failed: [] })

type PaymentWithMoney = { id: string; data: Record<string, unknown> | null; captures?: { amount: unknown }[]; refunds?: { amount: unknown }[] }

const sumMinor = (entries: { amount: unknown }[] | undefined) => (entries ?? []).reduce((sum, entry) => sum + toMinorUnits(entry.amount as never), 0n)

/**
 * Acts once on what the ledger shows changed outside Medusa, each sale according to what it is to
 * Medusa (resolveSaleOwners): a refund made in the merchant panel is recorded on the payment that
 * sale paid (never sent again); the plugin's own give-backs are already accounted for; a chargeback
 * is recorded on the order its sale paid (or on none, with what the sale was). A sale whose owner is
 * not settled yet is left for the next sync.
 */
export async function actOnLedgerChanges(container: MedusaContainer, days: readonly string[]): Promise<LedgerActions> {
  const store = new LedgerStore(container.resolve(ContainerRegistrationKeys.PG_CONNECTION))
  const actions = noLedgerActions()
  const pending = (await store.actionCandidates(days)).filter((sale) => sale.acted_on !== actedOnSignature(sale))
  if (!pending.length) return actions
  const owners = await resolveSaleOwners(
    container,
    pending.map((sale) => ({ invoice_id: sale.invoice_id, gateway_order_id: sale.gateway_order_id, dpl_id: sale.dpl_id }))
  )
  for (const [index, sale] of pending.entries()) {
    try {
      if (await actOnSale(container, sale, owners[index], actions)) await store.markActedOn(sale.sale_id, actedOnSignature(sale))
    } catch (error) {
      actions.failed.push({ invoice_id: sale.invoice_id, error: (error as Error)?.message ?? String(error) })
      container.resolve("logger").warn(`Sipay ledger: acting on sale ${sale.invoice_id} failed, retried on the next sync: ${(error as Error)?.message}`)
    }
  }
  return actions
}

/** True when everything the sale's state asks for is done (or is not Medusa's to record). */
async function actOnSale(container: MedusaContainer, sale: ActionCandidate, owner: SaleOwner, actions: LedgerActions): Promise<boolean> {
  switch (owner.kind) {
    case "payment":
      return actOnPayment(container, sale, owner, actions)
    case "attempt":
      // Paid or pending and not settled yet: settling decides whether it is kept or given back; the next sync acts.
      return !["pending", "paid", "authorized", "settling"].includes(owner.status)
    case "not_ours":
      return true
    default: {
      // Given back by the plugin, a later recurring charge, a payment link's sale: no Medusa payment records it.
      if (toMinorUnits(sale.total_refunded_amount) > 0n) {
        actions.not_recorded.push({ invoice_id: sale.invoice_id, kind: owner.kind, reason: owner.kind === "given_back" ? "the plugin gave this payment back" : "no Medusa payment records this sale" })
      }
      if (sale.transaction_state_id === CHARGEBACK_STATE_ID) {
        // A later recurring charge is the plan's, whose first payment made the order; a given-back attempt paid no order (its cart's order was paid by another sale).
        const plan = owner.kind === "recurring_charge" ? owner : null
        await recordChargeback(container, sale, { order_id: plan?.order_id ?? null, payment_id: plan?.payment_id ?? null, sale_kind: owner.kind }, actions)
      }
      return true
    }
  }
}

async function actOnPayment(container: MedusaContainer, sale: ActionCandidate, owner: Extract<SaleOwner, { kind: "payment" }>, actions: LedgerActions): Promise<boolean> {
  const payment = (await container.resolve(Modules.PAYMENT).retrievePayment(owner.payment_id, { select: ["id", "data"], relations: ["captures", "refunds"] })) as unknown as PaymentWithMoney
  assertPaymentRecordsSale(sale.invoice_id, payment.data, payment.id)
  const gatewayRefunded = toMinorUnits(sale.total_refunded_amount)
  const medusaRefunded = sumMinor(payment.refunds)
  const captured = sumMinor(payment.captures)
  const missing = gatewayRefunded - medusaRefunded
  if (missing > 0n) {
    // Medusa's refund flow needs the payment's order and a captured amount to refund against.
    if (!owner.order_id || captured <= medusaRefunded) return false
    const amount = missing < captured - medusaRefunded ? missing : captured - medusaRefunded
    const { warning } = await recordGatewayRefund(container, { payment_id: payment.id, invoice_id: sale.invoice_id, amount_minor: amount })
    if (warning) container.resolve("logger").warn(`Sipay ledger: panel refund of sale ${sale.invoice_id}: ${warning}`)
    actions.refunds_recorded.push({ invoice_id: sale.invoice_id, amount: fromMinorUnits(amount) })
    await container.resolve(Modules.EVENT_BUS).emit({
      name: PANEL_REFUND_EVENT,
      data: { invoice_id: sale.invoice_id, order_id: owner.order_id, payment_id: payment.id, amount: fromMinorUnits(amount), currency_code: sale.currency_code },
    })
  }
  if (sale.transaction_state_id === CHARGEBACK_STATE_ID) {
    if (!owner.order_id) return false
    await recordChargeback(container, sale, { order_id: owner.order_id, payment_id: payment.id, sale_kind: "payment" }, actions)
  }
  return true
}

async function recordChargeback(
  container: MedusaContainer,
  sale: ActionCandidate,
  on: { order_id: string | null; payment_id: string | null; sale_kind: string },
  actions: LedgerActions
): Promise<void> {
  const sipay = container.resolve<SipayModuleService>(SIPAY_MODULE)
  const [known] = await sipay.listChargebacks({ sale_id: sale.sale_id }, { take: 1 })
  if (known) return
  const chargeback = await sipay.createChargebacks({
    sale_id: sale.sale_id,
    invoice_id: sale.invoice_id,
    order_id: on.order_id,
    payment_id: on.payment_id,
    sale_kind: on.sale_kind,
    amount: Number(sale.gross),
    currency_code: sale.currency_code,
    detected_at: new Date(),
  })
  actions.chargebacks.push({ invoice_id: sale.invoice_id, order_id: on.order_id, sale_kind: on.sale_kind })
  await container.resolve(Modules.EVENT_BUS).emit({
    name: CHARGEBACK_EVENT,
    data: { id: chargeback.id, invoice_id: sale.invoice_id, order_id: on.order_id, payment_id: on.payment_id, sale_kind: on.sale_kind, amount: sale.gross, currency_code: sale.currency_code },
  })
}
