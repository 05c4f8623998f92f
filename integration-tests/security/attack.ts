import { appendFileSync, mkdirSync, writeFileSync } from "node:fs"
import { createServer, request as httpRequest, Server } from "node:http"
import { basename, dirname, join, relative, resolve } from "node:path"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { SipayStack, useSipayStack } from "../harness/stack"
import { logText, rememberBody, rememberToken, secretsIn, startLogWatch, stopLogWatch, tokenOfHostedPageUrl, watchLogger } from "./log-watch"

/**
 * The security suite's harness. An attack is judged only by what the harness observes before and
 * after it (Medusa orders and payments, the sandbox gateway's sales and refunds, the plugin's
 * records): `outcome` in the report is computed here from `Expectation.check`, never written by a test.
 */

export type Observed = {
  /** Medusa orders (query.graph). */
  orders: number
  /** Medusa payments with at least one capture. */
  capturedPayments: number
  /** Sale records at the sandbox, whatever their outcome: every card try that reached the gateway. */
  gatewaySales: number
  /** Refunds + cancels (merchant cancel of a sale or of a pre-authorization) recorded at the sandbox. */
  gatewayRefunds: number
  /** Gateway API calls by operation ("checkstatus", "paySmart2D", "paySmart3D", "token", ...), counted by the suite's proxy. */
  gatewayCalls?: Record<string, number>
  /** invoice_id -> status of the plugin's payment attempts. */
  attempts: Record<string, string>
  /** The plugin's recurring charge rows: id -> "status|attempts|gateway order|order|action date". */
  recurringCharges: Record<string, string>
  /** Gateway sales still Pre-Authorization and uncaptured (reserved). */
  preAuthorizedOpen: number
  /** Sales with money taken or reserved at the sandbox (state completed). */
  gatewayPaid?: number
  /** Every `ip` the plugin sent the gateway, one per sale record, in the sandbox's order. */
  gatewayClientIps?: string[]
}

export type Expectation = {
  /** The table's "expected end state", human text. */
  text: string
  /** [] = holds; else the violated facts. */
  check: (before: Observed, after: Observed, extra: Record<string, unknown>) => string[]
}

export type AttackRow = { attack: string; point: string; status: "closed" | "mitigated" }

export type AttackContext = {
  /** The spec file (its __filename): the report names it relative to the repository. */
  file: string
  stack: SipayStack
  getContainer: () => MedusaContainer
  /** Gateway call counts (set by useSecurityStack). */
  gatewayCalls?: GatewayCallCounter
}

const REPOSITORY = resolve(__dirname, "..", "..")

export { RUN_LONG_WINDOW_SECONDS } from "../harness/stack"

export type GatewayCallCounter = { counts: Record<string, number>; url: string }

/** The last row of every file's table: what the app wrote during the file's run. */
const logRow = (file: string): AttackRow => ({
  attack: `while ${basename(file)} ran: no card number (nor its first 10 digits), CVV or hosted-page token in the app's request log, stdout or logger (NODE_ENV=production)`,
  point: "N2, N7",
  status: "closed",
})

/**
 * useSipayStack plus a counting proxy in front of the sandbox's API: the app's SIPAY_BASE_URL points
 * at the proxy, which forwards every request unchanged and counts it by operation. The app runs with
 * NODE_ENV=production (Medusa's request log on, as in a real store; the sandbox allowed as the gateway
 * there by `allowSandboxInProduction`), and what it writes is scanned for card data and hosted-page
 * tokens when the file ends (a row of the report). Call at the top of a suite, before
 * medusaIntegrationTestRunner.
 */
