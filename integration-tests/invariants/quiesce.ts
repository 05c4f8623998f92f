import { ContainerRegistrationKeys, Modules, PaymentWebhookEvents } from "@medusajs/framework/utils"
import reconcileSipayAttempts from "../../src/jobs/sipay-reconcile-attempts"
import watchSipayPreAuthorizations from "../../src/jobs/sipay-pre-authorizations"
import { syncLedger } from "../../src/workflows/sales-ledger/sync-ledger"
import { gatewayDay } from "../../src/lib/sales-report/calendar"
import { isRunSale, sessionsOf, type Model } from "./model"
import { eventualViolations } from "./oracle"
import { auditDifferences } from "./audit-check"
import { control, type World } from "./world"

/** Medusa's webhook route reads `webhook_delay` from the payment module (5000 ms when unset); this suite sets it short. */
export const WEBHOOK_DELAY_MS = 50

let handedOver = 0

/**
 * Counts sale webhooks Medusa hands to subscribers, and shortens Medusa's webhook delay (the property
 * its route reads): a test waits for the handover, then for the system to be still.
 */
export function watchWebhooks(world: World): void {
  const paymentModule = world.container().resolve(Modules.PAYMENT) as unknown as { options?: Record<string, unknown> }
  paymentModule.options = { ...(paymentModule.options ?? {}), webhook_delay: WEBHOOK_DELAY_MS }
  world
    .container()
    .resolve(Modules.EVENT_BUS)
    .subscribe(PaymentWebhookEvents.WebhookReceived, async () => {
      handedOver++
    })
}

async function gatewayNow(world: World): Promise<Date> {
  return new Date((await control(world, "clock")).now)
}

/**
 * The ledger job as it runs, on a store whose clock agrees with the gateway's (which tests may move):
 * today and yesterday, and the days of the sequence's sales (within the job's window: a sale made
 * before a clock move is on an older day, which the job also pulls once a day).
 */
export async function runLedgerSync(world: World, model: Model) {
  const now = await gatewayNow(world)
  const sales = ((await control(world, "sales")) as { invoice_id: string; dpl_id: number; created_at_ms: number }[]).filter((sale) => isRunSale(model, sale))
  const days = [...new Set([gatewayDay(now), gatewayDay(new Date()), gatewayDay(new Date(now.getTime() - 86400_000)), ...sales.map((sale) => gatewayDay(new Date(sale.created_at_ms)))])]
  return syncLedger(world.container(), { days, now })
}

export const runReconciliation = (world: World) => reconcileSipayAttempts(world.container())
export const runPreAuthorizationWatch = (world: World) => watchSipayPreAuthorizations(world.container())

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

async function until(probe: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`quiescence: ${what} not reached within ${timeoutMs} ms`)
    await sleep(100)
  }
}

type Knex = { raw(sql: string, bindings?: readonly unknown[]): Promise<{ rows: any[] }> }

/** What changes while anything is still at work: gateway calls, Medusa's money rows, the attempts' states. */
async function fingerprint(world: World): Promise<string> {
  const db = world.container().resolve<Knex>(ContainerRegistrationKeys.PG_CONNECTION)
  const [calls, log, rows] = await Promise.all([
    control(world, "calls"),
    control(world, "webhooks"),
    db.raw(`SELECT (SELECT count(*) FROM payment) p, (SELECT count(*) FROM capture) c, (SELECT count(*) FROM refund WHERE deleted_at IS NULL) r,
      (SELECT count(*) FROM order_cart) o, (SELECT string_agg(status || ':' || n, ',') FROM (SELECT status, count(*) n FROM sipay_payment_attempt GROUP BY status ORDER BY status) a) s`),
  ])
  return JSON.stringify([calls, log.length, rows.rows[0]])
}

async function still(world: World, quietMs = 800, timeoutMs = 60000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  let last = await fingerprint(world)
  let since = Date.now()
  while (Date.now() - since < quietMs) {
    if (Date.now() > deadline) throw new Error("quiescence: the system did not come to rest within 60 s")
    await sleep(200)
    const now = await fingerprint(world)
    if (now !== last) {
      last = now
      since = Date.now()
    }
  }
}

/** Sale webhooks the sandbox delivered to this store (HTTP 2xx). */
async function deliveredWebhooks(world: World): Promise<number> {
  const log = (await control(world, "webhooks")) as { kind: string; url: string; status: number }[]
  return log.filter((entry) => entry.kind === "sale" && entry.url.startsWith(world.stack.backendUrl) && entry.status >= 200 && entry.status < 300).length
}

