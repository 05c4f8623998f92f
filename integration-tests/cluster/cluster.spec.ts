import { readFileSync } from "node:fs"
import { join } from "node:path"
import { PAYING_CARD, payAtGateway, waitFor } from "../harness/shopper"
import { RUN_LONG_WINDOW_SECONDS } from "../harness/stack"
import { startTestCluster, type Cluster, type Instance } from "./cluster-harness"
import { DEFAULT_RECONCILE_SCHEDULE } from "../../src/lib/reconcile-defaults"

/**
 * The plugin as a cluster runs it (issue 15): two Medusa server processes and one worker process
 * (MEDUSA_WORKER_MODE), started by `npm run demo -- --cluster` on a database of their own and a Redis
 * database index of their own, sharing the sandbox gateway over HTTP. One boot for every scenario;
 * the scenario that kills a server runs last. Each scenario aims requests at an instance through the
 * proxy and checks how many each one handled.
 */

jest.setTimeout(600000)

// Limits set for this suite: every request comes from this machine; the per-session limit is what the
// rate-limit scenario counts across the two servers.
const RATE_LIMITS = { windowSeconds: RUN_LONG_WINDOW_SECONDS, perSession: 4, perCart: 50, perCard: 1000, perAddress: 100000, installmentsPerAddress: 100000, declineBudget: 100000, declineWindowSeconds: RUN_LONG_WINDOW_SECONDS }

const SUITE_ENV = {
  SIPAY_RATE_LIMITS: JSON.stringify(RATE_LIMITS),
  // The reconciliation job on its default schedule, age and back-off, and the settle lock's default
  // timings (issue 27: what a store gets); a scenario may also run it at once (the admin route). The
  // other jobs run when a scenario says so, never on a timer racing the assertions.
  // (integration-tests/setup.js turns every job's schedule off for the single-process suites.)
  SIPAY_RECONCILE_SCHEDULE: DEFAULT_RECONCILE_SCHEDULE,
  SIPAY_PRE_AUTHORIZATION_SCHEDULE: "off",
  SIPAY_LEDGER_SYNC_SCHEDULE: "off",
}

let cluster: Cluster
const figures: Record<string, Record<string, unknown>> = {}
let startedAt = 0

beforeAll(async () => {
  startedAt = Date.now()
  cluster = await startTestCluster(SUITE_ENV)
  figures.boot = { seconds: Math.round((Date.now() - startedAt) / 1000) }
})

afterAll(async () => {
  figures.suite = { seconds: Math.round((Date.now() - startedAt) / 1000) }
  process.stdout.write(`\n[cluster figures] ${JSON.stringify(figures)}\n`)
  await cluster?.stop()
})

const store = () => ({ "x-publishable-api-key": cluster.ready.publishable_key })

/** An instance's log as it is now. */
const readLog = (name: Instance | "worker") => readFileSync(join(cluster.logs, `medusa-${name}.log`), "utf8")

/**
 * An instance's log once `line` is in it, or as it is after 10 s: its output reaches the file through
 * the harness's pipe, a moment after the process wrote it.
 */
async function logWith(name: Instance | "worker", line: RegExp): Promise<string> {
  await waitFor(async () => line.test(readLog(name)), 10000, 100).catch(() => undefined)
  return readLog(name)
}

async function ok(answer: Promise<{ status: number; body: any }>, what: string) {
  const { status, body } = await answer
  if (status >= 300) throw new Error(`${what} answered ${status}: ${JSON.stringify(body)}`)
  return body
}

let variantIds: string[] = []
let shoppers = 0
async function newCart(to: Instance): Promise<string> {
  if (!variantIds.length) {
    const products = await ok(cluster.call(to, "GET", "/store/products?fields=id,*variants", undefined, store()), "products")
    variantIds = products.products.map((product: any) => product.variants[0].id)
  }
  const address = { first_name: "Ayşe", last_name: "Yılmaz", address_1: "İstiklal Cd. 1", city: "İstanbul", country_code: "tr", postal_code: "34430", phone: "5551234567" }
  const body = await ok(
    cluster.call(to, "POST", "/store/carts", { region_id: cluster.ready.region_id, email: `ayse+${++shoppers}@example.com`, items: [{ variant_id: variantIds[0], quantity: 2 }], shipping_address: address, billing_address: address }, store()),
    "create cart"
  )
  return body.cart.id
}