export function useSecurityStack(options: { env?: Record<string, string> } = {}): { stack: SipayStack; gatewayCalls: GatewayCallCounter } {
  const stack = useSipayStack({ ...options, env: { NODE_ENV: "production", SIPAY_ALLOW_SANDBOX_IN_PRODUCTION: "true", ...options.env } })
  const gatewayCalls: GatewayCallCounter = { counts: {}, url: "" }
  let proxy: Server | undefined
  let file = ""
  beforeAll(() => {
    startLogWatch()
    file = relative(REPOSITORY, String(expect.getState().testPath ?? ""))
  })
  afterAll(() => {
    const text = logText()
    stopLogWatch()
    // To read what was captured (test data only): SIPAY_SECURITY_LOG_DUMP=<folder>.
    if (process.env.SIPAY_SECURITY_LOG_DUMP) {
      mkdirSync(process.env.SIPAY_SECURITY_LOG_DUMP, { recursive: true })
      writeFileSync(join(process.env.SIPAY_SECURITY_LOG_DUMP, `${basename(file)}.log`), text)
    }
    const violations = secretsIn(text).map((secret) => `${secret} in what the app wrote`)
    if (!text.includes('"level":"http"')) violations.push("no request log line was captured: the check would see nothing")
    const row = logRow(file)
    appendReportRow({ file, ...row, expected: "nothing of a card or a token in the log", violations })
    if (violations.length) {
      throw new Error(`${row.attack}: ${violations.join("; ")}`)
    }
  })
  beforeAll(async () => {
    const target = new URL(stack.sandbox.link_base)
    proxy = createServer((req, res) => {
      const path = String(req.url ?? "/")
      const operation = path.replace(/^\/ccpayment\/(api\/)?/, "").replace(/[?#].*$/, "").replace(/\/[A-Za-z0-9_-]{16,}$/, "") || path
      gatewayCalls.counts[operation] = (gatewayCalls.counts[operation] ?? 0) + 1
      const forwarded = httpRequest(
        { host: target.hostname, port: target.port, method: req.method, path, headers: { ...req.headers, host: target.host } },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers)
          answer.pipe(res)
        }
      )
      forwarded.on("error", () => {
        // The sandbox dropped the connection (a fault under test): the app meets the same.
        res.destroy()
      })
      req.pipe(forwarded)
    })
    await new Promise<void>((done) => proxy!.listen(0, "127.0.0.1", () => done()))
    const address = proxy.address()
    const port = typeof address === "object" && address ? address.port : 0
    gatewayCalls.url = `http://127.0.0.1:${port}/ccpayment`
    process.env.SIPAY_BASE_URL = gatewayCalls.url
    process.env.SIPAY_PANEL_BASE_URL = gatewayCalls.url
  })
  afterAll(async () => {
    proxy?.closeAllConnections()
    await new Promise((done) => proxy?.close(done))
  })
  return { stack, gatewayCalls }
}

type SandboxSale = {
  invoice_id: string
  state: string
  reason: string
  transaction_type: string
  captured_minor: number
  refunds: unknown[]
  preauth: { state: string } | null
  payer?: Record<string, string>
}

/** What the attack could have changed, measured from Medusa, the plugin's module and the sandbox. */
export async function observe(ctx: AttackContext): Promise<Observed> {
  const container = ctx.getContainer()
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data: orders } = await query.graph({ entity: "order", fields: ["id"] })
  const payments = await (container.resolve(Modules.PAYMENT) as any).listPayments({}, { relations: ["captures"], take: null })
  const capturedPayments = (payments as { captures?: unknown[]; captured_at?: unknown }[]).filter(
    (payment) => (payment.captures?.length ?? 0) > 0 || Boolean(payment.captured_at)
  ).length
  const sipay = container.resolve("sipay") as any
  const attemptRows: { invoice_id: string; status: string }[] = await sipay.listPaymentAttempts({}, { take: null })
  const chargeRows: { id: string; status: string; attempts: number | null; gateway_order_id: string | null; order_id: string | null; action_date: string | null }[] =
    await sipay.listRecurringCharges({}, { take: null })
  const sales = (await (await fetch(`${ctx.stack.sandbox.link_base}/__sandbox/sales`)).json()) as SandboxSale[]
  return {
    orders: orders.length,
    capturedPayments,
    gatewaySales: sales.length,
    gatewayPaid: sales.filter((sale) => sale.state === "completed").length,
    gatewayRefunds: sales.reduce(
      (sum, sale) => sum + sale.refunds.length + (sale.preauth?.state === "cancelled" ? 1 : 0) + (sale.state === "failed" && sale.reason === "Cancelled" && !sale.preauth ? 1 : 0),
      0
    ),
    gatewayCalls: ctx.gatewayCalls ? { ...ctx.gatewayCalls.counts } : undefined,
    attempts: Object.fromEntries(attemptRows.map((row) => [row.invoice_id, row.status])),
    recurringCharges: Object.fromEntries(
      chargeRows.map((row) => [row.id, [row.status, row.attempts ?? "", row.gateway_order_id ?? "", row.order_id ?? "", row.action_date ?? ""].join("|")])
    ),
    preAuthorizedOpen: sales.filter((sale) => sale.transaction_type === "Pre-Authorization" && sale.state === "completed" && sale.preauth?.state === "reserved").length,
    gatewayClientIps: sales.map((sale) => String(sale.payer?.ip ?? "")),
  }
}

/**
 * Runs one attack: observes, runs `perform` (which may return extra observations: HTTP statuses,
 * response flags), observes again, evaluates `expected.check`, appends a result row to
 * $SIPAY_SECURITY_REPORT and fails the test with the violations if any.
 */