/**
 * For a report only: the plugin's attempts, Medusa's payments and sessions and the gateway's sales of
 * the carts a broken invariant names (the oracle itself never reads the plugin's tables).
 */
async function diagnosis(world: World, model: Model, problems: string[]): Promise<string[]> {
  const db = world.container().resolve<Knex>(ContainerRegistrationKeys.PG_CONNECTION)
  const named = model.checkouts.filter((checkout) => problems.some((problem) => problem.includes(checkout.cartId) || checkout.sessionIds.some((session) => problem.includes(session))))
  const lines: string[] = []
  const sales = (await control(world, "sales")) as { invoice_id: string; state: string; captured_minor: number; refunded_minor: number; preauth?: { state: string } | null }[]
  for (const checkout of named) {
    const sessions = checkout.sessionIds
    const [attempts, payments, rows] = await Promise.all([
      db.raw(`SELECT invoice_id, status, transaction_type, order_id, error_message, created_at, updated_at FROM sipay_payment_attempt WHERE session_id = ANY(?) ORDER BY created_at`, [sessions]),
      db.raw(`SELECT p.id, p.data->>'invoice_id' invoice_id, p.amount, p.captured_at, p.canceled_at, p.created_at, (SELECT count(*) FROM capture c WHERE c.payment_id = p.id) captures, (SELECT count(*) FROM refund r WHERE r.payment_id = p.id AND r.deleted_at IS NULL) refunds FROM payment p WHERE p.payment_session_id = ANY(?)`, [sessions]),
      db.raw(`SELECT id, status, authorized_at, deleted_at, data->>'settling_invoice_id' settling, data->'closed_invoice_ids' closed FROM payment_session WHERE id = ANY(?)`, [sessions]),
    ])
    lines.push(`cart ${checkout.cartId}:`)
    for (const row of rows.rows) lines.push(`  session ${JSON.stringify(row)}`)
    for (const row of attempts.rows) lines.push(`  attempt ${JSON.stringify(row)}`)
    for (const row of payments.rows) lines.push(`  payment ${JSON.stringify(row)}`)
    for (const sale of sales.filter((sale) => sessions.some((session) => sale.invoice_id.startsWith(`${session}_`)))) {
      lines.push(`  sale ${sale.invoice_id} ${sale.state} captured ${sale.captured_minor} refunded ${sale.refunded_minor}${sale.preauth ? ` preauth ${sale.preauth.state}` : ""}`)
    }
  }
  return lines
}

/**
 * Held webhooks delivered and handed over, faults cleared, the attempts aged past every grace period
 * (the store's clock moved: their start time set back 20 minutes), reconciliation, the
 * pre-authorization watch and the ledger sync run twice; then the eventual invariants.
 */
export async function quiesce(model: Model, world: World): Promise<string> {
  await still(world)
  const delivered = await deliveredWebhooks(world)
  await until(async () => handedOver >= delivered, 30000, `handover of ${delivered} webhooks (${handedOver} handed over)`)
  await control(world, "faults", undefined, "DELETE")
  await still(world)
  const db = world.container().resolve<Knex>(ContainerRegistrationKeys.PG_CONNECTION)
  await db.raw(`UPDATE sipay_payment_attempt SET created_at = created_at - interval '20 minutes' WHERE session_id = ANY(?)`, [sessionsOf(model)])
  for (let round = 0; round < 2; round++) {
    await runReconciliation(world)
    await runPreAuthorizationWatch(world)
    await runLedgerSync(world, model)
    await still(world)
  }
  const problems = await eventualViolations(world, model)
  if (problems.length) {
    const seen = await diagnosis(world, model, problems)
    throw new Error(`eventual invariant broken after quiescence:\n  ${problems.join("\n  ")}\nwhat the store and the gateway hold for it (a diagnosis; the oracle does not read it):\n  ${seen.join("\n  ")}\nsequence:\n  ${model.log.join("\n  ")}`)
  }
  const differences = await auditDifferences(world, model)
  if (differences.length) {
    throw new Error(`the merchant's audit reports differences after quiescence:\n  ${differences.join("\n  ")}\nsequence:\n  ${model.log.join("\n  ")}`)
  }
  return "quiet, eventual invariants hold, the audit agrees"
}
