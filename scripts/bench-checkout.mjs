/**
 * The checkout figures of `npm run bench`: cart to order id through the plugin's flows (2D, 3D with
 * the storefront's own form, the hosted card page) against the same cart through Medusa's
 * `pp_system_default`, in the same run on the same store (the demo stack, admin off, its own data
 * folder and database); then 50 concurrent 2D and 20 concurrent 3D checkouts against as many through
 * `pp_system_default`. Gateway calls per checkout and token fetches come from the sandbox's
 * GET __sandbox/calls. Each shopper has its own client address (X-Forwarded-For from loopback is
 * trusted for the run) and the plugin's rate limits are off, as pp_system_default has none.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { createServer } from "node:net"
import { startDemoStack } from "./lib/demo-stack.mjs"

const CARD = { holder_name: "Ayşe Yılmaz", number: "4508034508034509", expiry_month: "12", expiry_year: String(new Date().getUTCFullYear() + 3), cvv: "000" }
const FORM_CARD = { cc_holder_name: CARD.holder_name, cc_no: CARD.number, expiry_month: CARD.expiry_month, expiry_year: CARD.expiry_year, cvv: CARD.cvv }

const freePort = () =>
  new Promise((resolvePort) => {
    const server = createServer()
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address()
      server.close(() => resolvePort(port))
    })
  })

function readForm(html) {
  const form = /<form[^>]*action="([^"]*)"[^>]*>([\s\S]*?)<\/form>/i.exec(html)
  if (!form) throw new Error(`no form in page: ${html.slice(0, 200)}`)
  const decode = (text) => text.replace(/&amp;/g, "&").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(/&#39;/g, "'")
  const fields = {}
  for (const input of form[2].matchAll(/<input[^>]*>/gi)) {
    const name = /name="([^"]*)"/.exec(input[0])?.[1]
    const value = /value="([^"]*)"/.exec(input[0])?.[1] ?? ""
    if (name) fields[decode(name)] = decode(value)
  }
  return { action: decode(form[1]), fields }
}

let shopperNumber = 0

/** A shopper: its own client address, the store's publishable key, JSON in and out. */
function shopper(store) {
  shopperNumber++
  const address = `10.${(shopperNumber >> 16) & 255}.${(shopperNumber >> 8) & 255}.${shopperNumber & 255}`
  const call = async (method, path, body) => {
    const response = await fetch(`${store.url}${path}`, {
      method,
      headers: { "content-type": "application/json", accept: "application/json", "x-publishable-api-key": store.publishableKey, "x-forwarded-for": address },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const text = await response.text()
    if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text.slice(0, 300)}`)
    return text ? JSON.parse(text) : null
  }
  const form = async (url, fields) => fetch(url, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": address }, body: new URLSearchParams(fields).toString(), redirect: "manual" })
  return { call, form, address }
}

export async function newCart(store) {
  const s = shopper(store)
  const address = { first_name: "Ayşe", last_name: "Yılmaz", address_1: "İstiklal Cd. 1", city: "İstanbul", country_code: "tr", postal_code: "34430", phone: "5551234567" }
  const { cart } = await s.call("POST", "/store/carts", { region_id: store.regionId, email: "bench@example.com", items: store.items, shipping_address: address, billing_address: address })
  return { s, cart }
}

async function session(s, cart, providerId) {
  const { payment_collection: collection } = await s.call("POST", "/store/payment-collections", { cart_id: cart.id })
  const { payment_collection: withSession } = await s.call("POST", `/store/payment-collections/${collection.id}/payment-sessions`, { provider_id: providerId })
  return withSession.payment_sessions.find((entry) => entry.provider_id === providerId)
}

/** The browser at the gateway and back at the store: bank page, SMS code, the store's return route. */
async function throughBank(s, signed) {
  const bank = await s.form(signed.action, { ...signed.fields, ...FORM_CARD })
  if (bank.status !== 200) throw new Error(`paySmart3D answered ${bank.status}`)
  const bankForm = readForm(await bank.text())
  const answer = await s.form(bankForm.action, { sms_code: "283126", action: "confirm" })
  let back
  if (answer.status === 303) back = await fetch(answer.headers.get("location"), { redirect: "manual", headers: { "x-forwarded-for": s.address } })
  else {
    const result = readForm(await answer.text())
    back = await s.form(result.action, result.fields)
  }
  const location = back.headers.get("location") ?? ""
  const order = /order_[A-Za-z0-9]+/.exec(location)?.[0]
  if (!order) throw new Error(`the return did not reach an order: ${back.status} ${location}`)
  return order
}

/** The second floor: Medusa's checkout through a provider that captures as it authorizes (src/scripts/bench-floor-provider, not in the package). */
const CAPTURING_FLOOR = "pp_capturing-floor_bench"

async function medusaCheckout({ s, cart }, providerId) {
  await session(s, cart, providerId)
  const done = await s.call("POST", `/store/carts/${cart.id}/complete`)
  if (done.type !== "order") throw new Error(`complete answered ${JSON.stringify(done).slice(0, 200)}`)
  return done.order.id
}

export const FLOWS = {
  system: (prepared) => medusaCheckout(prepared, "pp_system_default"),
  "system-captured": (prepared) => medusaCheckout(prepared, CAPTURING_FLOOR),
  "2d": async ({ s, cart }) => {
    const paymentSession = await session(s, cart, "pp_sipay-2d_sipay")
    const paid = await s.call("POST", `/store/sipay/payment-sessions/${paymentSession.id}/pay-2d`, { cart_id: cart.id, installments_number: 1, card: CARD })
    if (!paid.order_id) throw new Error(`pay-2d answered ${JSON.stringify(paid).slice(0, 200)}`)
    return paid.order_id
  },
  "3d-form": async ({ s, cart }) => {
    const paymentSession = await session(s, cart, "pp_sipay_sipay")
    const signed = await s.call("POST", `/store/sipay/payment-sessions/${paymentSession.id}/3d-form`, { cart_id: cart.id, installments_number: 1 })
    return throughBank(s, signed)
  },
  "3d-hosted": async ({ s, cart }) => {
    const paymentSession = await session(s, cart, "pp_sipay_sipay")
    const { url } = await s.call("POST", `/store/sipay/payment-sessions/${paymentSession.id}/hosted-page`, { cart_id: cart.id })
    // As the shopper's browser: the page (the same for every session), then what its script posts with the fragment's token.
    const base = new URL(url)
    const token = new URLSearchParams(base.hash.slice(1)).get("token")
    const post = (path, body) =>
      fetch(new URL(path, base), { method: "POST", headers: { "content-type": "application/json", accept: "application/json", "x-forwarded-for": s.address }, body: JSON.stringify({ token, ...body }) })
    await fetch(url, { headers: { "x-forwarded-for": s.address } }).then((r) => r.text())
    const { config } = await post(`${base.pathname}/content`, {}).then((r) => r.json())
    await post(config.installmentsUrl, { bin: CARD.number.slice(0, 6) }).then((r) => r.text())
    const signedAnswer = await post(config.signUrl, { installments_number: 1, locale: config.locale })
    const signed = await signedAnswer.json()
    if (!signedAnswer.ok) throw new Error(`sign answered ${signedAnswer.status}: ${JSON.stringify(signed).slice(0, 200)}`)
    return throughBank(s, { action: new URL(signed.action, base).toString(), fields: { ...signed.fields, name: "Ayşe", surname: "Yılmaz" } })
  },
}

export async function timed(store, flow) {
  const prepared = await newCart(store)
  const started = performance.now()
  const order = await FLOWS[flow](prepared)
  return { ms: performance.now() - started, order }
}

const sleep = (ms) => new Promise((resolveSleep) => setTimeout(resolveSleep, ms))
const percentile = (values, p) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil((p / 100) * values.length) - 1)]

async function burst(store, flow, size) {
  const carts = await Promise.all(Array.from({ length: size }, () => newCart(store)))
  const started = performance.now()
  const results = await Promise.all(
    carts.map(async (prepared) => {
      const begun = performance.now()
      try {
        await FLOWS[flow](prepared)
        return { ok: true, ms: performance.now() - begun }
      } catch (error) {
        return { ok: false, ms: performance.now() - begun, error: error.message }
      }
    })
  )
  const ok = results.filter((r) => r.ok)
  return { wall: performance.now() - started, errors: results.length - ok.length, p50: percentile(ok.map((r) => r.ms), 50), p95: percentile(ok.map((r) => r.ms), 95), firstError: results.find((r) => !r.ok)?.error }
}

/**
 * The bench's store: the demo stack (admin off, its own data folder and database, rate limits off,
 * X-Forwarded-For trusted from loopback) with pp_system_default added to the demo region.
 */
export async function openCheckoutStore() {
  const dataDir = mkdtempSync(join(tmpdir(), "sipay-bench-store-"))
  const env = {
    ...process.env,
    DEMO_STORE_PORT: String(await freePort()),
    DEMO_STOREFRONT_PORT: String(await freePort()),
    DEMO_SANDBOX_PORT: String(await freePort()),
    DEMO_ADMIN_DISABLED: "true",
    DEMO_DB_NAME: process.env.BENCH_STORE_DB || "medusa_sipay_bench_store",
    SIPAY_TRUSTED_PROXIES: "loopback",
    SIPAY_RATE_LIMITS: JSON.stringify({ enabled: false }),
    SIPAY_LEDGER_SCHEDULE: "off",
    SIPAY_RECONCILE_SCHEDULE: "off",
    BENCH_CAPTURING_FLOOR: "true",
  }
  const stack = await startDemoStack({ env, dataDir })
  const close = async () => {
    await stack.stop()
    rmSync(dataDir, { recursive: true, force: true })
  }
  const calls = async (method = "GET") => (await fetch(`${stack.sandbox.link_base ?? stack.ready.sandbox_url.replace(/\/ccpayment$/, "")}/__sandbox/calls`, { method })).json()
  try {
    const { ready } = stack
    const login = await fetch(`${ready.store_url}/auth/user/emailpass`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: ready.admin_email, password: ready.admin_password }) })
    const { token } = await login.json()
    const adminHeaders = { authorization: `Bearer ${token}`, "content-type": "application/json" }
    const region = (await (await fetch(`${ready.store_url}/admin/regions/${ready.region_id}?fields=*payment_providers`, { headers: adminHeaders })).json()).region
    const providers = [...new Set([...(region.payment_providers ?? []).map((p) => p.id), "pp_system_default", CAPTURING_FLOOR])]
    const updated = await fetch(`${ready.store_url}/admin/regions/${ready.region_id}`, { method: "POST", headers: adminHeaders, body: JSON.stringify({ payment_providers: providers }) })
    if (!updated.ok) throw new Error(`adding pp_system_default to the region: ${updated.status} ${await updated.text()}`)
    const products = (await (await fetch(`${ready.store_url}/store/products?region_id=${ready.region_id}&fields=*variants`, { headers: { "x-publishable-api-key": ready.publishable_key } })).json()).products
    const items = products.slice(0, 2).map((product, index) => ({ variant_id: product.variants[0].id, quantity: index === 0 ? 2 : 1 }))
    const store = { url: ready.store_url, publishableKey: ready.publishable_key, regionId: ready.region_id, items }
    /** The store owner's checkout settings, changed as the admin's Settings page does. */
    const settings = async (changes) => {
      const answer = await fetch(`${ready.store_url}/admin/sipay/settings`, { method: "POST", headers: adminHeaders, body: JSON.stringify(changes) })
      if (!answer.ok) throw new Error(`changing the checkout settings: ${answer.status} ${await answer.text()}`)
    }
    return { stack, store, calls, close, settings }
  } catch (error) {
    await close()
    throw error
  }
}

export async function benchCheckout({ options, row, notes, triple, stats, fmt }) {
  const { store, calls, close, settings } = await openCheckoutStore()
  try {
    const atStart = await calls()
    notes.push(`token fetches when the store was up, before any checkout: ${atStart.token ?? 0}`)
    let tokens = 0
    const resetCalls = async () => {
      tokens += (await calls()).token ?? 0
      await calls("DELETE")
    }

    // Gateway calls of one checkout per flow: during it, then what the sale webhook adds a few seconds later.
    for (const flow of ["2d", "3d-form", "3d-hosted"]) {
      await timed(store, flow) // warm-up
      await sleep(6500) // its sale webhook (Medusa handles it 5 s after delivery) is not this checkout's
      await resetCalls()
      await timed(store, flow)
      const during = await calls()
      await sleep(6000)
      const after = await calls()
      const later = Object.fromEntries(Object.entries(after).map(([name, n]) => [name, n - (during[name] ?? 0)]).filter(([, n]) => n > 0))
      const serverDuring = Object.entries(during).filter(([name]) => name !== "paySmart3D").reduce((sum, [, n]) => sum + n, 0)
      notes.push(`${flow}: gateway calls during the checkout ${JSON.stringify(during)} (server calls ${serverDuring}; paySmart3D is the browser's form post), later (webhook) ${JSON.stringify(later)}`)
    }
    await timed(store, "system")

    const rounds = options.rounds * 2
    const times = { system: [], "system-captured": [], "2d": [], "3d-form": [], "3d-hosted": [] }
    const ratios = { "2d": [], "3d-form": [], "3d-hosted": [] }
    const capturedRatios = { "system-captured": [], "2d": [], "3d-form": [], "3d-hosted": [] }
    for (let round = 0; round < rounds; round++) {
      const order = Object.keys(times)
      const rotated = [...order.slice(round % order.length), ...order.slice(0, round % order.length)]
      const got = {}
      for (const flow of rotated) got[flow] = (await timed(store, flow)).ms
      for (const flow of Object.keys(times)) times[flow].push(got[flow])
      for (const flow of Object.keys(ratios)) ratios[flow].push(got[flow] / got.system)
      capturedRatios["system-captured"].push(got["system-captured"] / got.system)
      for (const flow of Object.keys(ratios)) capturedRatios[flow].push(got[flow] / got["system-captured"])
    }
    const targets = { "2d": 1.1, "3d-form": 1.1, "3d-hosted": 1.25 }
    for (const flow of Object.keys(ratios)) {
      const ratio = stats(ratios[flow])
      row(`checkout ${flow}, cart to order id, ms`, triple(stats(times[flow]), 0), `${triple(stats(times.system), 0)} (pp_system_default)`, triple(ratio), `<= ${targets[flow]}x`, ratio.median <= targets[flow])
    }
    // The sale is captured at the gateway, so Medusa records a capture the authorize-only floor never does:
    // its cost alone, and each flow against a floor that records it too (no target of its own).
    row(
      "  Medusa's checkout recording a captured payment (a provider that captures as it authorizes), ms",
      triple(stats(times["system-captured"]), 0),
      `${triple(stats(times.system), 0)} (pp_system_default)`,
      triple(stats(capturedRatios["system-captured"])),
      "-",
      undefined
    )
    for (const flow of Object.keys(ratios)) {
      row(`  checkout ${flow} against that capturing floor`, triple(stats(times[flow]), 0), `${triple(stats(times["system-captured"]), 0)} (capturing floor)`, triple(stats(capturedRatios[flow])), "-", undefined)
    }

    // Like for like: pp_system_default only authorizes, and so does a store that captures later
    // (pre-authorization); the rows above also record the sale's capture, which the floor never does.
    await settings({ capture: false })
    try {
      const preAuth = { system: [], "2d": [], "3d-form": [] }
      const preAuthRatios = { "2d": [], "3d-form": [] }
      for (let round = 0; round < rounds; round++) {
        const order = ["system", "2d", "3d-form"]
        const got = {}
        for (const flow of [...order.slice(round % 3), ...order.slice(0, round % 3)]) got[flow] = (await timed(store, flow)).ms
        for (const flow of Object.keys(preAuth)) preAuth[flow].push(got[flow])
        for (const flow of Object.keys(preAuthRatios)) preAuthRatios[flow].push(got[flow] / got.system)
      }
      for (const flow of Object.keys(preAuthRatios)) {
        const ratio = stats(preAuthRatios[flow])
        row(`checkout ${flow}, store capturing later (pre-authorization, authorize only as the floor), ms`, triple(stats(preAuth[flow]), 0), `${triple(stats(preAuth.system), 0)} (pp_system_default)`, triple(ratio), `<= ${targets[flow]}x`, ratio.median <= targets[flow])
      }
    } finally {
      await settings({ capture: null })
    }

    const bursts = Math.max(1, Math.min(options.rounds, 3))
    for (const [flow, size, target] of [["2d", 50, 1.2], ["3d-form", 20, null]]) {
      // Each round runs the three bursts in a rotated order, so no flow always follows another's late webhooks.
      const runs = { [flow]: [], system: [], "system-captured": [] }
      for (let round = 0; round < bursts; round++) {
        const order = Object.keys(runs)
        for (const which of [...order.slice(round % 3), ...order.slice(0, round % 3)]) runs[which].push(await burst(store, which, size))
      }
      const [ours, floors, capturing] = [runs[flow], runs.system, runs["system-captured"]]
      const p95 = stats(ours.map((b, i) => b.p95 / floors[i].p95))
      const errors = ours.reduce((sum, b) => sum + b.errors, 0)
      row(`${size} concurrent ${flow}: p95 ms (errors ${errors} of ${size * bursts})`, triple(stats(ours.map((b) => b.p95)), 0), `${triple(stats(floors.map((b) => b.p95)), 0)} (${size} x pp_system_default)`, triple(p95), target ? `0 errors, p95 <= ${target}x` : "-", target ? errors === 0 && p95.median <= target : undefined)
      row(`  ${size} concurrent ${flow} against ${size} x the capturing floor`, triple(stats(ours.map((b) => b.p95)), 0), `${triple(stats(capturing.map((b) => b.p95)), 0)} (capturing floor)`, triple(stats(ours.map((b, i) => b.p95 / capturing[i].p95))), "-", undefined)
      if (errors) notes.push(`${flow} burst error: ${ours.find((b) => b.errors)?.firstError}`)
    }
    tokens += (await calls()).token ?? 0
    notes.push(`token fetches in the whole checkout run (${shopperNumber} shoppers): ${tokens}`)
    notes.push(`checkout figures: ${rounds} rounds in rotating order, ${bursts} bursts each; the store is the demo stack (NODE_ENV development, in-memory event bus and workflow engine), the sandbox at zero latency`)
  } finally {
    await close()
  }
}