async function newSession(to: Instance, cartId: string, providerId: string): Promise<string> {
  const collection = await ok(cluster.call(to, "POST", "/store/payment-collections", { cart_id: cartId }, store()), "payment collection")
  const withSession = await ok(
    cluster.call(to, "POST", `/store/payment-collections/${collection.payment_collection.id}/payment-sessions`, { provider_id: providerId }, store()),
    "payment session"
  )
  return withSession.payment_collection.payment_sessions.find((session: any) => session.provider_id === providerId).id
}

function threeDForm(to: Instance, sessionId: string, cartId: string) {
  return cluster.call(to, "POST", `/store/sipay/payment-sessions/${sessionId}/3d-form`, { cart_id: cartId, installments_number: 1 }, store())
}

function payDirect(to: Instance, sessionId: string, cartId: string) {
  const card = { holder_name: PAYING_CARD.cc_holder_name, number: PAYING_CARD.cc_no, expiry_month: PAYING_CARD.expiry_month, expiry_year: PAYING_CARD.expiry_year, cvv: PAYING_CARD.cvv }
  return cluster.call(to, "POST", `/store/sipay/payment-sessions/${sessionId}/pay-2d`, { cart_id: cartId, installments_number: 1, card }, store())
}

/** A 3D payment made at the gateway by the shopper, its return to the store not yet delivered. */
async function paidAtGateway(cartOn: Instance, formOn: Instance) {
  const cartId = await newCart(cartOn)
  const sessionId = await newSession(formOn, cartId, "pp_sipay_sipay")
  const form = await ok(threeDForm(cartOn, sessionId, cartId), "3d form")
  const result = await payAtGateway(form)
  return { cartId, sessionId, invoiceId: form.invoice_id as string, result }
}

async function ordersOf(cartId: string): Promise<string[]> {
  const rows = await cluster.sql(`select order_id from order_cart where cart_id = $1 and deleted_at is null`, [cartId])
  return rows.map((row) => row.order_id)
}

async function paymentsOf(cartId: string) {
  return cluster.sql(
    `select p.id, p.amount, p.captured_at,
            (select count(*)::int from capture c where c.payment_id = p.id and c.deleted_at is null) as captures,
            (select coalesce(sum(c.amount), 0)::float from capture c where c.payment_id = p.id and c.deleted_at is null) as captured,
            (select count(*)::int from refund r where r.payment_id = p.id and r.deleted_at is null) as refunds,
            (select coalesce(sum(r.amount), 0)::float from refund r where r.payment_id = p.id and r.deleted_at is null) as refunded
       from payment p join cart_payment_collection cpc on cpc.payment_collection_id = p.payment_collection_id
      where cpc.cart_id = $1 and p.deleted_at is null and cpc.deleted_at is null`,
    [cartId]
  )
}

/** Every event the servers queued (webhooks are delayed 5 s by Medusa) has been handled by the worker. */
async function eventsDrained(): Promise<void> {
  await waitFor(async () => (await cluster.pendingEvents()) === 0, 180000, 250)
}

/** Each server handled at least `least` of the scenario's requests: no scenario passes with all traffic on one. */
function expectEachServer(requests: Record<Instance, number>, least: number) {
  expect(requests["server-a"]).toBeGreaterThanOrEqual(least)
  expect(requests["server-b"]).toBeGreaterThanOrEqual(least)
}

function delta(after: Record<string, number>, before: Record<string, number>) {
  const out: Record<string, number> = {}
  for (const key of new Set([...Object.keys(after), ...Object.keys(before)])) {
    const change = (after[key] ?? 0) - (before[key] ?? 0)
    if (change) out[key] = change
  }
  return out
}

