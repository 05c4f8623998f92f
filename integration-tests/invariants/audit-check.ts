import { gatewayDay } from "../../src/lib/sales-report/calendar"
import { auditGatewayDay } from "../../src/workflows/audit/audit-day"
import { syncLedger } from "../../src/workflows/sales-ledger/sync-ledger"
import { isRunSale, type Model } from "./model"
import { control, type GatewaySale, type World } from "./world"

/** Past every grace period of the audit ("being settled"), as quiescence moves the store's clock past the plugin's. */
const PAST_GRACE_MS = 3600_000

/**
 * After quiescence the merchant's audit (docs/admin.md "Audit") reports no difference on the days of the
 * sequence's sales (its notices, a chargeback recorded on its order or a reservation near its
 * deadline, are not differences). The days are the gateway's (the sandbox's records). The ledger
 * job is first run on those days, as it would within its window: quiescence's own sync covers the
 * gateway's today and yesterday, and a sale made before a clock move is on an older day.
 */
export async function auditDifferences(world: World, model: Model): Promise<string[]> {
  const sales = ((await control(world, "sales")) as (GatewaySale & { created_at_ms: number })[]).filter((sale) => isRunSale(model, sale))
  const days = [...new Set(sales.map((sale) => gatewayDay(new Date(sale.created_at_ms))))].sort()
  if (!days.length) return []
  const gatewayNow = new Date((await control(world, "clock")).now)
  const synced = await syncLedger(world.container(), { days, now: gatewayNow })
  const failed = synced.days.filter((day) => day.error)
  if (!synced.ran || failed.length) return [`the ledger sync of ${days.join(", ")} did not run: ${failed.map((day) => day.error).join("; ") || "another sync held the lock"}`]
  const now = new Date(gatewayNow.getTime() + PAST_GRACE_MS)
  const problems: string[] = []
  for (const day of days) {
    // Pulled again: the sync's own work (a phone order's link settled) may have changed the gateway after its pull.
    const report = await auditGatewayDay(world.container(), day, { now, refresh: true })
    for (const finding of report.findings.filter((candidate) => candidate.severity === "difference")) {
      problems.push(`audit of ${day}: ${finding.kind} on sale ${finding.invoice_id} (order ${finding.order_id}, payment ${finding.payment_id}): gateway ${finding.gateway_amount}, Medusa ${finding.medusa_amount}, amount ${finding.amount}`)
    }
  }
  return problems
}