export async function attack(
  ctx: AttackContext,
  row: AttackRow,
  expected: Expectation,
  perform: () => Promise<Record<string, unknown> | void>
): Promise<void> {
  watchLogger(ctx.getContainer())
  const before = await observe(ctx)
  let extra: Record<string, unknown> = {}
  let thrown: unknown
  try {
    extra = (await perform()) ?? {}
  } catch (error) {
    thrown = error
  }
  const after = await observe(ctx)
  const violations = thrown ? [`the attack could not be run: ${(thrown as Error)?.message ?? String(thrown)}`] : expected.check(before, after, extra)
  appendReportRow({ file: relative(REPOSITORY, ctx.file), ...row, expected: expected.text, violations })
  if (violations.length) {
    throw new Error(`${row.attack}: expected "${expected.text}", but ${violations.join("; ")}`)
  }
}

function appendReportRow(row: AttackRow & { file: string; expected: string; violations: string[] }): void {
  const report = process.env.SIPAY_SECURITY_REPORT
  if (!report) return
  mkdirSync(dirname(resolve(report)), { recursive: true })
  const { file, attack, point, status, expected, violations } = row
  appendFileSync(report, `${JSON.stringify({ file, attack, point, status, expected, outcome: violations.length ? violations.join("; ") : "holds", violations })}\n`)
}

// ---------------------------------------------------------------------------------------------
// Ready-made expectations. Each compares the two observations (and what `perform` reported).

const COUNTERS = ["orders", "capturedPayments", "gatewaySales", "gatewayRefunds", "preAuthorizedOpen"] as const
type Counter = (typeof COUNTERS)[number]

function delta(before: Observed, after: Observed, counter: Counter): number {
  return after[counter] - before[counter]
}

function changedAttempts(before: Observed, after: Observed): string[] {
  const changes: string[] = []
  for (const [invoice, status] of Object.entries(after.attempts)) {
    if (!(invoice in before.attempts)) changes.push(`new attempt ${invoice} (${status})`)
    else if (before.attempts[invoice] !== status) changes.push(`attempt ${invoice} ${before.attempts[invoice]} -> ${status}`)
  }
  return changes
}

function changedCharges(before: Observed, after: Observed): string[] {
  const changes: string[] = []
  for (const [id, value] of Object.entries(after.recurringCharges)) {
    if (!(id in before.recurringCharges)) changes.push(`new recurring charge record ${value}`)
    else if (before.recurringCharges[id] !== value) changes.push(`recurring charge record ${before.recurringCharges[id]} -> ${value}`)
  }
  for (const id of Object.keys(before.recurringCharges)) {
    if (!(id in after.recurringCharges)) changes.push(`recurring charge record ${id} removed`)
  }
  return changes
}

const LABELS: Record<Counter, string> = {
  orders: "orders",
  capturedPayments: "captured payments",
  gatewaySales: "gateway sales",
  gatewayRefunds: "gateway refunds/cancels",
  preAuthorizedOpen: "open pre-authorizations",
}

/** No order, payment, gateway sale, refund, attempt or recurring record appeared or changed. */
export function nothingChanged(options: { allowNewAttempts?: boolean } = {}): Expectation {
  return {
    text: options.allowNewAttempts ? "no order, charge, refund or record change" : "nothing changed (orders, charges, refunds, attempts, records)",
    check: (before, after) => [
      ...COUNTERS.filter((counter) => delta(before, after, counter) !== 0).map(
        (counter) => `${LABELS[counter]} ${before[counter]} -> ${after[counter]}`
      ),
      ...(options.allowNewAttempts ? changedAttempts(before, after).filter((change) => !change.startsWith("new attempt")) : changedAttempts(before, after)),
      ...changedCharges(before, after),
    ],
  }
}

/** Exactly one new order; with captured, exactly one new captured payment and no pre-authorization left open. */
export function exactlyOneOrder(options: { captured?: boolean } = {}): Expectation {
  return {
    text: options.captured ? "exactly one order, captured once" : "exactly one order",
    check: (before, after) => {
      const problems: string[] = []
      if (delta(before, after, "orders") !== 1) problems.push(`${delta(before, after, "orders")} new orders`)
      if (options.captured) {
        if (delta(before, after, "capturedPayments") !== 1) problems.push(`${delta(before, after, "capturedPayments")} new captured payments`)
        if (delta(before, after, "preAuthorizedOpen") > 0) problems.push(`${delta(before, after, "preAuthorizedOpen")} pre-authorizations left open`)
      }
      return problems
    },
  }
}