describe("the plugin as a cluster: two servers and a worker", () => {
  it("50 checkouts spread over both servers fetch the gateway token once for the whole cluster", async () => {
    await cluster.requests(true)
    const before = await cluster.gatewayCalls()
    const instances: Instance[] = ["server-a", "server-b"]
    const carts: string[] = []
    const checkout = async (i: number) => {
      // Each step on the other server than the one before it.
      const on = (step: number) => instances[(i + step) % 2]
      const cartId = await newCart(on(0))
      const sessionId = await newSession(on(1), cartId, "pp_sipay-2d_sipay")
      const paid = await ok(payDirect(on(2), sessionId, cartId), "pay-2d")
      expect(paid).toMatchObject({ status: "paid", cart_id: cartId })
      carts.push(cartId)
    }
    for (let batch = 0; batch < 50; batch += 10) {
      await Promise.all(Array.from({ length: 10 }, (_, i) => checkout(batch + i)))
    }
    await eventsDrained() // the sale webhooks of the 50 sales, handled on the worker
    const calls = delta(await cluster.gatewayCalls(), before)
    const requests = await cluster.requests()
    const orders = (await Promise.all(carts.map(ordersOf))).map((ids) => ids.length)
    expect(orders).toEqual(Array(50).fill(1))
    expect(calls.paySmart2D).toBe(50)
    expect((await cluster.gatewayCalls()).token).toBe(1)
    // 5 requests per checkout (products once), spread evenly: no scenario passes with all traffic on one server.
    expect(requests["server-a"]).toBeGreaterThanOrEqual(100)
    expect(requests["server-b"]).toBeGreaterThanOrEqual(100)
    figures.checkouts50 = { orders: orders.length, charges: calls.paySmart2D, refunds: calls.refund ?? 0, token_fetches_total: (await cluster.gatewayCalls()).token, requests, gateway_calls: calls }
  })

  it("the same 3D return sent to both servers at once, and the sale webhook delivered three times across them, make one order captured once", async () => {
    const payment = await paidAtGateway("server-a", "server-b")
    const before = await cluster.gatewayCalls()
    await cluster.requests(true)
    const returns = await Promise.all([cluster.postForm("server-a", payment.result.action, payment.result.fields), cluster.postForm("server-b", payment.result.action, payment.result.fields)])
    expect(returns.map((answer) => answer.status)).toEqual([303, 303])
    // The sandbox's own delivery went through the proxy; the same webhook is delivered again to each server.
    const webhook: any = await waitFor(async () =>
      ((await cluster.sandbox("GET", "webhooks")) as any[]).find((entry) => entry.kind === "sale" && entry.body?.invoice_id === payment.invoiceId && entry.status === 200)
    )
    const replays = await Promise.all([cluster.postForm("server-a", webhook.url, webhook.body), cluster.postForm("server-b", webhook.url, webhook.body)])
    expect(replays.map((answer) => answer.status)).toEqual([200, 200])
    await eventsDrained()
    const requests = await cluster.requests()
    const calls = delta(await cluster.gatewayCalls(), before)
    expect(await ordersOf(payment.cartId)).toHaveLength(1)
    const [paid] = await paymentsOf(payment.cartId)
    expect(paid).toMatchObject({ captures: 1, refunds: 0 })
    expect(calls.paySmart3D ?? 0).toBe(0) // nothing charged again: the one charge was the shopper's
    expect(calls.confirmPayment ?? 0).toBe(0)
    // Each server had a return and a replayed webhook; the proxy gave the sandbox's webhook to one of them.
    expect(requests["server-a"]).toBeGreaterThanOrEqual(2)
    expect(requests["server-b"]).toBeGreaterThanOrEqual(2)
    expect(requests["server-a"] + requests["server-b"]).toBeGreaterThanOrEqual(4)
    // Medusa's webhook route ran on the servers; the plugin's subscriber only on the worker.
    const handled = /Processing payment\.webhook_received .*which has [1-9]\d* subscriber/
    expect(await logWith("worker", handled)).toMatch(handled)
    expect(readLog("server-a") + readLog("server-b")).not.toMatch(/Processing payment\.webhook_received/)
    figures.returnTwiceWebhookThrice = { orders: 1, captures: paid.captures, refunds: paid.refunds, token_fetches_total: (await cluster.gatewayCalls()).token, requests, gateway_calls: calls }
  })

  it("a full refund requested on both servers at once is made once at the gateway and recorded once", async () => {
    const cartId = await newCart("server-a")
    const sessionId = await newSession("server-b", cartId, "pp_sipay-2d_sipay")
    expect(await ok(payDirect("server-a", sessionId, cartId), "pay-2d")).toMatchObject({ status: "paid" })
    const [payment] = await paymentsOf(cartId)
    const invoice = (await cluster.sql(`select invoice_id from sipay_payment_attempt where order_id = $1 and status = 'paid'`, [(await ordersOf(cartId))[0]]))[0].invoice_id
    const before = await cluster.gatewayCalls()
    await cluster.requests(true)
    const headers = await cluster.admin()
    await cluster.requests(true)
    const answers = await Promise.all(
      (["server-a", "server-b"] as Instance[]).map((to) => cluster.call(to, "POST", `/admin/payments/${payment.id}/refund`, { amount: Number(payment.amount) }, headers))
    )
    const requests = await cluster.requests()
    const calls = delta(await cluster.gatewayCalls(), before)
    const atGateway = await cluster.gateway.checkStatus(invoice)
    const [after] = await paymentsOf(cartId)
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1)
    expect(Number(atGateway.totalRefundedAmount)).toBe(Number(payment.amount))
    expect(after).toMatchObject({ refunds: 1, refunded: Number(payment.amount) })
    expectEachServer(requests, 1) // its request (a late sale webhook may add one)
    figures.refundOnBoth = { statuses: answers.map((answer) => answer.status), refunds_medusa: after.refunds, refunded_at_gateway: atGateway.totalRefundedAmount, requests, gateway_calls: calls }
  })

  it("a partial capture requested on both servers at once is taken once at the gateway and recorded once", async () => {
    const headers = await cluster.admin()
    await ok(cluster.call("server-a", "POST", "/admin/sipay/settings", { capture: false }, headers), "settings: pre-authorize")
    try {
      const cartId = await newCart("server-b")
      const sessionId = await newSession("server-a", cartId, "pp_sipay-2d_sipay")
      expect(await ok(payDirect("server-b", sessionId, cartId), "pay-2d")).toMatchObject({ status: "authorized" })
      const [payment] = await paymentsOf(cartId)
      expect(payment.captured_at).toBeNull()
      const [{ invoice_id: invoice }] = await cluster.sql(`select invoice_id from sipay_payment_attempt where session_id = $1 and status = 'authorized'`, [sessionId])
      const before = await cluster.gatewayCalls()
      await cluster.requests(true)
      const answers = await Promise.all(
        (["server-a", "server-b"] as Instance[]).map((to) => cluster.call(to, "POST", `/admin/sipay/payments/${payment.id}/capture`, { amount: "100.00" }, headers))
      )
      const requests = await cluster.requests()
      const calls = delta(await cluster.gatewayCalls(), before)
      const [after] = await paymentsOf(cartId)
      const atGateway = await cluster.gateway.checkStatus(invoice)
      // One takes the amount; the other answers with the payment already captured, or refuses it (4xx).
      expect(answers.some((answer) => answer.status === 200)).toBe(true)
      expect(answers.every((answer) => answer.status === 200 || (answer.status >= 400 && answer.status < 500))).toBe(true)
      // The gateway took 100.00 once: the pre-authorization is completed (a second confirmation is refused there).
      expect(atGateway).toMatchObject({ status: "Completed", transactionType: "Auth" })
      expect(after).toMatchObject({ captures: 1, captured: 100 })
      expectEachServer(requests, 1) // its request (a late sale webhook may add one)
      figures.partialCaptureOnBoth = {
        statuses: answers.map((answer) => answer.status),
        captures_medusa: after.captures,
        captured: after.captured,
        at_gateway: { status: atGateway.status, type: atGateway.transactionType, amount: atGateway.transactionAmount },
        requests,
        gateway_calls: calls,
      }
    } finally {
      await ok(cluster.call("server-a", "POST", "/admin/sipay/settings", { capture: null }, headers), "settings: capture as the options say")
    }
  })

  it("the reconciliation job settling a payment whose redirect was lost, while the late redirect lands on the other server, makes one order", async () => {
    const payment = await paidAtGateway("server-b", "server-a")
    const headers = await cluster.admin()
    const before = await cluster.gatewayCalls()
    await cluster.requests(true)
    const [job, late] = await Promise.all([
      cluster.call("server-a", "POST", "/admin/sipay/payment-attempts/reconcile", {}, headers),
      cluster.postForm("server-b", payment.result.action, payment.result.fields),
    ])
    expect(job.status).toBe(200)
    expect(late.status).toBe(303)
    await eventsDrained()
    const requests = await cluster.requests()
    const calls = delta(await cluster.gatewayCalls(), before)
    expect(await ordersOf(payment.cartId)).toHaveLength(1)
    const [paid] = await paymentsOf(payment.cartId)
    expect(paid).toMatchObject({ captures: 1, refunds: 0 })
    expect(requests["server-a"]).toBeGreaterThanOrEqual(1)
    expect(requests["server-b"]).toBeGreaterThanOrEqual(1)
    figures.jobAndLateRedirect = { orders: 1, captures: paid.captures, job: job.body.reconciliation, requests, gateway_calls: calls }
  })

  it("rate limits are counted across the instances: the fifth attempt of a session is refused whichever server gets it", async () => {
    const cartId = await newCart("server-a")
    const sessionId = await newSession("server-b", cartId, "pp_sipay_sipay")
    await cluster.requests(true)
    const order: Instance[] = ["server-a", "server-b", "server-a", "server-b", "server-a"]
    const statuses: number[] = []
    for (const to of order) {
      statuses.push((await threeDForm(to, sessionId, cartId)).status)
    }
    const requests = await cluster.requests()
    // In process, server-a would have counted 3 and server-b 2: neither past the limit of 4.
    expect(statuses).toEqual([200, 200, 200, 200, 429])
    expect(requests).toEqual({ "server-a": 3, "server-b": 2 })
    figures.rateLimits = { statuses, requests }
  })

  it('"sync now" asked of a server instance is run by the worker (its memory and CPU, not the server\'s) and the worker\'s report is the admin\'s answer', async () => {
    const headers = await cluster.admin()
    let answer = await cluster.call("server-a", "POST", "/admin/sipay/transactions/sync", {}, headers)
    // The worker's own ledger job may be running: "sync now" then answers 409, as in one process.
    for (let attempt = 0; answer.status === 409 && attempt < 20; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 1000))
      answer = await cluster.call("server-a", "POST", "/admin/sipay/transactions/sync", {}, headers)
    }
    expect(answer.status).toBe(200)
    expect(answer.body.sync).toMatchObject({ ran: true, ran_in: "worker", actions: { failed: [] } })
    const [day] = answer.body.sync.days
    expect(day.error).toBeUndefined()
    expect(day.sales).toBeGreaterThan(0) // the earlier tests' checkouts
    const [ledger] = await cluster.sql(`select count(*)::int as n from sipay_ledger_sale where day = $1 and deleted_at is null`, [day.day])
    expect(ledger.n).toBe(day.sales)
    const synced = new RegExp(`Sipay ledger: "sync now" \\S+ from a server instance synced ${day.day}: ${day.sales} sales`)
    expect(await logWith("worker", synced)).toMatch(synced)
    expect(readLog("server-a")).not.toMatch(/no worker took "sync now"/)
    figures.syncNowOnWorker = { day: day.day, sales: day.sales, ms: day.duration_ms }
  })

  it("readiness: /sipay/ready answers 503 naming the locking module (Redis) while server-a cannot reach Redis (its /health stays 200), and 200 again once it can", async () => {
    const probe = async (to: Instance, path = "/sipay/ready") => {
      const response = await fetch(`${cluster.instance(to).url}${path}`)
      const text = await response.text()
      return { status: response.status, body: text.startsWith("{") ? JSON.parse(text) : text }
    }
    expect(await probe("server-a")).toEqual({ status: 200, body: { status: "ready", checks: { database: { ok: true }, locking: { ok: true } } } })
    const cutAt = Date.now()
    await cluster.serverARedis.cut()
    let failing: { status: number; body: any }
    try {
      failing = await waitFor(async () => {
        const answer = await probe("server-a")
        return answer.status === 503 ? answer : null
      }, 30000, 250)
      // What a load balancer needs: this instance out, the other in; Medusa's own /health cannot tell.
      expect(failing.body).toMatchObject({ status: "not_ready", failed: ["locking"], checks: { database: { ok: true }, locking: { ok: false } } })
      expect((await probe("server-a", "/health")).status).toBe(200)
      expect((await probe("server-b")).status).toBe(200)
    } finally {
      await cluster.serverARedis.restore()
    }
    const restoredAt = Date.now()
    await waitFor(async () => (await probe("server-a")).status === 200, 60000, 250)
    const log = await logWith("server-a", /Sipay readiness: ready again/)
    expect(log).toMatch(/Sipay readiness: not ready \(.*locking: /)
    expect(log).toMatch(/Sipay readiness: ready again/)
    figures.readiness = { failed: failing!.body.failed, ready_again_after_restore_s: Math.round((Date.now() - restoredAt) / 1000), outage_s: Math.round((restoredAt - cutAt) / 1000) }
  })

  it("a server killed (SIGKILL) in the middle of settling two 3D returns, webhooks dropped: the retried one is settled by the survivor, the other by reconciliation within 3 minutes, and each shopper who comes back (status route) sees the order", async () => {
    // The gateway's sale webhooks of both payments are lost: only the returns, the shoppers and the job remain.
    await cluster.sandbox("POST", "faults", { operation: "sale_webhook", kind: "drop", times: 2 })
    const retried = await paidAtGateway("server-b", "server-a")
    const abandoned = await paidAtGateway("server-b", "server-a")
    const before = await cluster.gatewayCalls()
    await cluster.requests(true)
    // The gateway is slow to answer server-a's confirmations, so server-a is mid-settle (holding both locks) when it dies.
    await cluster.sandbox("POST", "faults", { operation: "checkstatus", kind: "latency", ms: 15000, times: 2 })
    const onA = [retried, abandoned].map((payment) => cluster.postForm("server-a", payment.result.action, payment.result.fields).catch((error) => error))
    await waitFor(async () => ((await cluster.gatewayCalls()).checkstatus ?? 0) >= (before.checkstatus ?? 0) + 2, 30000, 50)
    process.kill(-cluster.instance("server-a").pid, "SIGKILL")
    const killedAt = Date.now()
    const killedAnswers = await Promise.all(onA)
    expect(await ordersOf(retried.cartId)).toHaveLength(0)
    expect(await ordersOf(abandoned.cartId)).toHaveLength(0)

    // One shopper's browser retries; it reaches the survivor, which waits for the dead server's lock (its 15 s ttl).
    const retry = await cluster.postForm("server-b", retried.result.action, retried.result.fields)
    expect(retry.status).toBe(303)
    expect(retry.location).toContain((await ordersOf(retried.cartId))[0])
    const retrySeconds = (Date.now() - killedAt) / 1000

    // The other never comes back: the worker's reconciliation, on its default schedule, makes the order within 3 minutes.
    await waitFor(async () => (await ordersOf(abandoned.cartId)).length === 1, 180000 - (Date.now() - killedAt), 1000).catch((error: Error) => {
      // What the worker's job did, for the report.
      const worker = readLog("worker").split("\n").filter((line) => /reconcil|Scheduled|lock/i.test(line))
      throw new Error(`${error.message}; the worker's log:\n${worker.slice(-30).join("\n")}`)
    })
    const reconciledSeconds = (Date.now() - killedAt) / 1000
    expect(reconciledSeconds).toBeLessThan(180)

    // Both shoppers come back later (the proxy picks the server: the dead one is out of its rotation): each sees the order.
    await cluster.requests(true)
    const statuses = []
    for (const payment of [retried, abandoned, retried, abandoned]) {
      const answer = await cluster.call(null, "POST", `/store/sipay/payment-sessions/${payment.sessionId}/status`, { cart_id: payment.cartId }, store())
      expect(answer.status).toBe(200)
      expect(answer.body).toEqual({ status: "paid", order_id: (await ordersOf(payment.cartId))[0], code: null, message: null })
      statuses.push(answer.body.status)
    }
    const shopperRequests = await cluster.requests()
    expect(shopperRequests["server-b"]).toBe(4)

    const headers = await cluster.admin()
    const job = await cluster.call("server-b", "POST", "/admin/sipay/payment-attempts/reconcile", {}, headers)
    expect(job.status).toBe(200)
    await eventsDrained()
    const calls = delta(await cluster.gatewayCalls(), before)
    for (const payment of [retried, abandoned]) {
      expect(await ordersOf(payment.cartId)).toHaveLength(1)
      const [paid] = await paymentsOf(payment.cartId)
      expect(paid).toMatchObject({ captures: 1, refunds: 0 })
    }
    // server-a died before answering the returns (the proxy says so).
    expect(killedAnswers.map((answer) => answer.status)).toEqual([502, 502])
    // Still the one token of the whole run, every server and the worker included.
    expect((await cluster.gatewayCalls()).token).toBe(1)
    figures.killMidSettle = {
      orders: 2,
      retry_seconds_after_kill: Math.round(retrySeconds * 10) / 10,
      reconciled_seconds_after_kill: Math.round(reconciledSeconds * 10) / 10,
      status_answers: statuses,
      shopper_requests: shopperRequests,
      token_fetches_total: (await cluster.gatewayCalls()).token,
      gateway_calls: calls,
    }
  })
})