/** `perform` reported `status` (one request) or `statuses` (every request) equal to the expected HTTP status. */
export function refusedWith(status: number): Expectation {
  return {
    text: `refused with HTTP ${status}`,
    check: (_before, _after, extra) => {
      const seen = Array.isArray(extra.statuses) ? (extra.statuses as unknown[]) : "status" in extra ? [extra.status] : []
      if (!seen.length) return ["no HTTP status was observed"]
      const other = seen.filter((value) => value !== status)
      return other.length ? [`answered ${[...new Set(other)].join(", ")} instead of ${status} (${other.length} of ${seen.length})`] : []
    },
  }
}

/** At most `limit` new sale records at the gateway: card tries that reached it. */
export function gatewaySalesAtMost(limit: number): Expectation {
  return {
    text: `at most ${limit} card tries reach the gateway`,
    check: (before, after) => (delta(before, after, "gatewaySales") > limit ? [`${delta(before, after, "gatewaySales")} tries reached the gateway`] : []),
  }
}

/** At most `limit` new payment attempts. */
export function newAttemptsAtMost(limit: number): Expectation {
  return {
    text: `at most ${limit} new payment attempts`,
    check: (before, after) => {
      const created = Object.keys(after.attempts).filter((invoice) => !(invoice in before.attempts)).length
      return created > limit ? [`${created} new payment attempts`] : []
    },
  }
}

/** At most `limit` calls of a gateway operation (needs useSecurityStack's counter). */
export function gatewayCallsAtMost(operation: string, limit: number): Expectation {
  return {
    text: `at most ${limit} ${operation} calls`,
    check: (before, after) => {
      if (!after.gatewayCalls) return ["gateway calls are not counted (use useSecurityStack)"]
      const calls = (after.gatewayCalls[operation] ?? 0) - (before.gatewayCalls?.[operation] ?? 0)
      return calls > limit ? [`${calls} ${operation} calls`] : []
    },
  }
}

/** Every `ip` the plugin sent the gateway in new sales is a valid IPv4/IPv6 address (and, when given, one of `allowed`). */
export function gatewayIpsValid(allowed?: string[], options: { atLeast?: number } = {}): Expectation {
  return {
    text: allowed ? `the ip sent to the gateway is ${allowed.join(" or ")}` : "the ip sent to the gateway is a valid IP",
    check: (before, after) => {
      const { isIP } = require("node:net") as typeof import("node:net")
      const sent = (after.gatewayClientIps ?? []).slice(before.gatewayClientIps?.length ?? 0)
      const problems = sent
        .filter((ip) => !isIP(ip) || (allowed && !allowed.includes(ip)))
        .map((ip) => `the gateway was sent ip ${JSON.stringify(ip).slice(0, 60)}`)
      if (options.atLeast !== undefined && sent.length < options.atLeast) {
        problems.push(`only ${sent.length} of the ${options.atLeast} tries reached the gateway, so the ip sent was not shown`)
      }
      return problems
    },
  }
}

/** A fact `perform` reported, checked by the harness (e.g. { revealed: false }). */
export function reported(text: string, facts: Record<string, unknown>): Expectation {
  return {
    text,
    check: (_before, _after, extra) =>
      Object.entries(facts)
        .filter(([key, value]) => JSON.stringify(extra[key]) !== JSON.stringify(value))
        .map(([key, value]) => `${key} was ${JSON.stringify(extra[key])}, not ${JSON.stringify(value)}`),
  }
}

/** Every expectation holds; the text is theirs joined. */
export function allOf(...expectations: Expectation[]): Expectation {
  return {
    text: expectations.map((e) => e.text).join("; "),
    check: (before, after, extra) => expectations.flatMap((e) => e.check(before, after, extra)),
  }
}

/** An HTTP request that never throws on a status: what an attacker's client sees. */
export async function send(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string | URLSearchParams; json?: unknown } = {}
): Promise<{ status: number; headers: Headers; text: string; json: any }> {
  const headers = { ...(init.headers ?? {}) }
  let body: string | undefined
  rememberBody(init.json)
  if (init.json !== undefined) {
    headers["content-type"] ??= "application/json"
    body = JSON.stringify(init.json)
  } else if (init.body instanceof URLSearchParams) {
    headers["content-type"] ??= "application/x-www-form-urlencoded"
    body = init.body.toString()
  } else {
    body = init.body
  }
  const response = await fetch(url, { method: init.method ?? (body === undefined ? "GET" : "POST"), headers, body, redirect: "manual" })
  const text = await response.text()
  let json: any = null
  try {
    json = JSON.parse(text)
  } catch {
    json = null
  }
  if (typeof json?.url === "string" && /token=/.test(json.url)) {
    rememberToken(tokenOfHostedPageUrl(json.url))
  }
  return { status: response.status, headers: response.headers, text, json }
}
